// The run's private temp folders (<tmpdir>/flower-pty-run-XXXXXX: the run's settings file, the spilled
// prompts of a run without a workbench; <tmpdir>/fp-XXXXXX: the hook channel's socket, a short name for
// sun_path's 108 bytes), and the sweep of those a dead run left behind.
//
// Why a sweep: the folder is removed when the run ends, but a run server that is SIGKILLed (the OOM
// killer, `kill -9`, a test of that fault) never gets there. Each folder names its owner in `owner.pid`;
// one whose owner is gone is removed by the next run that starts. A folder with no owner file (an older
// flower-pty's, or one being made this instant) is left alone, as is anything that is not a folder of
// ours (lstat: a symlink planted under that name is never followed).

import { mkdtemp, readdir, lstat, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './process-alive.js';

const PREFIX = 'flower-pty-run-';
/** the hook channel's folder */
export const HOOK_DIR_PREFIX = 'fp-';
const PREFIXES = [PREFIX, HOOK_DIR_PREFIX];
const OWNER_FILE = 'owner.pid';

/** a new run folder, 0700 (mkdtemp's mode), that names this process as its owner */
export async function makeRunDir(tmp: string = tmpdir(), prefix: string = PREFIX): Promise<string> {
  const dir = await mkdtemp(join(tmp, prefix));
  try {
    await writeFile(join(dir, OWNER_FILE), `${process.pid}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

/** removes the run folders of ours whose owner process is gone; returns the paths removed. Never throws. */
export async function sweepStaleRunDirs(
  tmp: string = tmpdir(),
  alive: (pid: number) => boolean = processAlive,
): Promise<string[]> {
  const uid = typeof process.getuid === 'function' ? process.getuid() : -1;
  const removed: string[] = [];
  let names: string[];
  try {
    names = (await readdir(tmp)).filter((name) => PREFIXES.some((prefix) => name.startsWith(prefix)));
  } catch {
    return removed;
  }
  for (const name of names) {
    const dir = join(tmp, name);
    try {
      const st = await lstat(dir);
      if (!st.isDirectory() || st.uid !== uid) continue;
      const pid = Number((await readFile(join(dir, OWNER_FILE), 'utf8')).trim());
      if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // no owner file, or it went away meanwhile: not ours to judge
    }
  }
  return removed;
}
