// Reading a file a person names (a TLS certificate or key, a config file) with a ceiling: `/dev/zero`,
// a FIFO or a 6 GB file named by mistake is refused in one line rather than read without end (or waited
// on for ever). Opened without blocking, checked to be a regular file, and read only up to the ceiling.

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

export class ReadRefused extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}

/** the file's bytes; throws ReadRefused (not a regular file, or over `limit` bytes) or the open's own error */
export function readBounded(path: string, limit: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: ${path}`), { code: 'EISDIR' });
    if (!stat.isFile()) throw new ReadRefused('not a regular file');
    if (stat.size > limit)
      throw new ReadRefused(`${stat.size} bytes, more than the ${limit} a file of this kind can be`);
    // the size can grow while it is read: never more than the ceiling all the same
    const buffer = Buffer.alloc(limit + 1);
    let length = 0;
    for (let n = 1; n > 0 && length <= limit; length += n)
      n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > limit) throw new ReadRefused(`more than the ${limit} bytes a file of this kind can be`);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * A file named by something other than the person (a manifest's transcript path) opened for streaming:
 * never through a symbolic link, never a FIFO (O_NONBLOCK: the open cannot hang on one), a device or a
 * folder, checked on the descriptor that is read. Throws ReadRefused saying which, or the open's own error.
 */
export async function openRegularFile(path: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new ReadRefused('a symbolic link');
    throw error;
  }
  const st = await handle.stat();
  if (st.isFile()) return handle;
  await handle.close();
  throw new ReadRefused(st.isFIFO() ? 'a FIFO' : st.isDirectory() ? 'a folder' : 'not a regular file');
}
