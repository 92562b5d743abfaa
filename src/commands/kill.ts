// `flower-pty kill [ID]`: ends a run cleanly (claude terminated, the manifest's generation closed) and
// waits, bounded, until its server says bye or hangs up.

import { FlowerError } from '../errors.js';
import { printable } from '../core/run-list.js';
import { listRuns, requestRun, resolveRun, thisFolder } from '../server/run-registry.js';
import { openSocketDir } from '../server/socket-dir.js';

// ending claude, closing the manifest and saying bye takes a second; a loaded machine gets fifteen
export const KILL_TIMEOUT_MS = 15_000;

export async function runKill(opts: { id?: string | undefined; workbench?: string | undefined; cwd: string; env: NodeJS.ProcessEnv; out: (line: string) => void; timeoutMs?: number }): Promise<number> {
  const { runs } = await listRuns(await openSocketDir(opts.env));
  const run = resolveRun(runs, { ...(opts.id !== undefined ? { id: opts.id } : {}), ...thisFolder(opts.cwd, opts.env, opts.workbench), command: 'kill' });
  const id = printable(run.id);
  const timeoutMs = opts.timeoutMs ?? KILL_TIMEOUT_MS;
  const result = await requestRun(run.socket, { t: 'kill' }, timeoutMs);
  if (!result.ok && !result.stale) {
    throw new FlowerError(`run ${id} did not end: ${printable(result.reason)}; its server is pid ${run.pid} (kill ${run.pid} ends it less cleanly)`, 1);
  }
  // stale here: the server went away between ls and kill, which is the end asked for
  opts.out(`run ${id} ended; pick the lineage up with flower-pty --continue`);
  return 0;
}
