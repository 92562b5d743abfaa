// `flower-pty ls` without the full command line: `ls --host` waits on other machines over ssh, and every ms
// this process spends loading the command line parser (yargs, ~150 ms) is added to the slowest host's
// answer, so the bin comes here first and the hosts are asked at once. Anything this small reader does not
// know for sure (--help, a flag it has not met, a doubtful value) goes to cli/main.ts, which parses and
// answers exactly as it always did.

import { reportFatal } from '../core/errors.js';
import { sayErr, sayOut } from '../adapters/terminal-lines.js';
import type { LsOptions } from '../commands/ls.js';

type LsArgs = Pick<LsOptions, 'json' | 'wireVersion' | 'hosts' | 'allHosts'>;

/** `ls [--json] [--wire-version] [--all-hosts] [--host H]...`, or null for anything else */
export function parseLsArgs(argv: string[]): LsArgs | null {
  if (argv[0] !== 'ls') return null;
  const out = { json: false, wireVersion: false, allHosts: false, hosts: [] as string[] };
  const seen = new Set<string>();
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (name === '--host') {
      const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      // a doubtful value (none, or one that looks like a flag) is yargs' to judge, and the name's check's
      if (value === undefined || value === '' || (eq < 0 && value.startsWith('-'))) return null;
      out.hosts.push(value);
      continue;
    }
    // a flag given twice is yargs' to judge (it makes an array of it)
    if (eq >= 0 || seen.has(name)) return null;
    seen.add(name);
    if (name === '--json') out.json = true;
    else if (name === '--wire-version') out.wireVersion = true;
    else if (name === '--all-hosts') out.allHosts = true;
    else return null;
  }
  return out;
}

export async function main(argv: string[]): Promise<void> {
  const args = parseLsArgs(argv);
  if (!args) return (await import('./main.js')).main(argv);
  // `flower-pty ls | head`: a reader that goes away is the end of the output, not an error
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  try {
    const { runLs } = await import('../commands/ls.js');
    process.exitCode = await runLs({ ...args, env: process.env, out: sayOut });
  } catch (error) {
    process.exitCode = reportFatal(error, sayErr);
  }
}
