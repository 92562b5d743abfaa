// The run server: the process a run lives in, detached from every terminal (tmux's server is the
// model). It listens on `<socket dir>/<id>.sock`, holds the workbench lock, runs supervise() with
// the server face (server-face.ts) as its face, and lets terminals attach and detach as clients. It ends when the
// run ends: every client hears `bye`, the socket and the lock go, the exit code is the run's.
// This file is the server's life: start, listen, run, end. Its clients are client-registry.ts (the rules
// for them: core/server/client-rules.ts), what they say client-dispatch.ts, a client's first paint client-paint.ts.

import { createServer, type Server, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { supervise, type SuperviseResult } from '../runtime/supervisor.js';
import { createClaudeKeys, PERSON_KEYS, type ClaudeKeys } from '../runtime/claude-keys.js';
import { openLog } from '../adapters/log-file.js';
import { EXIT, FlowerError } from '../core/errors.js';
import { runEnding, type EndedBy } from '../core/server/client-rules.js';
import type { ClientMessage, ServerMessage } from './wire.js';
import { openFastRelay, type FastRelay } from '../adapters/fast-relay.js';
import { memoryTrim } from '../adapters/memory-trim.js';
import { envSwitch } from '../adapters/config-file.js';
import { createServerFace, type ServerFace } from './server-face.js';
import { createPartialFrameBudget, openClientLink, type ClientLink } from './client-link.js';
import { createClientRegistry, type ClientRegistry } from './client-registry.js';
import { createClientDispatch } from './client-dispatch.js';
import { createIdleMemory } from './idle-memory.js';
import { createSplitWarmup } from './split-warmup.js';
import { createElsewhereFaces } from './elsewhere-faces.js';
import { readRunSpec, type RunSpec } from './run-spec.js';
import { serverLogPath, removeIfEmpty } from './start-server.js';
import { openSocketDir, listenPrivate, socketPath as socketPathOf } from './socket-dir.js';
import { acquireWorkbenchLock } from './workbench-lock.js';
import { serveDemo } from './demo-serve.js';
import { sayErr } from '../adapters/terminal-lines.js';

/** the line a starting server writes on its ready pipe: `ready`, or `error <exit code> <one line>` */
export function readyLine(result: { ok: true } | { ok: false; code: number; message: string }): string {
  return result.ok ? 'ready\n' : `error ${result.code} ${result.message.replace(/\s+/g, ' ')}\n`;
}

export async function serve(specPath: string, ready: Writable | null): Promise<number> {
  let started: Started;
  try {
    started = await start(readRunSpec(specPath));
  } catch (error) {
    const fatal =
      error instanceof FlowerError
        ? { code: error.exitCode, message: error.message }
        : { code: EXIT.internal, message: `internal error (please report): ${String(error)}` };
    ready?.end(readyLine({ ok: false, ...fatal }));
    if (!(error instanceof FlowerError)) sayErr(`${error instanceof Error ? error.stack : String(error)}`);
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
  const release = spec.options.workbench
    ? await acquireWorkbenchLock(spec.options.workbench, { id: spec.id, socket: socketPathOf(socketDir, spec.id) })
    : () => undefined;
  const startedAt = new Date().toISOString();
  const log = openLog(spec.logPath);
  const abort = new AbortController();
  let endedBy: EndedBy = null;

  const native = !envSwitch(process.env, 'FLOWER_PTY_NO_NATIVE');
  // Quiet with no terminal attached, the server gives back what it holds for nothing (core/server/memory-trim.ts).
  const idleMemory = createIdleMemory({
    attached: () => clients.attached().length,
    trim: native ? memoryTrim() : null,
    log: log.write,
  });
  const serverFace = createServerFace({
    cols: spec.cols,
    rows: spec.rows,
    broadcast: (message) => clients.broadcast(message),
    activity: idleMemory.activity,
  });
  const clients = createClientRegistry(serverFace);
  // claude's pty and the plain faces' terminals on a native thread, when it is built (else Node's streams)
  const relay = native ? openFastRelay() : null;
  if (!relay) log.write("the native relay is not in use: keys and output go through Node's streams");
  // Every key for claude, from every client and from the run itself, goes through this one sink
  // (runtime/claude-keys.ts); with the relay, the run hears of keys after their echo is on its way.
  const keys = createClaudeKeys({ echoFirst: relay !== null });
  // The server's emulator answers claude's terminal queries when no attached terminal does (core/server/client-rules.ts).
  serverFace.screen.onReply((data) => {
    if (clients.emulatorAnswers()) keys.send(data, PERSON_KEYS);
  });

  const dispatch = createClientDispatch({
    spec,
    serverFace,
    clients,
    relay,
    keys,
    log: log.write,
    startedAt,
    kill() {
      endedBy ??= 'kill';
      abort.abort();
    },
  });

  // A chooser listing this run: its split view made ready before the person picks it (split-warmup.ts).
  const warmup = createSplitWarmup({ latest: () => serverFace.latest.view ?? null, log: log.write });
  // The other runs waiting for the person, for the split views of clients that do not count them (native).
  const elsewhere = createElsewhereFaces({ dir: socketDir, selfId: spec.id, env: process.env });
  const onMessage = (link: ClientLink, message: ClientMessage) => {
    idleMemory.activity();
    if (message.t === 'hello' && link.role === null) elsewhere.hello(link, message);
    if (message.t === 'hello' && message.role === 'query' && message.chooser) warmup.hint(message.term);
    dispatch(link, message);
  };
  const onClose = (link: ClientLink) => {
    // a client that goes away leaves claude at the size it had (tmux keeps the last size too)
    clients.remove(link);
    elsewhere.gone(link);
    idleMemory.activity();
  };
  clients.onAttachedChange(idleMemory.attachedChanged);
  const partialFrames = createPartialFrameBudget();
  const server: Server = createServer((socket: Socket) => {
    clients.add(openClientLink(socket, { onMessage, onClose }, partialFrames));
    idleMemory.activity();
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
      const result = await superviseServed(spec, { serverFace, clients, log, signal: abort.signal, relay, keys });
      const { exitCode, reason } = runEnding(endedBy, result.exitCode);
      const bye: ServerMessage = { t: 'bye', reason, exitCode, ...(result.message ? { message: result.message } : {}) };
      // The socket goes first: from here on `ls` does not list a run that is ending.
      rmSync(socketPath, { force: true });
      await closeAll(server, clients.all(), bye);
      relay?.close(); // claude is gone and every terminal given back: the thread has nothing left
      idleMemory.dispose();
      elsewhere.dispose();
      release();
      serverFace.screen.dispose();
      log.close();
      removeIfEmpty(serverLogPath(socketDir, spec.id));
      return exitCode;
    },
  };
}

/** claude supervised for the run (behind its demo, when it has one): what it ended with, an internal
 * error as an internal exit */
async function superviseServed(
  spec: RunSpec,
  served: {
    serverFace: ServerFace;
    clients: ClientRegistry;
    log: { write(line: string): void };
    signal: AbortSignal;
    relay: FastRelay | null;
    keys: ClaudeKeys;
  },
): Promise<SuperviseResult> {
  let result: SuperviseResult;
  const demo = spec.demo ? await serveDemo(spec.demo, process.env).catch((error: unknown) => error as Error) : null;
  try {
    if (demo instanceof Error) throw demo;
    // A notification goes to the terminals as output, around the emulator: it is not part of claude's screen.
    const notify = spec.notify ? (sequence: string) => served.clients.broadcast({ t: 'output', data: sequence }) : null;
    const face = demo ? demo.face(served.serverFace) : served.serverFace;
    result = await supervise(
      {
        ...spec.options,
        env: demo ? demo.env : process.env,
        log: served.log.write,
        signal: served.signal,
        notify,
        relay: served.relay,
        keys: served.keys,
      },
      face,
    );
  } catch (error) {
    result = {
      exitCode: EXIT.internal,
      message: `internal error (please report): ${error instanceof Error ? error.message : String(error)}`,
    };
    sayErr(`${error instanceof Error ? error.stack : String(error)}`);
  }
  if (demo && !(demo instanceof Error))
    await demo.end().catch((error: unknown) => served.log.write(`the demo's end: ${String(error)}`));
  return result;
}

function closeAll(server: Server, clients: ClientLink[], bye: ServerMessage): Promise<void> {
  return new Promise((resolve) => {
    for (const client of clients) client.close(bye);
    server.close(() => resolve());
    // A client that does not hang up after its bye is cut at 2 s (client-link): the server still ends.
  });
}
