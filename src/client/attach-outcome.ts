// How an attach ends, and what a person reads when the client lets go of the terminal.

import { join } from 'node:path';
import { EXIT } from '../core/errors.js';
import type { RunInfo } from '../server/wire.js';

export type AttachResult =
  | { kind: 'ended'; run: RunInfo; exitCode: number; message: string | null; killed: boolean }
  /** `choose`: the person asked for the chooser of every run ("prefix s") */
  | { kind: 'detached'; run: RunInfo; why: 'asked' | 'choose' | NodeJS.Signals }
  /** the server went away without a word (SIGKILL, a crash) */
  | { kind: 'lost'; run: RunInfo };

/** the words of each outcome, printf's way: the native attach client prints the same ones (the build
 * passes them to native/attach-client.c), so they are written here only */
export const OUTCOME_WORDS = {
  detached: 'detached from run %s (it goes on); attach again with flower-pty attach %s',
  lost: 'the run server %s is gone (pid %d killed?); pick the lineage up with flower-pty --continue',
  killed: 'run %s was ended by flower-pty kill',
  lineage: 'lineage in %s; pick it up again with flower-pty --continue (not claude --resume)',
  /** a TERM, INT or hang-up before the server said who it is */
  interrupted: 'interrupted before the run answered',
} as const;

/** a template of OUTCOME_WORDS with its values put in, in order */
function fill(template: string, ...values: Array<string | number>): string {
  let i = 0;
  return template.replace(/%[sd]/g, () => String(values[i++]));
}

/** a next step's template, its `flower-pty` typed as it works where the person is (`npx flower-pty` in a checkout) */
function asTyped(template: string, own: string): string {
  return template.replace('flower-pty', () => own);
}

/**
 * the lines to print and the exit code; `own` is how flower-pty is typed where the person is
 * (core/options/own-command.ts), so each next step printed works as printed
 */
export function attachOutcome(result: AttachResult, own = 'flower-pty'): { lines: string[]; exitCode: number } {
  const { run } = result;
  // off to the chooser, which shows every run: nothing to say on the way
  if (result.kind === 'detached' && result.why === 'choose') return { lines: [], exitCode: EXIT.ok };
  if (result.kind === 'detached')
    return { lines: [fill(asTyped(OUTCOME_WORDS.detached, own), run.id, run.id)], exitCode: EXIT.ok };
  if (result.kind === 'lost')
    return { lines: [fill(asTyped(OUTCOME_WORDS.lost, own), run.id, run.pid)], exitCode: EXIT.serverLost };
  const lines: string[] = [];
  if (result.message) lines.push(result.message);
  if (result.killed) lines.push(fill(OUTCOME_WORDS.killed, run.id));
  if (run.workbench && (result.exitCode === EXIT.ok || result.killed))
    lines.push(fill(asTyped(OUTCOME_WORDS.lineage, own), join(run.workbench, 'manifest.json')));
  return { lines, exitCode: result.exitCode };
}
