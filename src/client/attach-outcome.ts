// How an attach ends, and what a person reads when the client lets go of the terminal.

import { join } from 'node:path';
import { EXIT } from '../core/errors.js';
import type { RunInfo } from '../server/wire.js';

export type AttachResult =
  | { kind: 'ended'; run: RunInfo; exitCode: number; message: string | null; killed: boolean }
  | { kind: 'detached'; run: RunInfo; why: 'asked' | NodeJS.Signals }
  /** the server went away without a word (SIGKILL, a crash) */
  | { kind: 'lost'; run: RunInfo };

/** the lines to print and the exit code */
export function attachOutcome(result: AttachResult): { lines: string[]; exitCode: number } {
  const { run } = result;
  if (result.kind === 'detached') return { lines: [`detached from run ${run.id} (it goes on); attach again with flower-pty attach ${run.id}`], exitCode: EXIT.ok };
  if (result.kind === 'lost') {
    return { lines: [`the run server ${run.id} is gone (pid ${run.pid} killed?); pick the lineage up with flower-pty --continue`], exitCode: EXIT.serverLost };
  }
  const lines: string[] = [];
  if (result.message) lines.push(result.message);
  if (result.killed) lines.push(`run ${run.id} was ended by flower-pty kill`);
  if (run.workbench && (result.exitCode === EXIT.ok || result.killed)) {
    lines.push(`lineage in ${join(run.workbench, 'manifest.json')}; pick it up again with flower-pty --continue (not claude --resume)`);
  }
  return { lines, exitCode: result.exitCode };
}
