// What the run server's clients say, answered: the hello (its verdict is core/server/client-rules.ts's), keys,
// sizes, commands, the editor's result, detach, info and kill. The registry (client-registry.ts) keeps the
// clients and whose size claude takes; a client's first paint is client-paint.ts's.

import { boundedSize, helloVerdict } from '../core/server/client-rules.js';
import { versionMismatchReason, WIRE_VERSION, type ClientMessage, type RunInfo } from './wire.js';
import type { FastRelay } from '../adapters/fast-relay.js';
import type { ClientLink } from './client-link.js';
import type { ClientRegistry } from './client-registry.js';
import type { ServerFace } from './server-face.js';
import type { RunSpec } from './run-spec.js';
import { paintClient, repaintClient, type PaintContext } from './client-paint.js';
import { inputRefusedLine } from '../core/server/input-ceiling.js';
import type { ClaudeKeys, KeySender } from '../runtime/claude-keys.js';
import { ownCommandHere } from '../adapters/own-command-here.js';

export interface DispatchContext {
  spec: RunSpec;
  serverFace: ServerFace;
  clients: ClientRegistry;
  relay: FastRelay | null;
  /** the run's one sink for keys into claude (runtime/claude-keys.ts) */
  keys: ClaudeKeys;
  log: (line: string) => void;
  /** when the server started (ISO), for the run's info */
  startedAt: string;
  /** `flower-pty kill`: end the run cleanly */
  kill: () => void;
}

/** the run's info as its clients are told it: its spec, its clients and what its face last showed */
function runInfo(o: DispatchContext): RunInfo {
  const { serverFace, clients } = o;
  const view = serverFace.latest.view;
  return {
    id: o.spec.id,
    pid: process.pid,
    cwd: o.spec.options.cwd,
    workbench: o.spec.options.workbench,
    step: o.spec.options.step,
    started: o.startedAt,
    clients: clients.attached().length,
    watchers: clients.watchers(),
    generation: view?.generation ?? 1,
    phase: view?.phase ?? 'starting',
    context: view?.context ?? 0,
    window: view?.window ?? 0,
    status: view,
    since: new Date(serverFace.times.since).toISOString(),
    ...(serverFace.times.active !== null ? { active: new Date(serverFace.times.active).toISOString() } : {}),
  };
}

/** the handler for every message of every client */
export function createClientDispatch(o: DispatchContext): (client: ClientLink, message: ClientMessage) => void {
  const { serverFace, clients } = o;
  const info = () => runInfo(o);

  // Each client's keys carry its books, kept when the run is told of them (after their echo, with the
  // relay): claude's size follows the typist. A watcher (a web page, through the web server's one
  // connection) never sizes claude's pty, so nothing decided then could change where its keys go.
  const senders = new WeakMap<ClientLink, KeySender>();
  function senderOf(client: ClientLink): KeySender {
    let sender = senders.get(client);
    if (!sender) senders.set(client, (sender = { books: () => clients.typed(client) }));
    return sender;
  }

  // An input frame waits for claude's reading (in the relay's queue or the Node writer's) within a
  // ceiling; past it the frame is refused whole and its sender told in one line.
  function roomFor(client: ClientLink, data: string): boolean {
    const bytes = Buffer.byteLength(data, 'utf8');
    if (serverFace.inputCeiling.admit(bytes)) return true;
    client.send({ t: 'message', text: inputRefusedLine(bytes, serverFace.inputCeiling.pending) });
    return false;
  }

  // The watchers (the web face's dashboard counts the terminals) are told when one attaches or goes,
  // rather than asking every few seconds.
  clients.onAttachedChange(() => clients.toWatchers({ t: 'info', run: info() }));

  // How a person types flower-pty in the run's folder, for the commands a split view prints (its help, its
  // flashes). This server is the same installed flower-pty as the one that started it, with its PATH, so it
  // answers as the starter would; worked out at the first split view (the path's links read once), not per run
  // nobody draws, nor per attach.
  let ownCommand: string | null = null;

  const paint: PaintContext = {
    serverFace,
    registry: clients,
    relay: o.relay,
    log: o.log,
    info,
    keys: o.keys,
    senderOf,
    command: (client, command) => onMessage(client, { t: 'command', command }),
    detach: (client) => onMessage(client, { t: 'detach' }),
    choose: (client) => client.close({ t: 'bye', reason: 'detached', choose: true }),
    ownCommand: () => (ownCommand ??= ownCommandHere(process.env, o.spec.options.cwd)),
  };

  // A client's paints, one after another: a repaint asked for during the first paint, or during another
  // repaint, is taken after it, so each screen has exactly the stream before it behind it.
  const painting = new WeakMap<ClientLink, Promise<void>>();
  function repaint(client: ClientLink): void {
    const before = painting.get(client) ?? Promise.resolve();
    painting.set(
      client,
      before
        .then(() => repaintClient(serverFace, client))
        .catch((error: unknown) =>
          client.close({
            t: 'refused',
            reason: `cannot repaint: ${error instanceof Error ? error.message : String(error)}`,
          }),
        ),
    );
  }

  function onHello(client: ClientLink, message: ClientMessage): void {
    const verdict = helloVerdict(message, WIRE_VERSION, versionMismatchReason);
    if (verdict.type === 'refuse') return client.close({ t: 'refused', reason: verdict.reason });
    if (message.t !== 'hello') return;
    client.setRole(message.role);
    if (verdict.type === 'query') return client.send({ t: 'welcome', version: WIRE_VERSION, run: info() });
    if (verdict.watcher) clients.watch(client);
    else if (message.cols && message.rows) client.size = boundedSize(message.cols, message.rows);
    // A first paint that cannot be framed (a screen too big for one frame) refuses that client only.
    painting.set(
      client,
      paintClient(paint, client, message).catch((error: unknown) =>
        client.close({
          t: 'refused',
          reason: `cannot paint this terminal: ${error instanceof Error ? error.message : String(error)}`,
        }),
      ),
    );
  }

  function onMessage(client: ClientLink, message: ClientMessage): void {
    if (client.role === null) return onHello(client, message);
    const face = client.face;
    switch (message.t) {
      case 'input':
        if (client.role !== 'attach') return;
        if (!roomFor(client, message.data)) return;
        o.keys.send(message.data, senderOf(client));
        return;
      case 'resize':
        // A direct client's size is its terminal's: the face here works out claude's from it.
        if (face) return face.terminalResized(message.cols, message.rows);
        if (!clients.isWatcher(client)) clients.sized(client, message.cols, message.rows);
        return;
      case 'edited':
        face?.edited(message);
        return;
      case 'command':
        if (client.role === 'attach') serverFace.command(message.command);
        return;
      case 'detach':
        client.close({ t: 'bye', reason: 'detached' });
        return;
      case 'elsewhere':
        face?.othersWaiting(message.waiting);
        return;
      case 'info':
        client.send({ t: 'info', run: info() });
        return;
      case 'kill':
        o.kill();
        return;
      case 'repaint':
        // a terminal the server draws itself is repainted by its face, never on the wire
        if (client.role === 'attach' && !face) repaint(client);
        return;
      case 'hello':
        return;
    }
  }
  return onMessage;
}
