// The run server: the process a run lives in, detached from every terminal (tmux's server is the
// model). It listens on `<socket dir>/<id>.sock`, holds the workbench lock, runs supervise() with
// the server host as its face, and lets terminals attach and detach as clients. It ends when the
// run ends: every client hears `bye`, the socket and the lock go, the exit code is the run's.

import { createServer, type Server, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { supervise, type SuperviseResult } from '../supervisor.js';
import { openLog } from '../adapters/log-file.js';
import { EXIT, FlowerError } from '../errors.js';
import { runExitCode } from '../core/exit-code.js';
import { encodeFrame, versionMismatchReason, WIRE_VERSION, type ClientMessage, type Hello, type RunInfo, type ServerMessage } from './wire.js';
import { openClientTerminal, type ClientTerminal } from '../adapters/client-terminal.js';
import { openTerminalFace, type TerminalFace } from './terminal-face.js';
import { openFastRelay } from '../adapters/fast-relay.js';
import { envSwitch } from '../adapters/config-file.js';
import { createServerHost } from './server-host.js';
import { createPartialFrameBudget, openClientLink, type ClientLink } from './client-link.js';
import { readRunSpec, type RunSpec } from './run-spec.js';
import { serverLogPath, removeIfEmpty } from './start-server.js';
import { openSocketDir, listenPrivate, socketPath as socketPathOf } from './socket-dir.js';
import { acquireWorkbenchLock } from './workbench-lock.js';

/** the line a starting server writes on its ready pipe: `ready`, or `error <exit code> <one line>` */
export function readyLine(result: { ok: true } | { ok: false; code: number; message: string }): string {
  return result.ok ? 'ready\n' : `error ${result.code} ${result.message.replace(/\s+/g, ' ')}\n`;
}

export async function serve(specPath: string, ready: Writable | null): Promise<number> {
  let started: Started;
  try {
    started = await start(readRunSpec(specPath));
  } catch (error) {
    const fatal = error instanceof FlowerError ? { code: error.exitCode, message: error.message } : { code: EXIT.internal, message: `internal error (please report): ${String(error)}` };
    ready?.end(readyLine({ ok: false, ...fatal }));
    if (!(error instanceof FlowerError)) process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    return fatal.code;
  }
  ready?.end(readyLine({ ok: true }));
  return started.run();
}

interface Started {
  run(): Promise<number>;
}

async function start(spec: RunSpec): Promise<Started> {
  const socketDir = await openSocketDir(process.env);
  // The lock before the socket: a second flower-pty on this workbench is refused, naming attach.
  const release = spec.options.workbench ? await acquireWorkbenchLock(spec.options.workbench, { id: spec.id, socket: socketPathOf(socketDir, spec.id) }) : () => undefined;
  const startedAt = new Date().toISOString();
  const log = openLog(spec.logPath);
  const clients = new Set<ClientLink>();
  /** attach clients that only watch (the web face): never followed for claude's size, told when it changes */
  const watchers = new Set<ClientLink>();
  /** the client whose size claude's pty follows (it attached or typed last) */
  let latest: ClientLink | null = null;
  const abort = new AbortController();
  let endedBy: 'kill' | NodeJS.Signals | null = null;

  const attached = () => [...clients].filter((c) => c.role === 'attach' && !watchers.has(c));
  const broadcast = (message: ServerMessage): void => {
    // Framed once for every client on the wire, and not at all when all of them are drawn here.
    let frame: Buffer | null = null;
    const framed = () => (frame ??= encodeFrame(message));
    for (const client of clients) if (client.role === 'attach') client.show(message, framed);
  };
  const host = createServerHost({ cols: spec.cols, rows: spec.rows, broadcast });
  // claude's pty and the plain faces' terminals on a native thread, when it is built (else Node's streams)
  const relay = envSwitch(process.env, 'FLOWER_PTY_NO_NATIVE') ? null : openFastRelay();
  if (!relay) log.write('the native relay is not in use: keys and output go through Node\'s streams');
  // With nobody attached, nobody's terminal answers claude's queries (cursor position, device
  // attributes): the server's emulator does, so a successor starting unwatched does not wait on them.
  // So it does when every terminal attached is a split view drawn from it (none of them answers).
  host.screen.onReply((data) => {
    if (attached().every((c) => c.face?.sharesScreen)) host.input(data);
  });

  function info(): RunInfo {
    const view = host.latest.view;
    return {
      id: spec.id,
      pid: process.pid,
      cwd: spec.options.cwd,
      workbench: spec.options.workbench,
      step: spec.options.step,
      started: startedAt,
      clients: attached().length,
      watchers: watchers.size,
      generation: view?.generation ?? 1,
      phase: view?.phase ?? 'starting',
      context: view?.context ?? 0,
      window: view?.window ?? 0,
      status: view,
    };
  }

  function follow(client: ClientLink): void {
    if (watchers.has(client)) return; // a watcher sees claude at the size the terminals give it
    latest = client;
    if (client.size) resizeClaude(client.size.cols, client.size.rows);
  }

  function resizeClaude(cols: number, rows: number): void {
    if (cols === host.screen.cols && rows === host.screen.rows) return;
    host.resize(cols, rows);
    const size: ServerMessage = { t: 'size', cols: host.screen.cols, rows: host.screen.rows };
    let frame: Buffer | null = null;
    for (const watcher of watchers) watcher.show(size, () => (frame ??= encodeFrame(size)));
  }

  function onMessage(client: ClientLink, message: ClientMessage): void {
    if (client.role === null) {
      if (message.t !== 'hello') return client.close({ t: 'refused', reason: 'a client must say hello first' });
      if (message.version !== WIRE_VERSION) return client.close({ t: 'refused', reason: versionMismatchReason(message.version) });
      client.setRole(message.role);
      if (message.role === 'attach' && message.watch) watchers.add(client);
      if (message.role === 'query') return client.send({ t: 'welcome', version: WIRE_VERSION, run: info() });
      if (message.cols && message.rows && !watchers.has(client)) client.size = bounded(message.cols, message.rows);
      // A first paint that cannot be framed (a screen too big for one frame) refuses that client only.
      paint(client, message).catch((error: unknown) => client.close({ t: 'refused', reason: `cannot paint this terminal: ${error instanceof Error ? error.message : String(error)}` }));
      return;
    }
    const face = client.face;
    switch (message.t) {
      case 'input':
        if (client.role === 'attach') typed(client, message.data);
        return;
      case 'resize':
        // A direct client's size is its terminal's: the face here works out claude's from it.
        if (face) return face.terminalResized(message.cols, message.rows);
        if (!watchers.has(client)) sized(client, message.cols, message.rows);
        return;
      case 'edited':
        face?.edited(message);
        return;
      case 'command':
        if (client.role === 'attach') host.command(message.command);
        return;
      case 'detach':
        client.close({ t: 'bye', reason: 'detached' });
        return;
      case 'info':
        client.send({ t: 'info', run: info() });
        return;
      case 'kill':
        endedBy ??= 'kill';
        abort.abort();
        return;
      case 'hello':
        return;
    }
  }

  // A client's keys for claude (`delivered`: the relay wrote them already); the size follows the typist.
  function typed(client: ClientLink, data: string, delivered = false): void {
    if (latest !== client) follow(client);
    host.input(data, delivered);
  }

  function sized(client: ClientLink, cols: number, rows: number): void {
    client.size = bounded(cols, rows);
    if (latest === client) resizeClaude(client.size.cols, client.size.rows);
  }

  // A client on a terminal is drawn here when its terminal opens; else (no terminal named, or one
  // this process cannot open) it gets the stream and draws its own: it is never refused for it.
  async function directFace(client: ClientLink, hello: Hello): Promise<void> {
    if (!hello.tty || hello.watch) return;
    let terminal: ClientTerminal;
    try {
      terminal = openClientTerminal(hello.tty);
    } catch (error) {
      log.write(`drawing the client's terminal ${hello.tty} failed (${error instanceof Error ? error.message : String(error)}): it draws its own`);
      return;
    }
    let face: TerminalFace;
    try {
      face = await openTerminalFace(terminal, hello, hello.documentPath ?? host.latest.view?.documentPath ?? null, {
        input: (data, delivered) => typed(client, data, delivered),
        resized: (cols, rows) => sized(client, cols, rows),
        command: (command) => onMessage(client, { t: 'command', command }),
        detach: () => onMessage(client, { t: 'detach' }),
        edit: (path) => client.send({ t: 'edit', path }),
      }, relay, host.screen.emulator);
    } catch (error) {
      terminal.close(); // a face refused (a bad $FLOWER_PTY_PREFIX): the client hears why, in one line
      throw error;
    }
    client.setFace(face);
    client.size = bounded(face.size().cols, face.size().rows);
  }

  // welcome, then the screen as it is now, then the latest title, status and document, then the stream.
  async function paint(client: ClientLink, hello: Hello): Promise<void> {
    await directFace(client, hello);
    follow(client);
    const welcome = encodeFrame({ t: 'welcome', version: WIRE_VERSION, run: info(), ...(client.face ? { direct: true } : {}) });
    const screen = await host.screen.repaint(); // frames broadcast meanwhile are held for this client
    const first: ServerMessage[] = [];
    if (host.latest.childRunning) first.push({ t: 'child', state: 'started' });
    first.push({ t: 'screen', data: screen, cols: host.screen.cols, rows: host.screen.rows });
    if (host.latest.title) first.push({ t: 'title', title: host.latest.title });
    if (host.latest.view) first.push({ t: 'status', view: host.latest.view });
    if (host.latest.document) first.push({ t: 'document', path: host.latest.document.path, text: host.latest.document.text });
    client.goLive(welcome, first);
  }
  const partialFrames = createPartialFrameBudget();
  const server: Server = createServer((socket: Socket) => {
    const client = openClientLink(socket, {
      onMessage,
      onClose(link) {
        clients.delete(link);
        watchers.delete(link);
        if (latest === link) latest = null; // the size stays as it was (tmux: the last size is kept)
      },
    }, partialFrames);
    clients.add(client);
  });
  let socketPath: string;
  try {
    socketPath = await listenPrivate(server, socketDir, spec.id);
  } catch (error) {
    release();
    log.close();
    throw error;
  }

  const onSignal = (signal: NodeJS.Signals) => {
    endedBy ??= signal;
    abort.abort();
  };
  // No terminal to lose: a hang-up means nothing here. TERM and INT end the run cleanly, like kill.
  process.on('SIGHUP', () => undefined);
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  return {
    async run() {
      let result: SuperviseResult;
      try {
        // A notification goes to the terminals as output, around the emulator: it is not part of claude's screen.
        const notify = spec.notify ? (sequence: string) => broadcast({ t: 'output', data: sequence }) : null;
        result = await supervise({ ...spec.options, env: process.env, log: log.write, signal: abort.signal, notify, relay }, host);
      } catch (error) {
        result = { exitCode: EXIT.internal, message: `internal error (please report): ${error instanceof Error ? error.message : String(error)}` };
        process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      }
      const exitCode = runExitCode(endedBy, result.exitCode);
      const bye: ServerMessage = { t: 'bye', reason: endedBy === 'kill' ? 'killed' : 'ended', exitCode, ...(result.message ? { message: result.message } : {}) };
      // The socket goes first: from here on `ls` does not list a run that is ending.
      rmSync(socketPath, { force: true });
      await closeAll(server, [...clients], bye);
      relay?.close(); // claude is gone and every terminal given back: the thread has nothing left
      release();
      host.screen.dispose();
      log.close();
      removeIfEmpty(serverLogPath(socketDir, spec.id));
      return exitCode;
    },
  };
}

// The emulator allocates every cell: a size far beyond any screen (the wire allows 10000 a side) would
// cost the server its memory, so claude's pty is held to what a terminal can really show.
const MAX_COLS = 1000;
const MAX_ROWS = 500;
function bounded(cols: number, rows: number): { cols: number; rows: number } {
  return { cols: Math.min(cols, MAX_COLS), rows: Math.min(rows, MAX_ROWS) };
}

function closeAll(server: Server, clients: ClientLink[], bye: ServerMessage): Promise<void> {
  return new Promise((resolve) => {
    for (const client of clients) client.close(bye);
    server.close(() => resolve());
    // A client that does not hang up after its bye is cut at 2 s (client-link): the server still ends.
  });
}

