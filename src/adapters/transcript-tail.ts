// Follows a growing JSONL transcript from a byte offset and hands new bytes to the caller.
// The file appears only at the session's first message, grows by appends, and can be
// truncated or replaced; all three are normal here, never errors.
//
// Its path comes from claude's hooks, which any process running as the person can forge: so it is read
// only as a regular file, never through a symbolic link (O_NOFOLLOW), never a FIFO or a device (checked on
// the opened descriptor; O_NONBLOCK so a FIFO cannot hang the open), and always a megabyte at a time into
// one buffer: a 3 GB file costs its reading time, never its size in memory.

import { openSync, readSync, closeSync, fstatSync, lstatSync, constants } from 'node:fs';

export interface TranscriptTail {
  readonly path: string;
  /** read everything appended so far, synchronously: used right before answering a hook */
  catchUp(): void;
  /** go on at `path`: the same transcript, moved there whole by claude (offset and reader stay) */
  repoint(path: string): void;
  close(): void;
}

export interface TailOptions {
  path: string;
  onChunk: (bytes: Uint8Array) => void;
  /** the file shrank or was replaced: the caller restarts its reader from zero */
  onReset: (reason: 'truncated' | 'replaced') => void;
  /** the file is there, or no longer: said when that changes */
  onPresence?: (found: boolean) => void;
  pollMs?: number;
  /** a file that stopped growing is polled less and less often, down to once every this many ms */
  idlePollMs?: number;
  /** bytes read per poll before yielding, so a huge file never starves the terminal */
  sliceBytes?: number;
  /** the path is not a regular file (a link, a FIFO, a device, a folder): one line, said once for each path */
  onRefused?: (line: string) => void;
}

const READ_BYTES = 1 << 20;
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function kindOf(st: { isSymbolicLink(): boolean; isFIFO(): boolean; isDirectory(): boolean }): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

export function openTranscriptTail(opts: TailOptions): TranscriptTail {
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  let offset = 0;
  let inode: number | null = null;
  let closed = false;
  let path = opts.path;
  let found: boolean | null = null;
  const present = (now: boolean): void => {
    if (now === found) return;
    found = now;
    opts.onPresence?.(now);
  };
  const sliceBytes = opts.sliceBytes ?? 32 * READ_BYTES;
  let refusedPath: string | null = null;
  const refuse = (st: Parameters<typeof kindOf>[0]): false => {
    present(false);
    if (refusedPath !== path)
      opts.onRefused?.(
        `the transcript ${path} is ${kindOf(st)}: flower-pty reads a transcript only as a regular file, so the meter is not read from it`,
      );
    refusedPath = path;
    return false;
  };

  // Polling is the one timer a quiet run keeps (an idle run must cost next to no CPU: docs/benchmarks.md): a file that does not grow is polled
  // at half the rate each time, down to `idlePollMs`; any growth, and every catchUp() (each hook calls
  // one), brings it back to `pollMs`. Decisions never wait on the poll: a hook catches up first.
  const fastMs = opts.pollMs ?? 200;
  const slowMs = Math.max(fastMs, opts.idlePollMs ?? 2_000);
  let pollMs = fastMs;

  // Returns true when it stopped early (more to read).
  function readSome(limit: number): boolean {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      present(false);
      return false; // not there yet: the first message creates it (or claude moved it: a hook will say where)
    }
    if (!st.isFile()) return refuse(st);
    present(true);
    if (inode !== null && st.ino !== inode) {
      offset = 0;
      opts.onReset('replaced');
    } else if (st.size < offset) {
      offset = 0;
      opts.onReset('truncated');
    }
    inode = st.ino;
    if (st.size === offset) return false;
    pollMs = fastMs;
    let fd: number;
    try {
      fd = openSync(path, OPEN_FLAGS);
    } catch {
      return false; // swapped for a link since the lstat (ELOOP), or gone: looked at again on the next poll
    }
    try {
      const opened = fstatSync(fd);
      if (!opened.isFile()) return refuse(opened);
      const size = opened.size;
      let read = 0;
      while (offset < size && read < limit) {
        const n = readSync(fd, buffer, 0, Math.min(READ_BYTES, size - offset), offset);
        if (n <= 0) break;
        offset += n;
        read += n;
        // A copy: the caller may keep a tail of it while we reuse the buffer.
        opts.onChunk(Uint8Array.prototype.slice.call(buffer, 0, n));
      }
      return offset < size;
    } finally {
      closeSync(fd);
    }
  }

  let timer: NodeJS.Timeout | null = null;
  function schedule(delay: number): void {
    if (closed) return;
    timer = setTimeout(() => {
      const before = offset;
      const more = readSome(sliceBytes);
      if (offset === before) pollMs = Math.min(slowMs, pollMs * 2);
      schedule(more ? 0 : pollMs);
    }, delay);
    timer.unref();
  }
  schedule(0);

  return {
    get path() {
      return path;
    },
    repoint(next) {
      if (closed || next === path) return;
      // A moved file is a new inode with the same bytes: not a replacement. If it is shorter than what was
      // read, it is not the same transcript after all, and readSome starts it over (onReset 'truncated').
      path = next;
      inode = null;
      found = null;
      this.catchUp();
    },
    catchUp() {
      if (closed) return;
      // To the end, a megabyte at a time: a hook is answered with the meter right (bounded memory, not time).
      while (readSome(Number.MAX_SAFE_INTEGER));
      // Something is happening (a hook came): look again soon, whatever the poll had backed off to.
      if (pollMs !== fastMs) {
        pollMs = fastMs;
        if (timer) clearTimeout(timer);
        schedule(fastMs);
      }
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
