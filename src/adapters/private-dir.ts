// Folders flower-pty makes, and the files it reads back into a successor, stay the person's whatever
// their umask. mkdir's mode is only ever narrowed by the umask, so 0700 asked is 0700 made, even under
// umask 000 (where a mode left out is 0777: any local user could rename a file of their own over the
// frozen document). A folder an older flower-pty made under such a umask is narrowed when it is ours
// (group and other lose write, nothing else changes), and refused when another user owns it.
//
// A file read into a successor (the frozen document, the manifest) is checked on the descriptor that is
// read (fstat after an O_NOFOLLOW open), so nothing can be swapped in between the check and the read:
// it must be a regular file, the person's own, writable by no one else, in a folder no one else can write.

import { chmodSync, constants, lstatSync, mkdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { NotYours } from '../core/errors.js';
import { NO_FOLLOW } from './no-follow.js';

/** the mode of every folder flower-pty makes: private state, the person's alone */
export const PRIVATE_DIR_MODE = 0o700;
const OTHERS_WRITE = 0o022;

const myUid = (): number => (typeof process.getuid === 'function' ? process.getuid() : -1);

function ownerLine(path: string, uid: number, then: string): string {
  return `${path} is owned by uid ${uid}, not you (uid ${myUid()}); check it and chown it, then ${then}`;
}

/**
 * Makes `path` (and any missing folder on its way) with mode 0700, and narrows `path` itself when it
 * already exists with group or other write; throws NotYours when another user owns it.
 */
export function makePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  narrowFolder(path);
}

/** an existing folder of ours loses group and other write; one of another user's is refused */
export function narrowFolder(path: string): void {
  const st = lstatSync(path);
  if (!st.isDirectory()) return;
  const uid = myUid();
  if (uid >= 0 && st.uid !== uid) throw new NotYours(ownerLine(path, st.uid, 'run flower-pty again'));
  if ((st.mode & OTHERS_WRITE) === 0) return;
  // a sticky folder others write on purpose (/tmp) is shared: never narrowed behind the person's back
  if ((st.mode & 0o1000) !== 0) throw new NotYours(`${path} is a shared folder other users can write (mode ${(st.mode & 0o7777).toString(8)}); flower-pty keeps its state only in a folder of yours: choose one with --workbench DIR`);
  chmodSync(path, st.mode & 0o7777 & ~OTHERS_WRITE);
}

/** what is wrong with a file read into a successor (by its fstat, and its folder's), or null when it is the person's alone */
export function foreignFile(path: string, file: { uid: number; mode: number; isFile(): boolean }, then: string): string | null {
  const uid = myUid();
  if (!file.isFile()) return `${path} is not a regular file; flower-pty reads only a regular file there: move it away, then ${then}`;
  if (uid >= 0 && file.uid !== uid) return ownerLine(path, file.uid, then);
  if ((file.mode & OTHERS_WRITE) !== 0) return `${path} can be written by other users (mode ${(file.mode & 0o777).toString(8)}); check it and chmod go-w it, then ${then}`;
  const dir = dirname(path);
  let folder;
  try {
    folder = statSync(dir);
  } catch {
    return null; // the folder went away: the file is still the one opened, and it is ours
  }
  if (uid >= 0 && folder.uid !== uid) return ownerLine(dir, folder.uid, then);
  if ((folder.mode & OTHERS_WRITE) !== 0) return `${dir} can be written by other users (mode ${(folder.mode & 0o777).toString(8)}), so ${path} may not be yours; check it and chmod go-w ${dir}, then ${then}`;
  return null;
}

/**
 * Opens `path` for reading only when it is the person's alone (see foreignFile), checked on the opened
 * descriptor; null when there is no such file. Throws NotYours naming what is wrong; the caller closes the handle.
 */
export async function openOwnFile(path: string, then: string): Promise<FileHandle | null> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO put in its place must not hang the open; the check below refuses it.
    handle = await open(path, constants.O_RDONLY | NO_FOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'ELOOP') throw new NotYours(`${path} is a symbolic link; flower-pty reads only a regular file there: replace it with the file itself, then ${then}`);
    throw error;
  }
  const wrong = foreignFile(path, await handle.stat(), then);
  if (wrong === null) return handle;
  await handle.close();
  throw new NotYours(wrong);
}
