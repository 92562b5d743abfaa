// The client's end of a run's socket: connected, or a one-line error saying the run has ended.

import { createConnection, type Socket } from 'node:net';
import { FlowerError } from '../core/errors.js';
import { ownCommandHere } from '../adapters/own-command-here.js';
import { encodeFrame, WIRE_VERSION } from '../server/wire.js';

export function connectRun(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.off('error', onError);
      socket.setNoDelay?.(true);
      resolve(socket);
    });
    const onError = (error: NodeJS.ErrnoException) =>
      reject(
        new FlowerError(
          `no run answers on ${path} (${error.code ?? error.message}): it has ended; ${ownCommandHere(process.env, process.cwd())} ls lists the live runs`,
        ),
      );
    socket.once('error', onError);
  });
}

/** tells the run that a chooser lists it, from a terminal named `term`: it makes its split view ready
 * (server/split-warmup.ts). A `query` hello alone, sent and let go: nothing is waited for or said. */
export function tellChooserListed(path: string, term: string | undefined): void {
  const socket = createConnection(path);
  socket.on('error', () => undefined); // a run that ended meanwhile: nothing to warm
  socket.on('connect', () =>
    socket.end(
      encodeFrame({ t: 'hello', version: WIRE_VERSION, role: 'query', chooser: true, ...(term ? { term } : {}) }),
    ),
  );
  socket.on('data', () => socket.destroy()); // its welcome
}
