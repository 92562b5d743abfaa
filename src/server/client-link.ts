// One connection to the run server, seen from the server: frames in through the bounded reader,
// frames out with a bound on what may wait for a slow client. A client that sends garbage, a huge
// frame, or hangs up mid-frame is closed alone; one that falls too far behind is dropped alone.

import type { Socket } from 'node:net';
import { createFrameReader, encodeFrame, parseClientMessage, type ClientMessage, type ServerMessage } from './wire.js';

// What may sit unsent for one client before it is dropped: several full repaints, far more than a
// terminal that keeps up ever needs; a stopped one (^S, a frozen ssh) must not grow the server.
export const MAX_PENDING_BYTES = 32 * 1024 * 1024;

export interface ClientLink {
  readonly role: 'attach' | 'query' | null;
  /** painted and streaming (an attach client after its screen frame) */
  readonly live: boolean;
  size: { cols: number; rows: number } | null;
  send(message: ServerMessage | Buffer): void;
  /** send these last words, then hang up */
  close(last?: ServerMessage): void;
  setRole(role: 'attach' | 'query'): void;
  /** an attach client is live once its first paint is out: `first` goes, then the frames held meanwhile */
  goLive(first: Buffer[]): void;
}

export function openClientLink(socket: Socket, handlers: { onMessage: (link: ClientLink, message: ClientMessage) => void; onClose: (link: ClientLink) => void }): ClientLink {
  let role: ClientLink['role'] = null;
  let live = false;
  let closed = false;
  // Frames broadcast while the first paint is being taken: they come right after it.
  let held: Buffer[] = [];

  const write = (frame: Buffer): void => {
    if (closed) return;
    if (socket.writableLength + frame.length > MAX_PENDING_BYTES) {
      socket.destroy(); // too far behind: drop it rather than buffer without end
      return;
    }
    socket.write(frame);
  };

  const link: ClientLink = {
    get role() {
      return role;
    },
    get live() {
      return live;
    },
    size: null,
    send(message) {
      const frame = Buffer.isBuffer(message) ? message : encodeFrame(message);
      if (role === 'attach' && !live) held.push(frame);
      else write(frame);
    },
    close(last) {
      if (closed) return;
      if (last) socket.end(encodeFrame(last));
      else socket.end();
      closed = true;
      // A client that never reads its last frame must not keep the socket open.
      setTimeout(() => socket.destroy(), 2_000).unref();
    },
    setRole(next) {
      role = next;
    },
    goLive(first) {
      live = true;
      const frames = [...first, ...held];
      held = [];
      for (const frame of frames) write(frame);
    },
  };

  const reader = createFrameReader<ClientMessage>({
    validate: parseClientMessage,
    onMessage: (message) => {
      if (!closed) handlers.onMessage(link, message);
    },
    onError: () => socket.destroy(),
  });
  socket.on('data', (chunk: Buffer) => reader.push(chunk));
  socket.on('end', () => {
    reader.end();
    socket.end();
  });
  // A reset or a broken pipe is how such a client leaves: nothing to report.
  socket.on('error', () => undefined);
  socket.on('close', () => {
    closed = true;
    held = [];
    handlers.onClose(link);
  });
  return link;
}
