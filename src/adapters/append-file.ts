// A file a person names for flower-pty to append to (--events, --log): checked once before the run
// starts, and every later append opened without blocking. Opening a FIFO for writing blocks until a
// reader comes (fifo(7)); with no reader that froze the run server's event loop in open() for good,
// before claude started, deaf to `ls`, `kill` and SIGTERM. O_NONBLOCK makes that open fail at once
// (ENXIO) instead, and on a regular file it changes nothing.

import { closeSync, constants, fstatSync, lstatSync, openSync, realpathSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { FlowerError } from '../core/errors.js';
import { isBelow, NO_FOLLOW, refuseLinks } from './no-follow.js';
import { FOLDER_ON_THE_WAY, makePrivateDir } from './private-dir.js';

// O_NOFOLLOW: a link put in the file's place after the check is never followed (the check resolved the
// person's own link to its target, and refused one inside the project).
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK | NO_FOLLOW;

function kindOf(mode: number): string {
  const type = mode & constants.S_IFMT;
  if (type === constants.S_IFIFO) return 'a FIFO (named pipe)';
  if (type === constants.S_IFSOCK) return 'a socket';
  if (type === constants.S_IFCHR) return 'a device';
  if (type === constants.S_IFBLK) return 'a block device';
  if (type === constants.S_IFDIR) return 'a folder';
  return 'not a regular file';
}

/**
 * before anything starts: the path is (or can be created as) a regular file this user can append to; the
 * path to append to is returned. Inside the project (`project`) no component may be a symbolic link; a
 * link the person named outside it is theirs, and its target is what the run appends to.
 */
export function checkAppendTarget(path: string, flag: string, project: string): string {
  if (isBelow(project, path)) refuseLinks(project, path, `${flag} ${path}`);
  else if (isLink(path)) {
    try {
      path = realpathSync(path);
    } catch {
      throw new FlowerError(`${flag} ${path} is a symbolic link to nothing: name the file itself`);
    }
  }
  let fd: number;
  try {
    makePrivateDir(dirname(path), FOLDER_ON_THE_WAY);
    fd = openSync(path, APPEND, 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENXIO')
      throw new FlowerError(
        `${flag} ${path} is a FIFO (named pipe) with no reader: name a regular file, e.g. ${flag} run.jsonl`,
      );
    if (code === 'ELOOP') throw new FlowerError(`${flag} ${path} is a symbolic link: name the file itself`);
    if (code === 'EISDIR')
      throw new FlowerError(`${flag} ${path} is a folder: name a regular file, e.g. ${flag} ${path}/run.jsonl`);
    throw new FlowerError(
      `${flag} ${path} cannot be written (${code ?? String(error)}): name a file you can write, or fix the folder's permissions`,
    );
  }
  try {
    const mode = fstatSync(fd).mode;
    if ((mode & constants.S_IFMT) !== constants.S_IFREG) {
      throw new FlowerError(
        `${flag} ${path} is ${kindOf(mode)}, not a regular file: name a regular file, e.g. ${flag} run.jsonl`,
      );
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** one append that can never block the event loop and never throws (a full disk costs the line, not the run) */
export function appendWithoutBlocking(path: string, text: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(path, APPEND, 0o644);
    if ((fstatSync(fd).mode & constants.S_IFMT) !== constants.S_IFREG) return false;
    writeSync(fd, text);
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
