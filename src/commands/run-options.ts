// The run command's options: the flags yargs read and the merged variables and files, resolved once by the
// options table (core/options/resolve-options.ts: a flag wins over its FLOWER_PTY_* variable, which wins
// over <workbench>/config.json, then the user's file, then the table's default), plus what is not an option
// row: the prompt and the arguments for claude after `--`.

import type { ConfigValues } from '../core/options/options-table.js';
import { resolveRunOptions } from '../core/options/resolve-options.js';
import type { RunCommandOptions } from './run.js';

/** what yargs parsed for the run command: the flags by name, the positional, the args after `--` */
export type RunArgs = Readonly<Record<string, unknown>>;

export function runCommandOptions(
  args: RunArgs,
  cfg: ConfigValues,
  env: Readonly<Record<string, string | undefined>>,
): RunCommandOptions {
  // FLOWER_PTY_CLAUDE is read where claude is resolved (its errors name the variable): it beats the files
  const { claude: _fromFiles, ...files } = cfg;
  const options = resolveRunOptions(args, env.FLOWER_PTY_CLAUDE ? files : cfg);
  // `flower-pty -- stauts`: with no prompt before it, a word right after -- is the prompt, never a command
  // (a positional passed on to claude would be claude's prompt, and every successor's too)
  const afterDashes = ((args['--'] ?? []) as Array<string | number>).map(String);
  const wordPrompt =
    args.prompt === undefined && afterDashes[0] !== undefined && !afterDashes[0].startsWith('-')
      ? afterDashes[0]
      : null;
  return {
    ...options,
    prompt: (args.prompt as string | undefined) ?? wordPrompt,
    claudeArgs: wordPrompt === null ? afterDashes : afterDashes.slice(1),
  };
}
