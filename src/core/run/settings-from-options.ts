// The run's settings (core/run/run-state.ts RunSettings) from its resolved options
// (core/options/resolve-options.ts), the tunables (core/options/tunables.ts) and the facts of this run.
// The one place an option becomes a setting: every seconds option of the table arrives in ms under its own
// name (`--parked-retry` → `parkedRetryMs`), so a new one needs no edit here. Pure.

import {
  RUN_OPTIONS,
  type OptionRow,
  type RunOptionValues,
  type SecondsInMs,
  type SecondsName,
} from '../options/options-table.js';
import { camelName } from '../options/resolve-options.js';
import { TUNABLES, type Tunables } from '../options/tunables.js';
import type { RunSettings } from './run-state.js';

/** the options the run's settings are made of, picked by name from the resolved values */
export type RunSettingOptions = Pick<
  RunOptionValues,
  SecondsName | 'window' | 'headroom' | 'maxGenerations' | 'handoff' | 'keepAutoCompact' | 'coverageCheck'
>;

/** what the run knows of itself besides its options */
export type RunFacts = Pick<
  RunSettings,
  | 'step'
  | 'cwd'
  | 'workbench'
  | 'documentPath'
  | 'eventsPath'
  | 'prompt'
  | 'stopBlockCap'
  | 'hookContextChars'
  | 'dialect'
> & {
  /** the environment the policy reads the model from */
  env: Readonly<Record<string, string | undefined>>;
};

function secondsInMs(options: RunSettingOptions): SecondsInMs {
  const given: Readonly<Record<string, unknown>> = options;
  const ms: Record<string, number> = {};
  for (const row of RUN_OPTIONS as readonly OptionRow[]) {
    if (row.type === 'seconds') ms[`${camelName(row.name)}Ms`] = (given[camelName(row.name)] as number) * 1000;
  }
  return ms as SecondsInMs;
}

export function settingsFromOptions(
  options: RunSettingOptions,
  facts: RunFacts,
  tunables: Partial<Tunables> = {},
): RunSettings {
  const { env, ...known } = facts;
  return {
    ...known,
    handoff: options.handoff,
    keepAutoCompact: options.keepAutoCompact,
    coverageCheck: options.coverageCheck,
    policy: {
      ...(options.window !== undefined ? { window: options.window } : {}),
      ...(options.headroom !== undefined ? { headroom: options.headroom } : {}),
      ...(options.maxGenerations !== undefined ? { maxGenerations: options.maxGenerations } : {}),
      env,
    },
    ...secondsInMs(options),
    ...TUNABLES,
    ...tunables,
  };
}
