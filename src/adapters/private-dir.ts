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
import { ownCommandHere } from './own-command-here.js';

/** the mode of every folder flower-pty makes: private state, the person's alone */
export const PRIVATE_DIR_MODE = 0o700;
const OTHERS_WRITE = 0o022;

const myUid = (): number => (typeof process.getuid === 'function' ? process.getuid() : -1);

function ownerLine(path: string, uid: number, then: string): string {
  return `${path} is owned by uid ${uid}, not you (uid ${myUid()}); check it and chown it, then ${then}`;
}

/**
 * How a private folder is kept: the one argument that tells the workbench's folders, the socket folder, the
 * web face's folder and a folder on the way to a file apart (each names its own in a constant beside its
 * caller, or here for the ones several callers share).
 */
export interface PrivateDirPolicy {
  /** make the folders on the way too (a workbench's); else only the last, whose parent must be there */
  parents: boolean;
  /** a link or a file in its place is refused; else it is left to whatever opens it (a workbench a person linked) */
  onlyAFolder: boolean;
  /** the mode bits no other user may have: write (0o022) for state, every one (0o077) for sockets and tokens */
  guarded: number;
  /** an existing folder of ours that has a guarded bit: narrowed (the bits taken away, never a shared sticky one), or refused */
  whenOpen: 'narrow' | 'refuse';
  /** a folder already there is left as it is, neither checked nor narrowed (only a missing one is made 0700) */
  leaveExisting?: true;
}

/** what is wrong with a private folder: `words` follow "it is" in the caller's one-line refusal */
export interface PrivateDirProblem {
  kind: 'link' | 'not-a-folder' | 'not-yours' | 'open' | 'shared';
  words: string;
}

/** the workbench and the folders in it: made with their parents, and an older lax one of ours narrowed */
export const STATE_DIR: PrivateDirPolicy = {
  parents: true,
  onlyAFolder: false,
  guarded: OTHERS_WRITE,
  whenOpen: 'narrow',
};

/**
 * A folder on the way to a file (a file a person named with --log, --events or --out, a document written
 * atomically, the workbench before its own check): made 0700 with its parents when missing; one that is
 * there is the person's own choice of folder (their project, /tmp) and is never narrowed nor refused here.
 */
export const FOLDER_ON_THE_WAY: PrivateDirPolicy = {
  parents: true,
  onlyAFolder: false,
  guarded: 0,
  whenOpen: 'narrow',
  leaveExisting: true,
};

/**
 * Makes `path` with mode 0700 when it is missing (an existing one is kept), then checks it by `policy`: null
 * when it is fit (narrowed first if the policy says so), else what is wrong. mkdir's own errors are thrown as they are.
 */
export function openPrivateDir(path: string, policy: PrivateDirPolicy): PrivateDirProblem | null {
  try {
    mkdirSync(path, { recursive: policy.parents, mode: PRIVATE_DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return policy.leaveExisting ? null : privateDirProblem(path, policy);
}

/** what is wrong with the existing folder `path` by `policy`, or null when it is fit (narrowed first if the policy says so) */
export function privateDirProblem(
  path: string,
  policy: PrivateDirPolicy,
  uid: number = myUid(),
): PrivateDirProblem | null {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return policy.onlyAFolder ? { kind: 'link', words: 'a symbolic link' } : null;
  if (!st.isDirectory()) return policy.onlyAFolder ? { kind: 'not-a-folder', words: 'not a directory' } : null;
  if (uid >= 0 && st.uid !== uid)
    return { kind: 'not-yours', words: `owned by uid ${st.uid}, not by you (uid ${uid})` };
  if ((st.mode & policy.guarded) === 0) return null;
  const mode = (st.mode & 0o7777).toString(8);
  if (policy.whenOpen === 'refuse')
    return { kind: 'open', words: `open to other users (mode ${(st.mode & 0o777).toString(8)})` };
  // a sticky folder others write on purpose (/tmp) is shared: never narrowed behind the person's back
  if ((st.mode & 0o1000) !== 0)
    return { kind: 'shared', words: `a shared folder other users can write (mode ${mode})` };
  chmodSync(path, st.mode & 0o7777 & ~policy.guarded);
  return null;
}

/**
 * Makes `path` as `openPrivateDir` does, by `policy`, and throws NotYours naming what is wrong with it (with
 * STATE_DIR: one that exists with group or other write is narrowed; one another user owns is refused).
 */
export function makePrivateDir(path: string, policy: PrivateDirPolicy): void {
  refuseProblem(path, openPrivateDir(path, policy));
}

/** an existing folder checked by `policy` (STATE_DIR: one of ours loses group and other write); what is wrong is refused */
export function narrowFolder(path: string, policy: PrivateDirPolicy): void {
  refuseProblem(path, privateDirProblem(path, policy));
}

function refuseProblem(path: string, problem: PrivateDirProblem | null): void {
  if (problem === null) return;
  if (problem.kind === 'shared')
    throw new NotYours(
      `${path} is ${problem.words}; flower-pty keeps its state only in a folder of yours: choose one with --workbench DIR`,
    );
  throw new NotYours(
    `${path} is ${problem.words}; check it and chown it, then run ${ownCommandHere(process.env, process.cwd())} again`,
  );
}

/** what is wrong with a file read into a successor (by its fstat, and its folder's), or null when it is the person's alone */
export function foreignFile(
  path: string,
  file: { uid: number; mode: number; isFile(): boolean },
  then: string,
): string | null {
  const uid = myUid();
  if (!file.isFile())
    return `${path} is not a regular file; flower-pty reads only a regular file there: move it away, then ${then}`;
  if (uid >= 0 && file.uid !== uid) return ownerLine(path, file.uid, then);
  if ((file.mode & OTHERS_WRITE) !== 0)
    return `${path} can be written by other users (mode ${(file.mode & 0o777).toString(8)}); check it and chmod go-w it, then ${then}`;
  const dir = dirname(path);
  let folder;
  try {
    folder = statSync(dir);
  } catch {
    return null; // the folder went away: the file is still the one opened, and it is ours
  }
  if (uid >= 0 && folder.uid !== uid) return ownerLine(dir, folder.uid, then);
  if ((folder.mode & OTHERS_WRITE) !== 0)
    return (
      `${dir} can be written by other users (mode ${(folder.mode & 0o777).toString(8)}), ` +
      `so ${path} may not be yours; check it and chmod go-w ${dir}, then ${then}`
    );
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
    if (code === 'ELOOP')
      throw new NotYours(
        `${path} is a symbolic link; flower-pty reads only a regular file there: replace it with the file itself, then ${then}`,
      );
    throw error;
  }
  const wrong = foreignFile(path, await handle.stat(), then);
  if (wrong === null) return handle;
  await handle.close();
  throw new NotYours(wrong);
}
