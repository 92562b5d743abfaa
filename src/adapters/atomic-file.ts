// Atomic file writes: a temp file in the same folder, fsync, then rename over the target, so a
// reader (or a crash, or SIGKILL) only ever sees the old file or the new one, never half of one; then
// the folder is synced too, so the rename itself outlives a machine killed right after it (a rename is
// durable only once its directory's entry is on disk: fsync(2), "Calling fsync() does not necessarily
// ensure that the entry in the directory containing the file has also reached disk").

import { open, rename, unlink, readdir } from 'node:fs/promises';
import { constants } from 'node:fs';
import { NO_FOLLOW, refuseLinks } from './no-follow.js';
import { dirname, basename, join } from 'node:path';
import { processAlive } from './process-alive.js';
import { FOLDER_ON_THE_WAY, makePrivateDir } from './private-dir.js';
import { randomHex } from './lazy-crypto.js';

/**
 * `within`: the folder the run owns (its workbench): no component of the path below it may be a symbolic
 * link, nor lead out of it (adapters/no-follow.ts); the temp is a new file, never a link followed.
 */
export async function writeFileAtomic(path: string, data: string, within?: string): Promise<void> {
  const dir = dirname(path);
  if (within !== undefined) refuseLinks(within, path, 'a file of the workbench');
  makePrivateDir(dir, FOLDER_ON_THE_WAY);
  if (within !== undefined) refuseLinks(within, path, 'a file of the workbench');
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomHex(4)}.tmp`);
  // 0o644 before the umask: never wider than the user would get from their own editor.
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o644);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncFolder(dir);
}

// Some file systems refuse to open or fsync a directory (EISDIR, EINVAL, EPERM on a few FUSE mounts):
// the file is whole and in place all the same, only not yet forced to disk, so that is not an error.
async function syncFolder(dir: string): Promise<void> {
  const folder = await open(dir, 'r').catch(() => null);
  if (!folder) return;
  await folder.sync().catch(() => undefined);
  await folder.close().catch(() => undefined);
}

// The temp names writeFileAtomic uses: `.<name>.<pid>.<8 hex>.tmp`.
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

// A process SIGKILLed mid-write leaves its temp behind (the target itself is whole): remove the ones
// whose writer is gone, so they do not pile up run after run. A live writer's temp is left alone.
export async function removeStaleTemps(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    await unlink(join(dir, name)).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}
