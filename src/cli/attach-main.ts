// `flower-pty attach` without the full command line: a person waits on an attach, so the bin comes
// here first and only the attach's own modules load (no yargs, no blessed, no supervisor). Anything
// this small reader does not know for sure (--help, a flag it has not met, a doubtful value) goes to
// cli/main.ts, which parses and answers exactly as it always did.

import { reportFatal } from '../core/errors.js';
import { sayErr } from '../adapters/terminal-lines.js';

export interface AttachArgs {
  id: string | undefined;
  plain: boolean;
  detachKey: string | undefined;
  /** --workbench; else commands/attach.ts finds it as a run would (FLOWER_PTY_WORKBENCH, the config files) */
  workbench: string | undefined;
  /** --choose: the chooser of every run (attach's own flag, read here only) */
  choose?: boolean;
}

/** `attach [id] [--plain] [--choose] [--detach-key K] [--workbench W]`, or null for anything else */
export function parseAttachArgs(argv: string[]): AttachArgs | null {
  if (argv[0] !== 'attach') return null;
  const out: AttachArgs = { id: undefined, plain: false, detachKey: undefined, workbench: undefined };
  const seen = new Set<string>();
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) {
      if (out.id !== undefined) return null;
      out.id = arg;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    // A flag given twice is yargs' to judge (it makes an array of it).
    if (seen.has(name)) return null;
    seen.add(name);
    if (name === '--plain' && eq < 0) {
      out.plain = true;
      continue;
    }
    if (name === '--choose' && eq < 0 && out.id === undefined) {
      out.choose = true;
      continue;
    }
    if (name !== '--detach-key' && name !== '--workbench') return null;
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '' || (eq < 0 && value.startsWith('-'))) return null;
    if (name === '--detach-key') out.detachKey = value;
    else out.workbench = value;
  }
  return out;
}

export async function main(argv: string[]): Promise<void> {
  const args = parseAttachArgs(argv);
  if (!args) return (await import('./main.js')).main(argv);
  try {
    const { runAttach } = await import('../commands/attach.js');
    process.exitCode = await runAttach(args);
  } catch (error) {
    process.exitCode = reportFatal(error, sayErr);
  }
}
