// `flower-pty status`: the lineage recorded in a workbench's manifest, in words or as JSON, and
// whether a run is live on the workbench now (its lock, asked over its socket) with how many clients.

import { readManifest } from '../adapters/manifest-store.js';
import { lockHolder, readWorkbenchLock } from '../server/workbench-lock.js';
import { describeManifest } from '../core/lineage/manifest.js';
import { terminalText } from '../core/terminal-text.js';
import { queryRun } from '../server/run-registry.js';
import { ownCommandHere } from '../adapters/own-command-here.js';
import { FlowerError } from '../core/errors.js';
import { resolve } from 'node:path';

interface LiveState {
  id: string;
  pid: number;
  socket: string;
  /** null when the run holds the lock but did not answer (still starting, or busy) */
  clients: number | null;
  phase: string | null;
  /** what needs a person now, if anything */
  attention: string | null;
  /** failures the frozen document leaves out (in review), or the successor's repeats of dead ends */
  deadEnds: string | null;
}

// The run holding the workbench's lock, or null when none does (no lock, or a stale one).
async function liveRun(workbench: string): Promise<LiveState | null> {
  const holder = await lockHolder(await readWorkbenchLock(workbench));
  if (holder.state === 'stale' || !holder.lock) return null;
  const { id, pid, socket } = holder.lock;
  const answer = holder.state === 'live' ? await queryRun(socket, { t: 'info' }).catch(() => null) : null;
  const run = answer?.t === 'info' ? answer.run : null;
  return {
    id,
    pid,
    socket,
    clients: run?.clients ?? null,
    phase: run?.phase ?? null,
    attention: run?.status?.attention ?? null,
    deadEnds: run?.status?.deadEnds ?? null,
  };
}

// `own`: how flower-pty is typed where the person is (core/options/own-command.ts), so the step works as printed
function liveLine(live: LiveState | null, own: string): string {
  if (!live) return `no live run on this workbench (pick the lineage up with ${own} --continue)`;
  const id = terminalText(live.id);
  if (live.clients === null) return `run ${id} (pid ${live.pid}) holds this workbench but does not answer yet`;
  const clients = live.clients === 1 ? '1 client' : `${live.clients} clients`;
  const needs = `${live.attention ? `, ${terminalText(live.attention)}` : ''}${live.deadEnds ? `, ${terminalText(live.deadEnds)}` : ''}`;
  return `live: run ${id} (pid ${live.pid}, ${terminalText(live.phase ?? '')}${needs}), ${clients} attached; ${own} attach ${id}`;
}

export async function runStatus(opts: {
  workbench: string;
  json: boolean;
  out: (line: string) => void;
}): Promise<number> {
  const workbench = resolve(opts.workbench);
  const own = ownCommandHere(process.env, process.cwd());
  const [{ manifest, problem, malformed }, live] = await Promise.all([readManifest(workbench), liveRun(workbench)]);
  if (malformed !== null && !live) throw new FlowerError(malformed);
  if (!manifest && !live)
    throw new FlowerError(`${problem}: run ${own} first, or point --workbench at the run's folder`);
  if (opts.json) opts.out(JSON.stringify({ ...(manifest ?? {}), live }));
  else {
    if (manifest) for (const line of describeManifest(manifest)) opts.out(line);
    opts.out(liveLine(live, own));
  }
  return 0;
}
