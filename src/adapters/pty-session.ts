// node-pty behind a narrow port. Owns its quirks: resize after exit throws
// (microsoft/node-pty#827), output just before exit can be lost (#726), kill() defaults to SIGHUP,
// its write blocks the event loop while the child does not read (#797; without the relay, writes are
// queued here instead), and, handing the pty to the native relay, node-pty's own read
// stream has to be stopped by hand and told to close when the relay reads the pty's end (node-pty
// waits for that close to exit).

import type { IPty } from '@lydell/node-pty';
import { createRequire } from 'node:module';
import { writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { FastRelay, PtyHold } from './fast-relay.js';
import { stopReading } from './stop-reading.js';

// CommonJS: required, so Node does not scan it for export names as an import would (docs/libraries.md §3).
const { spawn: ptySpawn } = createRequire(import.meta.url)('@lydell/node-pty') as typeof import('@lydell/node-pty');

export interface PtyExit {
  exitCode: number;
  signal?: number;
}

export interface PtySession {
  readonly pid: number;
  readonly exited: boolean;
  onData(listener: (data: string) => void): void;
  onExit(listener: (exit: PtyExit) => void): void;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** SIGTERM, then SIGKILL after graceMs; resolves when the child is gone */
  terminate(graceMs?: number): Promise<PtyExit>;
}

export function spawnPty(
  opts: { file: string; args: string[]; cwd: string; env: Record<string, string>; cols: number; rows: number },
  relay: FastRelay | null = null,
): PtySession {
  // Args go as an array straight to execvp: no shell ever sees them.
  const pty: IPty = ptySpawn(opts.file, opts.args, {
    name: 'xterm-256color',
    cols: Math.max(2, opts.cols),
    rows: Math.max(2, opts.rows),
    cwd: opts.cwd,
    env: opts.env,
  });
  let exited: PtyExit | null = null;
  const exitWaiters: Array<(e: PtyExit) => void> = [];
  const dataListeners: Array<(data: string) => void> = [];
  const relayed = relay ? shareWithRelay(pty, relay, (data) => dataListeners.forEach((l) => l(data))) : null;
  const write = relayed ? (data: string) => relayed.write(data) : queuedWriter(pty);
  pty.onExit(({ exitCode, signal }) => {
    exited = signal ? { exitCode, signal } : { exitCode };
    for (const w of exitWaiters.splice(0)) w(exited);
  });
  return {
    pid: pty.pid,
    get exited() {
      return exited !== null;
    },
    onData(listener) {
      if (relayed) dataListeners.push(listener);
      else pty.onData(listener);
    },
    onExit(listener) {
      if (exited) listener(exited);
      else exitWaiters.push(listener);
    },
    write(data) {
      if (exited) return;
      write(data);
    },
    resize(cols, rows) {
      if (exited) return;
      try {
        pty.resize(Math.max(2, cols), Math.max(2, rows));
      } catch {
        // the child exited between our check and the ioctl (node-pty#827)
      }
    },
    terminate(graceMs = 5_000) {
      return new Promise<PtyExit>((resolve) => {
        if (exited) return resolve(exited);
        exitWaiters.push(resolve);
        try {
          pty.kill('SIGTERM');
        } catch {
          // already gone
        }
        const force = setTimeout(() => {
          try {
            if (!exited) pty.kill('SIGKILL');
          } catch {
            // already gone
          }
        }, graceMs);
        force.unref();
      });
    },
  };
}

// Without the relay, every write to the child goes through one queue, in order, written at once as
// far as the pty takes it. node-pty's own write goes through a tty stream whose writes libuv keeps
// "blocking" for a pty master (it cannot reopen one), on an fd node-pty made non-blocking: libuv spins
// on EAGAIN, so a paste the child was not reading stopped the whole event loop (node-pty#797). Here
// EAGAIN is a retry a moment later (no Node API waits on an fd's writability), backing off while the
// child reads nothing. Nothing is written once node-pty has destroyed its stream (the fd is closed,
// its number may be another file's by then).
const RETRY_MS = { first: 1, most: 20 };

function queuedWriter(pty: IPty): (data: string) => void {
  const { _fd: fd, _socket: socket } = pty as unknown as NodePtyInternals;
  const queue: Buffer[] = [];
  let retry: NodeJS.Timeout | null = null;
  let wait = RETRY_MS.first;
  const flush = (): void => {
    retry = null;
    while (queue.length > 0) {
      if (socket.destroyed) return void (queue.length = 0);
      const head = queue[0]!;
      let written: number;
      try {
        written = writeSync(fd, head);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return void (queue.length = 0); // EIO: the child is gone, its exit says the rest
        retry = setTimeout(flush, wait);
        wait = Math.min(wait * 2, RETRY_MS.most);
        return;
      }
      wait = RETRY_MS.first;
      if (written < head.length) queue[0] = head.subarray(written);
      else queue.shift();
    }
  };
  return (data) => {
    queue.push(Buffer.from(data, 'utf8'));
    if (!retry) flush();
  };
}

interface NodePtyInternals {
  _fd: number;
  _socket: {
    destroy(): void;
    readonly destroyed: boolean;
    write(data: Buffer): boolean;
    _readableState: { decoder: unknown; encoding: unknown };
  };
}

// The relay writes the pty from the start (a write through node-pty's stream can block the event
// loop); its reading goes to the relay and back (the relay reads while a plain terminal is joined). One
// decoder for both readers: node-pty's stream is made to hand over bytes, not its own decoded
// text, so a character cut between the two readers still comes out whole. The fd is closed by
// node-pty's destroy, so the relay lets go of it first, whoever destroys (the relay at the pty's
// end, node-pty's own timeout after an exit).
function shareWithRelay(pty: IPty, relay: FastRelay, emit: (data: string) => void): PtyHold {
  const internals = pty as unknown as NodePtyInternals;
  const socket = internals._socket;
  socket._readableState.decoder = null;
  socket._readableState.encoding = null;
  const decoder = new StringDecoder('utf8');
  const decode = (bytes: Buffer) => {
    const text = decoder.write(bytes);
    if (text) emit(text);
  };
  pty.onData((bytes) => decode(bytes as unknown as Buffer));
  const hold = relay.adopt({
    fd: internals._fd,
    stopStream: () => stopReading(socket),
    ownWrite: (bytes) => void socket.write(bytes),
    data: decode,
    closed: () => socket.destroy(),
  });
  const destroy = socket.destroy.bind(socket);
  socket.destroy = () => {
    hold.release();
    destroy();
  };
  return hold;
}
