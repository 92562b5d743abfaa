// One watcher's connection to a run server, as the web face holds it: hello as an attach client that
// only watches (it never sizes claude's pty and does not count as a terminal), then every message of
// the run, until the run ends or the server goes. The same wire as `flower-pty attach` (server/wire.ts).

import { createConnection } from 'node:net';
import {
  createFrameReader,
  encodeFrame,
  parseServerMessage,
  WIRE_VERSION,
  type ClientMessage,
  type ServerMessage,
} from '../server/wire.js';

export interface RunWatch {
  send(message: ClientMessage): void;
  close(): void;
}

export function watchRun(
  socketPath: string,
  on: { message: (m: ServerMessage) => void; closed: (why: string) => void },
): RunWatch {
  const socket = createConnection(socketPath);
  let done = false;
  const finish = (why: string) => {
    if (done) return;
    done = true;
    socket.destroy();
    on.closed(why);
  };
  const reader = createFrameReader<ServerMessage>({
    validate: parseServerMessage,
    onMessage: (m) => {
      if (!done) on.message(m);
    },
    onError: (reason) => finish(`the run sent ${reason}`),
  });
  socket.setNoDelay(true);
  socket.on('connect', () =>
    socket.write(encodeFrame({ t: 'hello', version: WIRE_VERSION, role: 'attach', watch: true })),
  );
  socket.on('data', (chunk: Buffer) => reader.push(chunk));
  socket.on('error', (error: NodeJS.ErrnoException) => finish(`its socket failed (${error.code ?? error.message})`));
  socket.on('close', () => finish('the run hung up'));
  return {
    send(message) {
      if (!done && !socket.destroyed) socket.write(encodeFrame(message));
    },
    close() {
      finish('closed');
    },
  };
}
