// The run command's settings from its three sources, merged by the options table: a flag wins over its
// FLOWER_PTY_* variable, which wins over <workbench>/config.json, then the user's file (the variables and
// files arrive merged from adapters/config-file.ts); a setting none of them gives takes the table's default,
// except those decided later (the window, the headroom and the brake by core/run/policy.ts, the step by the
// lineage on --continue).

import { optionRow, type ConfigValues, type OptionName } from '../core/options/options-table.js';
import type { RunCommandOptions } from './run.js';

/** what yargs parsed for the run command: the flags by name, the positional, the args after `--` */
export type RunArgs = Readonly<Record<string, unknown>>;

export function runCommandOptions(args: RunArgs, cfg: ConfigValues, env: Readonly<Record<string, string | undefined>>): RunCommandOptions {
  // a flag, else its config value (variables are in cfg already); the table's default only where asked
  const given = <T>(name: OptionName): T | undefined => {
    const key = optionRow(name).configKey;
    return (args[name] ?? (key === undefined ? undefined : (cfg as Record<string, unknown>)[key])) as T | undefined;
  };
  const orDefault = <T>(name: OptionName): T => (given<T>(name) ?? optionRow(name).default) as T;
  const detachKey = args['detach-key'] as string | undefined;
  // `flower-pty -- stauts`: with no prompt before it, a word right after -- is the prompt, never a command
  // (a positional passed on to claude would be claude's prompt, and every successor's too)
  const afterDashes = ((args['--'] ?? []) as Array<string | number>).map(String);
  const wordPrompt = args.prompt === undefined && afterDashes[0] !== undefined && !afterDashes[0].startsWith('-') ? afterDashes[0] : null;
  return {
    prompt: (args.prompt as string | undefined) ?? wordPrompt,
    claudeArgs: wordPrompt === null ? afterDashes : afterDashes.slice(1),
    // FLOWER_PTY_CLAUDE is read where claude is resolved (its errors name the variable): it beats the files
    claude: (args.claude as string | undefined) ?? (env.FLOWER_PTY_CLAUDE ? undefined : cfg.claude),
    window: given('window'),
    headroom: given('headroom'),
    maxGenerations: given('max-generations'),
    workbench: given('workbench'),
    step: given('step'),
    review: orDefault<number>('review'),
    writeTimeout: orDefault<number>('write-timeout'),
    parkedRetry: orDefault<number>('parked-retry'),
    events: given('events'),
    log: given('log'),
    plain: orDefault('plain'),
    handoff: orDefault('handoff'),
    keepAutoCompact: orDefault('keep-auto-compact'),
    continue: orDefault('continue'),
    notify: orDefault('notify'),
    notifyCommand: given<string>('notify-command') ?? null,
    verbose: orDefault('verbose'),
    ...(detachKey !== undefined ? { detachKey } : {}),
    ...(args.detach === true ? { detach: true } : {}),
  };
}
