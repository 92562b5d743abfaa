// One connection to the run server, seen from the server: frames in through the bounded reader,
// frames out with a bound on what may wait for a slow client. A client that sends garbage, a huge
// frame, or hangs up mid-frame is closed alone; one that falls too far behind is dropped alone; one
// that leaves a frame unfinished is closed after 30 s, or at once when all unfinished frames together
// pass their cap.
// A client whose terminal the server draws itself (direct) gets its face messages drawn there,
// and its terminal is given back before its last frame goes and whenever it goes away.

import type { Socket } from 'node:net';
import { createFrameReader, encodeFrame, parseClientMessage, type ClientMessage, type ServerMessage } from './wire.js';
import type { TerminalFace } from './terminal-face.js';
import { MAX_TERMINAL_BACKLOG } from '../adapters/client-terminal.js';

// What may sit unsent for one client before it is dropped: several full repaints, far more than a
// terminal that keeps up ever needs; a stopped one (^S, a frozen ssh) must not grow the server.
export const MAX_PENDING_BYTES = 32 * 1024 * 1024;

// A frame begun and then left unfinished: the hook channel's bound (30 s without a byte), and a cap on
// what all the unfinished frames of one server may hold together. Each frame may be 8 MiB: 150 clients
// sending most of one and hanging took a server to 1.27 GB. The client that pushes past the cap is closed.
export const PARTIAL_FRAME_IDLE_MS = 30_000;
export const MAX_PARTIAL_BYTES_TOTAL = 64 * 1024 * 1024;

/** what all of one server's connections hold in unfinished frames, shared by their links */
export interface PartialFrameBudget {
  held: number;
  readonly limit: number;
  readonly idleMs: number;
}

export function createPartialFrameBudget(
  limit = MAX_PARTIAL_BYTES_TOTAL,
  idleMs = PARTIAL_FRAME_IDLE_MS,
): PartialFrameBudget {
  return { held: 0, limit, idleMs };
}

export interface ClientLink {
  readonly role: 'attach' | 'query' | null;
  /** painted and streaming (an attach client after its screen frame) */
  readonly live: boolean;
  size: { cols: number; rows: number } | null;
  /** the face the server draws on this client's terminal (direct mode), else null */
  readonly face: TerminalFace | null;
  setFace(face: TerminalFace): void;
  /** a control message (welcome, info, edit): always on the wire, at once */
  send(message: ServerMessage | Buffer): void;
  /** a face message: drawn on the terminal (direct) or framed (`frame` is shared by all clients), held until live */
  show(message: ServerMessage, frame: () => Buffer): void;
  /** send these last words, then hang up (a direct client's terminal is given back first) */
  close(last?: ServerMessage): void;
  setRole(role: 'attach' | 'query'): void;
  /** an attach client is live once its first paint is out: the welcome, `first`, then what was held meanwhile */
  goLive(welcome: Buffer | null, first: ServerMessage[]): void;
  /** a repaint is being taken for this live client: what is broadcast meanwhile is held until goLive again */
  hold(): void;
}

// This connection's share of the budget, and the timer on a frame it began and did not finish: `account`
// is told how many bytes of an unfinished frame it holds now (0: none, or it is gone).
function partialShare(socket: Socket, budget: PartialFrameBudget): (now: number) => void {
  let partial = 0;
  let idle: NodeJS.Timeout | null = null;
  const account = (now: number): void => {
    budget.held += now - partial;
    partial = now;
    if (idle) clearTimeout(idle);
    idle = null;
    if (now > 0) {
      idle = setTimeout(() => {
        account(0);
        socket.destroy();
      }, budget.idleMs);
      idle.unref();
    }
  };
  return account;
}

export function openClientLink(
  socket: Socket,
  handlers: { onMessage: (link: ClientLink, message: ClientMessage) => void; onClose: (link: ClientLink) => void },
  budget: PartialFrameBudget = createPartialFrameBudget(),
): ClientLink {
  let role: ClientLink['role'] = null;
  let live = false;
  let closed = false;
  let face: TerminalFace | null = null;
  // Face messages broadcast while the first paint is being taken: they come right after it.
  let held: Array<() => void> = [];

  const write = (frame: Buffer): void => {
    if (closed) return;
    if (socket.writableLength + frame.length > MAX_PENDING_BYTES) {
      socket.destroy(); // too far behind: drop it rather than buffer without end
      return;
    }
    socket.write(frame);
  };
  const deliver = (message: ServerMessage, frame: () => Buffer): void => {
    if (closed) return;
    if (!face) return write(frame());
    face.show(message);
    if (face.backlog() > MAX_TERMINAL_BACKLOG) socket.destroy(); // its terminal stopped reading: let it go
  };

  const link: ClientLink = {
    get role() {
      return role;
    },
    get live() {
      return live;
    },
    size: null,
    get face() {
      return face;
    },
    setFace(next) {
      // A client gone while its face was being made: give its terminal back at once.
      if (closed) next.restore();
      else face = next;
    },
    send(message) {
      write(Buffer.isBuffer(message) ? message : encodeFrame(message));
    },
    show(message, frame) {
      if (role === 'attach' && !live) held.push(() => deliver(message, frame));
      else deliver(message, frame);
    },
    close(last) {
      if (closed) return;
      closed = true;
      const hangUp = () => {
        if (last) socket.end(encodeFrame(last));
        else socket.end();
        // A client that never reads its last frame must not keep the socket open.
        setTimeout(() => socket.destroy(), 2_000).unref();
      };
      // The terminal first: the client prints its last line on a terminal already given back.
      if (face) face.restore(hangUp);
      else hangUp();
    },
    setRole(next) {
      role = next;
    },
    hold() {
      live = false;
    },
    goLive(welcome, first) {
      live = true;
      if (welcome) write(welcome);
      for (const message of first) deliver(message, () => encodeFrame(message));
      const waiting = held;
      held = [];
      for (const delivery of waiting) delivery();
    },
  };

  const reader = createFrameReader<ClientMessage>({
    validate: parseClientMessage,
    onMessage: (message) => {
      if (!closed) handlers.onMessage(link, message);
    },
    onError: () => socket.destroy(),
  });
  const account = partialShare(socket, budget);
  socket.on('data', (chunk: Buffer) => {
    reader.push(chunk);
    account(closed || socket.destroyed ? 0 : reader.pending());
    if (budget.held > budget.limit) {
      account(0);
      socket.destroy(); // the one that pushed the total past the cap goes; the others keep their frames
    }
  });
  socket.on('end', () => {
    reader.end();
    socket.end();
  });
  // A reset or a broken pipe is how such a client leaves: nothing to report.
  socket.on('error', () => undefined);
  socket.on('close', () => {
    account(0);
    closed = true;
    held = [];
    // A client killed or cut off: its terminal is given back all the same (it may be a shell's again).
    face?.restore();
    handlers.onClose(link);
  });
  return link;
}
