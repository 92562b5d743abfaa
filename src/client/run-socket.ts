// The client's end of a run's socket: connected, or a one-line error saying the run has ended.

import { createConnection, type Socket } from 'node:net';
import { FlowerError } from '../core/errors.js';
import { ownCommandHere } from '../adapters/own-command-here.js';

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
