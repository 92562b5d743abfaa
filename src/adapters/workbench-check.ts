// Before claude starts: can this run write its workbench? The folder, notes/ and the archive are made
// if missing and each is written to once (a file created and removed), so a read-only mount, a mode
// 0555 folder, notes/ taken away or a file where a folder should be is one line naming the path and
// the fix (exit 2) instead of an internal error mid-run. Write permission is tried, not read from the
// mode bits: root ignores them, a read-only mount does not.

import { closeSync, openSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { FlowerError } from '../core/errors.js';
import { HANDOFF_DIR_NAME } from './notes-store.js';
import { refuseLinks } from './no-follow.js';
import { FOLDER_ON_THE_WAY, makePrivateDir, narrowFolder, STATE_DIR } from './private-dir.js';

function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir).map((name) => join(dir, name));
  } catch {
    return [];
  }
}

function refuse(workbench: string, path: string, code: string | undefined): never {
  const where = path === workbench ? workbench : path;
  const head = `the workbench ${workbench} cannot be used`;
  switch (code) {
    case 'EROFS':
      throw new FlowerError(
        `${head}: ${where} is on a read-only file system; choose a writable folder with --workbench DIR, or remount it read-write`,
      );
    case 'EACCES':
    case 'EPERM':
      throw new FlowerError(
        `${head}: ${where} cannot be written (permission denied); fix its permissions (chmod u+w ${where}) or choose another --workbench DIR`,
      );
    case 'ENOTDIR':
    case 'EEXIST':
      throw new FlowerError(
        `${head}: ${where}, or a folder on its way, is a file where a folder should be; move that file away or choose another --workbench DIR`,
      );
    default:
      throw new FlowerError(
        `${head}: ${where} cannot be written (${code ?? 'unknown error'}); choose another --workbench DIR`,
      );
  }
}

/** every folder the run writes under `workbench`, made and written once; throws a FlowerError naming the first that fails */
export function checkWorkbenchWritable(workbench: string): void {
  const notes = join(workbench, 'notes');
  const archive = join(notes, 'archive', HANDOFF_DIR_NAME);
  // each folder 0700 when made, and narrowed when an older flower-pty made it under a lax umask
  const folders = [workbench, notes, join(notes, 'archive'), archive];
  // Nothing the run writes in it goes through a link (a cloned repository can ship one): the folders,
  // the manifest, and anything already in notes/ or the archive.
  for (const path of [join(archive, 'x'), join(workbench, 'manifest.json'), ...entriesOf(notes), ...entriesOf(archive)])
    refuseLinks(workbench, path, 'a file of the workbench');
  for (const dir of folders) {
    try {
      makePrivateDir(dir, FOLDER_ON_THE_WAY);
      if (!statSync(dir).isDirectory()) refuse(workbench, dir, 'ENOTDIR');
    } catch (error) {
      if (error instanceof FlowerError) throw error;
      refuse(workbench, dir, (error as NodeJS.ErrnoException).code);
    }
    writeOnce(workbench, dir);
    // after the write: a folder that cannot be written at all is said as such first
    try {
      narrowFolder(dir, STATE_DIR);
    } catch (error) {
      if (error instanceof FlowerError) throw error;
      refuse(workbench, dir, (error as NodeJS.ErrnoException).code);
    }
  }
}

function writeOnce(workbench: string, dir: string): void {
  const probe = join(dir, `.flower-write-check-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx', 0o600));
    unlinkSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // a full disk is the run's to meet and say (it keeps the document in memory), not a setup mistake
    if (code === 'ENOSPC' || code === 'EDQUOT') return;
    refuse(workbench, dir, code);
  }
}
