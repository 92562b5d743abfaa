// `flower-pty ls [--json]`: this user's live runs on this machine, as a table or one JSON array.
// Asking lists them and sweeps the sockets whose server is gone.

import { runTable } from '../core/server/run-list.js';
import { terminalText } from '../core/terminal-text.js';
import { listRuns } from '../server/run-registry.js';
import { openSocketDir } from '../server/socket-dir.js';

export async function runLs(opts: { json: boolean; env: NodeJS.ProcessEnv; out: (line: string) => void }): Promise<number> {
  const { runs, silent } = await listRuns(await openSocketDir(opts.env));
  if (opts.json) {
    opts.out(JSON.stringify(runs));
    return 0;
  }
  if (runs.length === 0) opts.out('no live runs');
  else for (const line of runTable(runs)) opts.out(line);
  for (const s of silent) opts.out(`(not listed: ${terminalText(s.socket)}: ${terminalText(s.reason)})`);
  return 0;
}
