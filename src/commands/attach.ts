// `flower-pty attach [ID]`: find the live run (the id, else this folder's workbench, else the only
// one) and attach this terminal to it, in the split view or --plain, until detach or the run's end.

import { resolve } from 'node:path';
import { openSocketDir } from '../server/socket-dir.js';
import { listRuns, resolveRun } from '../server/run-registry.js';
import { attachTerminal, plainDetachKey } from '../client/attach-client.js';

export interface AttachCommandOptions {
  id: string | undefined;
  plain: boolean;
  detachKey: string | undefined;
  /** the workbench this folder's run would use (to pick it without an id) */
  workbench: string;
}

export async function runAttach(o: AttachCommandOptions): Promise<number> {
  const detachKey = plainDetachKey(o.detachKey);
  const cwd = process.cwd();
  const { runs } = await listRuns(await openSocketDir(process.env));
  const run = resolveRun(runs, { ...(o.id !== undefined ? { id: o.id } : {}), cwd, workbench: resolve(cwd, o.workbench), command: 'attach' });
  return attachTerminal({ socketPath: run.socket, plain: o.plain, detachKey, documentPath: null });
}
