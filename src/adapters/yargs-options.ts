// The options table (core/options/options-table.ts) as yargs options: the one place yargs' own grammar is met.
// A value is checked by core/options/option-value.ts in a coerce function, so a flag, its variable and its config
// key refuse the same values in the same words. A setting a config file or a variable may give has no
// yargs default: yargs would fill it in and the file's value could never win (core/options/resolve-options.ts
// applies the table's default after the merge); the help shows it all the same (defaultDescription).

import type { Options } from 'yargs';
import { EXIT, FlowerError } from '../core/errors.js';
import { RUN_OPTIONS, optionRow, shownDefault, type OptionRow } from '../core/options/options-table.js';
import { commandFlags, type CommandFlag } from '../core/options/command-flags.js';
import type { CommandName } from '../core/options/command-table.js';
import { checkOption } from '../core/options/option-value.js';
import { lastGiven } from '../core/options/resolve-options.js';

/** a coerce function that checks a flag's value against its row; yargs wraps what it throws in a YError. A
 *  flag given twice reaches it as a list (yargs' duplicate-arguments-array): the last one is meant. */
function coerce(row: OptionRow) {
  return (given: unknown): unknown => {
    const value = lastGiven(given);
    if (value === undefined) return undefined;
    const checked = checkOption(row, String(value));
    if ('problem' in checked) throw new FlowerError(`--${row.name} ${checked.problem}`, EXIT.usage);
    return checked.value;
  };
}

/** one row as a yargs option; `over` lets a subcommand say it in its own words or with its own default */
function yargsOption(
  row: OptionRow,
  over: { help?: string; default?: number | string | boolean; defaultText?: string } = {},
): Options {
  const fixed = over.default ?? (row.configKey === undefined ? row.default : undefined);
  const shown = over.default !== undefined ? String(over.default) : (over.defaultText ?? shownDefault(row));
  return {
    type: row.type === 'boolean' ? 'boolean' : 'string',
    describe: over.help ?? row.help,
    ...(row.alias !== undefined ? { alias: row.alias } : {}),
    ...(row.type === 'tokens' || row.type === 'seconds' || row.type === 'count' || row.type === 'share'
      ? { coerce: coerce(row) }
      : {}),
    ...(fixed !== undefined ? { default: fixed } : shown !== null ? { defaultDescription: shown } : {}),
  };
}

function flagOption(flag: CommandFlag): [string, Options] {
  if ('from' in flag) return [flag.from, yargsOption(optionRow(flag.from), flag)];
  const option = yargsOption(flag);
  return [flag.name, { ...option, ...(flag.array ? { array: true } : {}), ...(flag.hidden ? { hidden: true } : {}) }];
}

/** a subcommand's flags (core/options/command-flags.ts), keyed by flag */
export function commandYargsOptions(command: CommandName): Record<string, Options> {
  return Object.fromEntries(commandFlags(command).map(flagOption));
}

/** every run option, keyed by flag */
export function runYargsOptions(): Record<string, Options> {
  return Object.fromEntries(RUN_OPTIONS.map((row) => [row.name, yargsOption(row)]));
}
