// The live runs in words: which run `attach`/`kill` mean when no id (or an id) is given, and the
// table `ls` prints. Pure: the caller lists the runs and resolves the paths.

import { formatTokens } from '../meter/token-format.js';
import { terminalText } from '../terminal-text.js';
import { runState } from '../picture/run-picture.js';
import type { StatusView } from '../screen/status.js';

// The fields of a RunInfo (src/server/wire.ts) that choosing and listing read.
export interface RunSummary {
  id: string;
  pid: number;
  cwd: string;
  workbench: string | null;
  phase: string;
  generation: number;
  context: number;
  window: number;
  clients: number;
  started: string;
  /** what needs a person ("parked until 03:04", "waiting for your permission: Bash touch x"), from the status */
  status?: StatusView | { attention?: string | null; held?: boolean } | null;
}

/** how `ls --host` names this machine (its runs are read directly, not over ssh) */
export const LOCAL_HOST = 'local';

function oneRun(run: RunSummary): string {
  return `${terminalText(run.id)} (${terminalText(run.phase)}, ${terminalText(run.cwd)})`;
}

export type RunPick<R> = { run: R } | { problem: string };

// Which run a command means: the exact id when one is given; else the run of this folder's workbench,
// else the run started in this folder, else the only run. Anything else is a problem in one line
// that lists the runs and says to pass an id. `own` is how flower-pty is typed where the person is
// (core/options/own-command.ts): each next step the problem names works as printed.
export function pickRun<R extends RunSummary>(
  runs: readonly R[],
  want: { id?: string; cwd: string; workbench: string | null; command: string; own: string },
): RunPick<R> {
  const own = want.own;
  const list = runs.map(oneRun).join(', ');
  if (want.id !== undefined) {
    const exact = runs.find((r) => r.id === want.id);
    if (exact) return { run: exact };
    return {
      problem:
        runs.length === 0
          ? `no live run has id ${terminalText(want.id)}: no run is live (${own} ls)`
          : `no live run has id ${terminalText(want.id)}; live runs: ${list}`,
    };
  }
  if (runs.length === 0)
    return {
      problem: `no run is live for you on this machine (${own} ls); start one with ${own}, or pick a lineage up with ${own} --continue`,
    };
  for (const same of [
    (r: R) => want.workbench !== null && r.workbench === want.workbench,
    (r: R) => r.cwd === want.cwd,
  ]) {
    const matches = runs.filter(same);
    if (matches.length === 1) return { run: matches[0]! };
    if (matches.length > 1)
      return {
        problem: `${matches.length} runs are live in this folder; pass an id (${own} ${want.command} <id>): ${matches.map(oneRun).join(', ')}`,
      };
  }
  if (runs.length === 1) return { run: runs[0]! };
  return {
    problem: `${runs.length} runs are live and none is this folder's; pass an id (${own} ${want.command} <id>): ${list}`,
  };
}

// What the NEEDS column says: the run's state in the one picture's words when it waits on the person, on a
// limit, or on a file it could not write; else nothing.
/** the NEEDS column, from the one picture of a run: what waits for the person (a review held for them
 * included), or a park, else "-" */
export function runNeeds(r: Pick<RunSummary, 'phase' | 'status'>): string {
  const state = runState(r);
  return state.needsPerson || state.activity === 'parked' ? state.words : '-';
}

// `ls`: a header and one row per run, columns padded to the widest cell; over several machines (`ls
// --host`), a HOST column first.
export function runTable(runs: ReadonlyArray<RunSummary & { host?: string }>, hostColumn = false): string[] {
  const header = [
    ...(hostColumn ? ['HOST'] : []),
    'ID',
    'PID',
    'PHASE',
    'GEN',
    'CONTEXT',
    'CLIENTS',
    'STARTED',
    'NEEDS',
    'CWD',
  ];
  const rows = runs.map((r) => [
    ...(hostColumn ? [terminalText(r.host ?? LOCAL_HOST)] : []),
    terminalText(r.id),
    String(r.pid),
    terminalText(r.phase),
    String(r.generation),
    `${formatTokens(r.context)}/${formatTokens(r.window)}`,
    String(r.clients),
    terminalText(r.started.replace(/\.\d+Z$/, 'Z')),
    terminalText(runNeeds(r)),
    terminalText(r.cwd),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  // the last column is not padded: a long path should not leave trailing blanks
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)];
}
