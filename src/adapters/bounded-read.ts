// Reading a file a person names (a TLS certificate or key, a config file) with a ceiling: `/dev/zero`,
// a FIFO or a 6 GB file named by mistake is refused in one line rather than read without end (or waited
// on for ever). Opened without blocking, checked to be a regular file, and read only up to the ceiling.

import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

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
    if (stat.size > limit) throw new ReadRefused(`${stat.size} bytes, more than the ${limit} a file of this kind can be`);
    // the size can grow while it is read: never more than the ceiling all the same
    const buffer = Buffer.alloc(limit + 1);
    let length = 0;
    for (let n = 1; n > 0 && length <= limit; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > limit) throw new ReadRefused(`more than the ${limit} bytes a file of this kind can be`);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
