// The workbench lock: <workbench>/run.lock says which live run owns the workbench, so a second
// flower-pty there is refused (two supervisors would write one manifest) and pointed at `attach`.

import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { processAlive } from '../adapters/process-alive.js';
import { FOLDER_ON_THE_WAY, makePrivateDir } from '../adapters/private-dir.js';
import { ownCommandHere } from '../adapters/own-command-here.js';
import { FlowerError } from '../core/errors.js';
import { terminalText } from '../core/terminal-text.js';
import { requestRun } from './run-registry.js';

export const LOCK_NAME = 'run.lock';
// A run takes the lock before its socket listens: for this long a lock whose pid lives and whose
// socket is not there yet is a run still starting, not a stale one.
const STARTING_GRACE_MS = 30_000;
const TAKEOVER_TRIES = 3;

export interface WorkbenchLock {
  pid: number;
  id: string;
  socket: string;
  /** ISO time the lock was taken */
  started: string;
}

export function lockPath(workbench: string): string {
  return join(workbench, LOCK_NAME);
}

function parseLock(text: string): WorkbenchLock | null {
  try {
    const v = JSON.parse(text) as Partial<WorkbenchLock> | null;
    if (!v || typeof v !== 'object') return null;
    if (
      !Number.isInteger(v.pid) ||
      typeof v.id !== 'string' ||
      typeof v.socket !== 'string' ||
      typeof v.started !== 'string'
    )
      return null;
    return { pid: v.pid!, id: v.id, socket: v.socket, started: v.started };
  } catch {
    return null;
  }
}

// The lock in `workbench`, or null when there is none (or it is not a lock flower-pty wrote).
export async function readWorkbenchLock(workbench: string): Promise<WorkbenchLock | null> {
  try {
    return parseLock(await readFile(lockPath(workbench), 'utf8'));
  } catch {
    return null;
  }
}

export type LockHolder = { state: 'live' | 'busy' | 'starting' | 'stale'; lock: WorkbenchLock | null };

// Whether a lock's run is there: its pid lives and its socket answers (live), its pid lives but the
// socket is silent (busy: a hung server still owns the workbench), it is young and not listening yet
// (starting), or neither (stale: pid gone, nothing on the socket, or a lock that does not parse).
export async function lockHolder(lock: WorkbenchLock | null, now: number = Date.now()): Promise<LockHolder> {
  if (!lock || !processAlive(lock.pid)) return { state: 'stale', lock };
  const answer = await requestRun(lock.socket, { t: 'info' });
  if (answer.ok) return { state: 'live', lock };
  if (!answer.stale) return { state: 'busy', lock };
  const age = now - Date.parse(lock.started);
  return { state: age >= 0 && age < STARTING_GRACE_MS ? 'starting' : 'stale', lock };
}

// Takes the workbench for run `info.id`; refuses with one line naming `flower-pty attach <id>` when a
// live run holds it; takes a stale lock over. Returns the release function (sync, safe to call twice,
// removes the lock only while it is still this run's).
//
// The lock appears whole and exclusively: its content goes to a temp file first, then link(2) gives it
// the name, failing with EEXIST if a lock is there (the same exclusivity as open(O_CREAT|O_EXCL), without
// a moment where a reader finds it empty). Two runs taking over one stale lock in the same instant can
// both succeed (unlink then link is not one step); the window is the time between two syscalls.
export async function acquireWorkbenchLock(
  workbench: string,
  info: { id: string; socket: string; pid?: number; started?: string },
): Promise<() => void> {
  const lock: WorkbenchLock = {
    pid: info.pid ?? process.pid,
    id: info.id,
    socket: info.socket,
    started: info.started ?? new Date().toISOString(),
  };
  const path = lockPath(workbench);
  // the workbench's own check (adapters/workbench-check.ts) narrows it; here it is only made when missing
  makePrivateDir(workbench, FOLDER_ON_THE_WAY);
  const temp = join(workbench, `.${LOCK_NAME}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  await writeFile(temp, JSON.stringify(lock) + '\n', { mode: 0o644 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await link(temp, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (attempt >= TAKEOVER_TRIES)
          throw new FlowerError(
            `the lock ${path} keeps changing under this run: another flower-pty is starting on the workbench; try again`,
          );
      }
      const text = await readFile(path, 'utf8').catch(() => null);
      if (text === null) continue; // released between our link and our read: try again
      const holder = await lockHolder(parseLock(text));
      if (holder.state !== 'stale') throw new FlowerError(refusal(workbench, holder));
      // only the stale lock we judged goes: if it changed meanwhile, judge again
      if ((await readFile(path, 'utf8').catch(() => null)) === text) await unlink(path).catch(() => undefined);
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      if (parseLock(readFileSync(path, 'utf8'))?.id === lock.id) unlinkSync(path);
    } catch {
      // already gone
    }
  };
}

function refusal(workbench: string, holder: LockHolder): string {
  const lock = holder.lock!;
  const id = terminalText(lock.id);
  const what =
    holder.state === 'busy'
      ? `run ${id} (pid ${lock.pid}), which does not answer; if it is hung, end it with kill ${lock.pid}`
      : `a live run, ${id} (pid ${lock.pid})`;
  // typed as flower-pty works in the run's folder (the server's own), where the refused person stands
  const own = ownCommandHere(process.env, process.cwd());
  return `the workbench ${workbench} is taken by ${what}; look in with ${own} attach ${id}, end it with ${own} kill ${id}, or use another --workbench`;
}
