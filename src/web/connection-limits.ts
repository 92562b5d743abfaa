// The web server's connections, held to their limits: no more than MAX_CONNECTIONS at once, and one that
// sends nothing is closed once FIRST_REQUEST_MS pass without a whole request (the header timeout only
// starts with a first byte). Upgraded sockets stay counted by the server, so its close() would wait on
// them for ever: `cutAll` ends every one.

import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { FIRST_REQUEST_MS, MAX_CONNECTIONS } from '../core/web/web-request.js';

export function limitConnections(server: Server): { cutAll(): void } {
  const connections = new Set<Duplex>();
  const waiting = new WeakMap<Duplex, NodeJS.Timeout>();
  const answered = (socket: Duplex) => {
    clearTimeout(waiting.get(socket));
    waiting.delete(socket);
  };
  server.maxConnections = MAX_CONNECTIONS;
  server.on('connection', (socket: Duplex) => {
    connections.add(socket);
    const timer = setTimeout(() => socket.destroy(), FIRST_REQUEST_MS);
    timer.unref();
    waiting.set(socket, timer);
    socket.on('close', () => {
      answered(socket);
      connections.delete(socket);
    });
  });
  // over TLS the request's socket is the TLS socket, whose underlying connection is the one counted
  const counted = (socket: Duplex): Duplex => (socket as Duplex & { _parent?: Duplex })._parent ?? socket;
  server.on('request', (req: IncomingMessage) => answered(counted(req.socket)));
  server.on('upgrade', (req: IncomingMessage) => answered(counted(req.socket)));
  return {
    cutAll() {
      for (const socket of connections) socket.destroy();
    },
  };
}
