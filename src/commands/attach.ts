// `flower-pty attach [ID]`: find the live run (the id, else this folder's workbench, else the only
// one) and attach this terminal to it, in the split view or --plain, until detach or the run's end.

import { openSocketDir } from '../server/socket-dir.js';
import { listRuns, resolveRun } from '../server/run-registry.js';
import { attachTerminal, plainDetachKey } from '../client/attach-client.js';

export interface AttachCommandOptions {
  id: string | undefined;
  plain: boolean;
  detachKey: string | undefined;
  /** --workbench: the workbench whose run to pick without an id (else found as a run finds it) */
  workbench: string | undefined;
}

export async function runAttach(o: AttachCommandOptions): Promise<number> {
  const detachKey = plainDetachKey(o.detachKey);
  const cwd = process.cwd();
  const { runs } = await listRuns(await openSocketDir(process.env));
  // The workbench only tells several runs apart: with an id, or a single run, it is not looked for, and the
  // config files it may be named in are not loaded (attach is a command a person waits on).
  const tellApart = o.id === undefined && runs.length > 1;
  const workbench = tellApart ? (await import('../adapters/config-file.js')).findWorkbench(cwd, process.env, o.workbench) : null;
  const run = resolveRun(runs, { ...(o.id !== undefined ? { id: o.id } : {}), cwd, workbench, command: 'attach' });
  return attachTerminal({ socketPath: run.socket, plain: o.plain, detachKey, documentPath: null });
}
