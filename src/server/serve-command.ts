// `flower-pty __serve <spec>` (hidden): the entry of a run server started by a client. File
// descriptor 3, when open, is the client's pipe for the one ready line; the process exits with the
// run's code once the run is over (a watcher or a timer left behind must not keep it alive). The bin
// comes here straight (main), so the server loads only what it runs.

import { createWriteStream, fstatSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { serve } from './run-server.js';
import { reportFatal } from '../core/errors.js';
import { sayErr } from '../adapters/terminal-lines.js';

/** the bin's entry for `__serve <spec>` (the bin sends any other shape of the line to cli/main.ts): a run
 * server loads no command-line parser (yargs was 10 MB of its memory) */
export async function main(argv: string[]): Promise<void> {
  try {
    await runServe(argv[1]!);
  } catch (error) {
    process.exitCode = reportFatal(error, sayErr);
  }
}

export async function runServe(specPath: string): Promise<never> {
  let ready: Writable | null = null;
  try {
    fstatSync(3);
    ready = createWriteStream('', { fd: 3 });
    ready.on('error', () => undefined); // a client that gave up waiting has closed its end
  } catch {
    ready = null; // started by hand: nobody waits for the line
  }
  const code = await serve(specPath, ready);
  process.exit(code);
}
