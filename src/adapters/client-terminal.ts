// A client's terminal, opened by the run server itself so that keys and output skip the client
// process, as tmux's server reads and writes its clients' terminals. tmux is handed the terminal's
// fd over its socket (SCM_RIGHTS); Node cannot send or receive an fd over a unix socket
// (nodejs/node#53391), so the server opens the terminal's device path, which the client names
// in its hello. Owns two quirks of Node's tty streams: every tty.WriteStream is made blocking
// (nodejs/node#1771), and a tty that is not the process's own never emits 'resize'.

import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import tty from 'node:tty';

// What may wait unwritten for a terminal that stopped reading (^S, a frozen ssh) before the client is let go.
export const MAX_TERMINAL_BACKLOG = 32 * 1024 * 1024;

export interface ClientTerminal {
  readonly input: tty.ReadStream;
  readonly output: tty.WriteStream;
  /** bytes written but not yet taken by the terminal */
  backlog(): number;
  /** the client saw its terminal resized (SIGWINCH goes to the client, not here) */
  resize(cols: number, rows: number): void;
  /** calls back once everything written so far is out (or at once if the terminal is gone) */
  drained(callback: () => void): void;
  close(): void;
}

// Only a pty slave or a console: never a path that a same-user client could point at a file.
const TERMINAL_PATH = /^\/dev\/(pts\/\d{1,6}|tty[A-Za-z]{0,4}\d{0,6})$/;

/** opens the terminal at `path` for one client; throws an Error whose message says why not */
export function openClientTerminal(path: string): ClientTerminal {
  if (!TERMINAL_PATH.test(path)) throw new Error(`${path.slice(0, 60)} is not a terminal device path`);
  // Two opens, two file descriptions: libuv reopens a pty slave for each handle it makes non-blocking,
  // and one fd shared by a read and a write handle would be swapped under the first.
  const fds: number[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const fd = openSync(path, constants.O_RDWR | constants.O_NOCTTY);
      fds.push(fd);
      const stat = fstatSync(fd);
      if (!stat.isCharacterDevice() || !tty.isatty(fd)) throw new Error(`${path} is not a terminal`);
      if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) throw new Error(`${path} belongs to another user`);
    }
  } catch (error) {
    for (const fd of fds) closeSync(fd);
    throw error;
  }
  const input = new tty.ReadStream(fds[0]!);
  const output = new tty.WriteStream(fds[1]!);
  // Node makes a tty.WriteStream blocking; a terminal that stops reading would then stop the whole
  // server (every run's client, claude's pty, the hooks). Non-blocking, the backlog is bounded instead.
  (output as unknown as { _handle?: { setBlocking?: (blocking: boolean) => number } })._handle?.setBlocking?.(false);
  // A hung-up terminal fails reads and writes (EIO): the client's socket closing says the rest.
  input.on('error', () => undefined);
  output.on('error', () => undefined);
  let closed = false;

  return {
    input,
    output,
    backlog: () => output.writableLength,
    resize(cols, rows) {
      if (closed || (output.columns === cols && output.rows === rows)) return;
      // The client's reading wins over an ioctl here: it is what the person's terminal just told it.
      output.columns = cols;
      output.rows = rows;
      output.emit('resize');
    },
    drained(callback) {
      if (closed || output.destroyed || output.writableLength === 0) return callback();
      output.write('', () => callback());
    },
    close() {
      if (closed) return;
      closed = true;
      input.destroy();
      output.destroy();
    },
  };
}
