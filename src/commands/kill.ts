// `flower-pty kill [ID]`: ends a run cleanly (claude terminated, the manifest's generation closed) and
// waits, bounded, until its server says bye or hangs up.

import { resolve } from 'node:path';
import { EXIT, FlowerError } from '../core/errors.js';
import { terminalText } from '../core/terminal-text.js';
import { listRuns, requestRun, resolveRun } from '../server/run-registry.js';
import { findWorkbench } from '../adapters/config-file.js';
import { ownCommandHere } from '../adapters/own-command-here.js';
import { openSocketDir, socketPath } from '../server/socket-dir.js';
import { hostTarget, killOnHost } from './host-run.js';

// ending claude, closing the manifest and saying bye takes a second; a loaded machine gets fifteen
export const KILL_TIMEOUT_MS = 15_000;

export async function runKill(opts: {
  id?: string | undefined;
  workbench?: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  timeoutMs?: number;
}): Promise<number> {
  // HOST:ID: the host's own kill, over ssh
  const target = hostTarget(opts.id);
  if (target !== null) return killOnHost(target, opts.env, opts.out);
  const dir = await openSocketDir(opts.env);
  const { runs, silent } = await listRuns(dir);
  const timeoutMs = opts.timeoutMs ?? KILL_TIMEOUT_MS;
  // how flower-pty is typed in this folder: each next step printed works as printed
  const own = ownCommandHere(opts.env, opts.cwd);
  // a run too busy to answer ls in time is still asked to end when it is named
  const named =
    opts.id !== undefined && !runs.some((r) => r.id === opts.id)
      ? silent.find((s) => s.socket === socketPath(dir, opts.id!))
      : undefined;
  const run = named
    ? null
    : resolveRun(runs, {
        ...(opts.id !== undefined ? { id: opts.id } : {}),
        ...thisFolder(opts.cwd, opts.env, opts.workbench),
        command: 'kill',
        own,
      });
  const id = terminalText(run?.id ?? opts.id!);
  const result = await requestRun(run?.socket ?? named!.socket, { t: 'kill' }, timeoutMs);
  if (!result.ok && !result.stale) {
    const server = run
      ? `its server is pid ${run.pid} (kill ${run.pid} ends it less cleanly)`
      : `${own} status in its folder names its pid`;
    throw new FlowerError(`run ${id} did not end: ${terminalText(result.reason)}; ${server}`, EXIT.notEnded);
  }
  // stale here: the server went away between ls and kill, which is the end asked for
  opts.out(endedLine(id, run === null ? undefined : run.workbench, own));
  return 0;
}

// A --no-workbench run kept no manifest and no document: --continue would have nothing to pick up.
// (`undefined`: a run too busy to be listed, whose workbench is not known.) `own` is how flower-pty is
// typed where the person is (core/options/own-command.ts).
export function endedLine(id: string, workbench: string | null | undefined, own: string): string {
  if (workbench === null) return `run ${id} ended; it ran with --no-workbench, so nothing was kept to continue from`;
  return `run ${id} ended; pick the lineage up with ${own} --continue`;
}

// The folder a command runs in and the workbench a run started there would use (flag-less: the
// FLOWER_PTY_WORKBENCH variable, then the config files, then .flower; or the --workbench given), to find
// "this folder's run".
export function thisFolder(
  cwd: string,
  env: NodeJS.ProcessEnv,
  workbenchFlag?: string,
): { cwd: string; workbench: string | null } {
  const folder = resolve(cwd);
  return { cwd: folder, workbench: findWorkbench(folder, env, workbenchFlag) };
}
