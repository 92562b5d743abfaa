// The run options resolved once: for each row of the options table, the flag, else its FLOWER_PTY_*
// variable or a config file (those arrive merged, the variable first, from adapters/config-file.ts), else
// the row's default. This is the only place a run option's default is applied, except the few a row marks
// `later` (the one consumer that must know whether a value was given). Pure.

import {
  RUN_OPTIONS,
  type CamelName,
  type ConfigValues,
  type OptionRow,
  type RunOptionValues,
} from './options-table.js';

/** the row's name as a property of the resolved values (max-generations → maxGenerations) */
export function camelName<S extends string>(name: S): CamelName<S> {
  return name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()) as CamelName<S>;
}

/** A flag given more than once (`--workbench x --no-workbench`: yargs reads both into a list) means the last
 *  one, as on most command lines: never a list where one value is meant, never a silent default. */
export function lastGiven(value: unknown): unknown {
  return Array.isArray(value) ? value.at(-1) : value;
}

/** the flags as the parser read them, by the row's name (an absent flag: undefined) */
export type GivenFlags = Readonly<Record<string, unknown>>;

export function resolveRunOptions(flags: GivenFlags, config: ConfigValues): RunOptionValues {
  const files = config as Readonly<Record<string, unknown>>;
  const values: Record<string, unknown> = {};
  for (const row of RUN_OPTIONS as readonly OptionRow[]) {
    const given = lastGiven(flags[row.name]) ?? (row.configKey === undefined ? undefined : files[row.configKey]);
    values[camelName(row.name)] = given ?? (row.later === undefined ? row.default : undefined);
  }
  // the one typed boundary: one property per row, each checked by its row where it was read
  return values as RunOptionValues;
}
