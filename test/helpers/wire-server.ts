// A tiny run server for tests: speaks the wire protocol with the real frame reader, answers hello,
// info and kill like a run would, and can be told to misbehave (stay silent, refuse, send garbage),
// or to stream a client's face to it (never drawing the client's terminal itself) and end.
import { createServer, type Server, type Socket } from 'node:net';
import {
  createFrameReader,
  encodeFrame,
  parseClientMessage,
  versionMismatchReason,
  WIRE_VERSION,
  type ClientMessage,
  type RunInfo,
} from '../../src/server/wire.js';
import { listenPrivate } from '../../src/server/socket-dir.js';

export type Behaviour = 'normal' | 'silent' | 'refuse' | 'garbage' | 'kill-no-bye' | 'stream';

export interface FakeRun {
  server: Server;
  socket: string;
  info: RunInfo;
  /** every message a client sent, in order */
  received: ClientMessage[];
  /** reasons the reader gave for closing a client */
  errors: string[];
  close(): Promise<void>;
}

export function runInfo(id: string, over: Partial<RunInfo> = {}): RunInfo {
  return {
    id,
    pid: process.pid,
    cwd: '/home/u/proj',
    workbench: '/home/u/proj/.flower',
    step: 'work',
    started: '2026-12-01T04:00:00.000Z',
    clients: 0,
    generation: 1,
    phase: 'working',
    context: 12_000,
    window: 200_000,
    status: null,
    ...over,
  };
}

/** a run's status as it is while a tool call waits for the person's permission (the one picture: it needs them) */
export const askingStatus = (tool: string) => ({
  phase: 'working' as const,
  context: 50_000,
  window: 200_000,
  at: 160_000,
  warnAt: 140_000,
  generation: 1,
  maxGenerations: 10,
  handoff: true,
  reviewLeft: null,
  held: false,
  workbench: '/w/.flower',
  documentPath: null,
  note: '',
  attention: `waiting for your permission: ${tool}`,
});

/** `lastWords`: the message of the stream's bye; `direct`: the welcome says the server draws the client's terminal */
export async function startFakeRun(
  dir: string,
  id: string,
  opts: { info?: Partial<RunInfo>; behaviour?: Behaviour; lastWords?: string; direct?: boolean } = {},
): Promise<FakeRun> {
  const behaviour = opts.behaviour ?? 'normal';
  const info = runInfo(id, opts.info);
  const received: ClientMessage[] = [];
  const errors: string[] = [];
  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => undefined); // a client that vanishes is its own problem
    if (behaviour === 'garbage') return void socket.end(Buffer.from([0, 0, 0, 3, 0x7b, 0x7b, 0x7b]));
    const send = (m: Parameters<typeof encodeFrame>[0]) => socket.write(encodeFrame(m));
    const reader = createFrameReader<ClientMessage>({
      validate: parseClientMessage,
      onError: (reason) => {
        errors.push(reason);
        socket.destroy();
      },
      onMessage: (m) => {
        received.push(m);
        if (behaviour === 'silent') return;
        if (m.t === 'hello') {
          if (behaviour === 'refuse' || m.version !== WIRE_VERSION)
            return void (send({ t: 'refused', reason: versionMismatchReason(m.version) }), socket.end());
          send({ t: 'welcome', version: WIRE_VERSION, run: info, ...(opts.direct ? { direct: true } : {}) });
          // All in one write, right behind the welcome: a client must keep them while it loads its face.
          if (behaviour === 'stream' && m.role === 'attach') {
            socket.end(
              Buffer.concat([
                encodeFrame({ t: 'screen', data: 'STREAMED-SCREEN\r\n', cols: 80, rows: 24 }),
                encodeFrame({ t: 'output', data: 'STREAMED-OUTPUT\r\n' }),
                encodeFrame({
                  t: 'bye',
                  reason: 'ended',
                  exitCode: 0,
                  message: opts.lastWords ?? 'the stream is over',
                }),
              ]),
            );
          }
        } else if (m.t === 'info') send({ t: 'info', run: info });
        else if (m.t === 'kill') {
          if (behaviour === 'normal') send({ t: 'bye', reason: 'killed', exitCode: 0 });
          socket.end();
          server.close();
        }
      },
    });
    socket.on('data', (chunk) => reader.push(chunk));
    socket.on('end', () => reader.end());
  });
  const socket = await listenPrivate(server, dir, id);
  return {
    server,
    socket,
    info,
    received,
    errors,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of connections) c.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}
