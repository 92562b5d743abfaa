// The run command's options, one row each, as tmux keeps its options (options-table.c): the flag, its
// alias, the value's type and unit, the default, the FLOWER_PTY_* variable, the config-file key and the help.
// The yargs options (adapters/yargs-options.ts), the config file's and the variables' checks
// (adapters/config-file.ts), the one resolver of the three (core/options/resolve-options.ts), --help and the README's flag
// table (held to it by test/readme.test.ts) are all made from these rows: a default is written here once.
// Pure data and pure look-ups.

/** tokens: "200k", "1m", 200000 · seconds: a number, within the row's range · count: a whole number ≥ 1 ·
 * share: a number from 0 to 1 (0.5, or 50%) */
export type OptionType = 'tokens' | 'seconds' | 'count' | 'share' | 'string' | 'boolean';

export interface OptionRow {
  /** the long flag, without `--` */
  readonly name: string;
  /** a one-letter alias (`-v`) */
  readonly alias?: string;
  readonly type: OptionType;
  /** what the value counts (shown in the help beside the default) */
  readonly unit?: 'tokens' | 'seconds' | 'generations';
  /** the value used when neither the flag, the variable nor a config file gives one; none: decided at run time */
  readonly default?: number | string | boolean;
  /** how the help shows a default that is decided at run time */
  readonly defaultText?: string;
  /** the default is applied later, by the one consumer that must know whether a value was given (and why) */
  readonly later?: string;
  /** `--no-<name>` is a value of its own (false), not only the boolean flags' */
  readonly negatable?: true;
  /** the least value accepted (seconds, count), and why when it is not 0 */
  readonly min?: number;
  readonly minWhy?: string;
  /** the most accepted, and why (a value past it is refused, not clamped) */
  readonly max?: number;
  readonly maxWhy?: string;
  /** the FLOWER_PTY_* variable that sets it */
  readonly env?: string;
  /** the key in a config.json that sets it (the flag's name) */
  readonly configKey?: string;
  readonly help: string;
}

/** a day: longer than any wait a run is meant to sit through, far below Node's timers' 24.8-day limit, past
 * which a timer fires at once (`--review 1e308` would start the successor at once) */
export const MAX_SECONDS = 86_400;

/** the workbench folder a run uses when nothing names another */
export const DEFAULT_WORKBENCH = '.flower';

export const RUN_OPTIONS = [
  {
    name: 'window',
    type: 'tokens',
    unit: 'tokens',
    defaultText: 'what Claude Code reports, else from the model name',
    env: 'FLOWER_PTY_WINDOW',
    configKey: 'window',
    help: "the model's context window (200k, 1m, 200000)",
  },
  {
    name: 'headroom',
    type: 'tokens',
    unit: 'tokens',
    default: 50_000,
    later: 'core/run/policy.ts: only a headroom given is refused when not below the window',
    env: 'FLOWER_PTY_HEADROOM',
    configKey: 'headroom',
    help: 'tokens left free above the handoff line',
  },
  {
    name: 'max-generations',
    type: 'count',
    unit: 'generations',
    default: 8,
    later: 'core/run/policy.ts, beside the headroom',
    min: 1,
    max: 1_000,
    maxWhy: 'a brake that high never stops a runaway; use e.g. --max-generations 20',
    env: 'FLOWER_PTY_MAX_GENERATIONS',
    configKey: 'max-generations',
    help: 'the runaway brake',
  },
  {
    name: 'workbench',
    type: 'string',
    negatable: true,
    default: DEFAULT_WORKBENCH,
    env: 'FLOWER_PTY_WORKBENCH',
    configKey: 'workbench',
    help: 'folder for the documents and the manifest; --no-workbench keeps nothing on disk',
  },
  {
    name: 'step',
    type: 'string',
    default: 'work',
    later: "commands/run.ts: on --continue a step not given is the lineage's own",
    env: 'FLOWER_PTY_STEP',
    configKey: 'step',
    help: "the step name used in the document file name (on --continue: the lineage's own)",
  },
  {
    name: 'review',
    type: 'seconds',
    unit: 'seconds',
    default: 10,
    min: 0,
    max: MAX_SECONDS,
    env: 'FLOWER_PTY_REVIEW',
    configKey: 'review',
    help: 'seconds a frozen document waits for a person before the successor starts (0 = none)',
  },
  {
    name: 'write-timeout',
    type: 'seconds',
    unit: 'seconds',
    default: 300,
    min: 1,
    minWhy: 'the session needs time to write its document',
    max: MAX_SECONDS,
    env: 'FLOWER_PTY_WRITE_TIMEOUT',
    configKey: 'write-timeout',
    help: 'seconds the session has to write its document before a degraded one is used',
  },
  {
    name: 'coverage-check',
    type: 'share',
    default: 0.5,
    env: 'FLOWER_PTY_COVERAGE_CHECK',
    configKey: 'coverage-check',
    help:
      "the share of a category's facts (files, dead ends, the person's instructions, open tasks, " +
      'identifiers) a document must carry before it is frozen; below it the session is asked once to add what it left out (0 = off)',
  },
  {
    name: 'parked-retry',
    type: 'seconds',
    unit: 'seconds',
    default: 300,
    min: 0,
    max: MAX_SECONDS,
    env: 'FLOWER_PTY_PARKED_RETRY',
    configKey: 'parked-retry',
    help: 'seconds an API-key session parked on a rate limit waits before flower-pty types `continue` once (subscriptions continue by themselves; 0 = at once)',
  },
  {
    name: 'events',
    type: 'string',
    env: 'FLOWER_PTY_EVENTS',
    configKey: 'events',
    help: 'append one JSON object a line per event to this file',
  },
  { name: 'log', type: 'string', env: 'FLOWER_PTY_LOG', configKey: 'log', help: 'write diagnostic lines to this file' },
  {
    name: 'plain',
    type: 'boolean',
    default: false,
    env: 'FLOWER_PTY_PLAIN',
    configKey: 'plain',
    help: 'claude full-screen with state in the terminal title (no split view; also when stdout is not a terminal)',
  },
  {
    name: 'handoff',
    type: 'boolean',
    default: true,
    help: 'hand off instead of auto-compact; --no-handoff runs claude unchanged',
  },
  {
    name: 'keep-auto-compact',
    type: 'boolean',
    default: false,
    help: "keep Claude Code's auto-compact as a backstop (defeats the handoff: not recommended)",
  },
  {
    name: 'continue',
    type: 'boolean',
    default: false,
    help: 'resume a lineage: a new session seeded with the newest frozen document',
  },
  {
    name: 'notify',
    type: 'boolean',
    default: true,
    env: 'FLOWER_PTY_NOTIFY',
    configKey: 'notify',
    help: 'bell and desktop notification on handoff, degraded handoff, brake and exit (--no-notify: none)',
  },
  {
    name: 'notify-command',
    type: 'string',
    env: 'FLOWER_PTY_NOTIFY_COMMAND',
    configKey: 'notify-command',
    help: 'run this shell command for each event that needs a person (the event in $FLOWER_PTY_EVENT, $FLOWER_PTY_MESSAGE)',
  },
  {
    name: 'claude',
    type: 'string',
    defaultText: 'PATH',
    env: 'FLOWER_PTY_CLAUDE',
    configKey: 'claude',
    help: 'path to the claude binary',
  },
  {
    name: 'verbose',
    alias: 'v',
    type: 'boolean',
    default: false,
    help: 'print the endpoint, model, window, thresholds and the masked token, then start',
  },
  {
    name: 'detach-key',
    type: 'string',
    help: 'with --plain: a control key (e.g. C-\\) that detaches when pressed alone; the split view detaches with C-] d',
  },
  {
    name: 'detach',
    alias: 'd',
    type: 'boolean',
    default: false,
    help: 'start the run with no terminal: print its id and how to attach or open it, and exit',
  },
] as const satisfies readonly OptionRow[];

type Row = (typeof RUN_OPTIONS)[number];
export type ValueOf<T extends OptionType> = T extends 'boolean' ? boolean : T extends 'string' ? string : number;

/** a flag's name as a property: max-generations → maxGenerations */
export type CamelName<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelName<Tail>>}`
  : S;

/** a row's resolved value: its type (or false, for a negatable one); undefined only when it has no default
 * here (none at all, or one applied later) */
type ResolvedOf<R extends Row> =
  | ValueOf<R['type']>
  | (R extends { negatable: true } ? false : never)
  | (R extends { default: unknown } ? (R extends { later: string } ? undefined : never) : undefined);

/** every run option resolved (flag, variable, config file, the table's default), one property per row, typed
 * from the rows: a value is declared here once, and the types that carry it pick it by name */
export type RunOptionValues = { readonly [R in Row as CamelName<R['name']>]: ResolvedOf<R> };

/** the run options counted in seconds, as the run's settings hold them: in milliseconds, `<name>Ms` */
export type SecondsName = CamelName<Extract<Row, { type: 'seconds' }>['name']>;
export type SecondsInMs = { readonly [R in Extract<Row, { type: 'seconds' }> as `${CamelName<R['name']>}Ms`]: number };

/** what the config files and the variables hold, key by key, typed from the rows; and `hosts`, the machines
 * `ls --all-hosts` and the web face reach over ssh, which only the user's own file may hold (a list, no flag
 * of the run's: core/options/project-trust.ts) */
export type ConfigValues = { [R in Extract<Row, { configKey: string }> as R['configKey']]?: ValueOf<R['type']> } & {
  hosts?: readonly string[];
};

/** the config key of the hosts list */
export const HOSTS_KEY = 'hosts';
export type ConfigKey = keyof ConfigValues;

export type OptionName = Row['name'];

/** the row of `name` */
export function optionRow(name: Row['name']): OptionRow {
  const row = (RUN_OPTIONS as readonly OptionRow[]).find((r) => r.name === name);
  if (row === undefined) throw new Error(`no option ${name} in the options table`);
  return row;
}

/** the rows a config file may set, in the table's order */
export function configRows(): OptionRow[] {
  return (RUN_OPTIONS as readonly OptionRow[]).filter((r) => r.configKey !== undefined);
}

/** a row's default as a number, for the settings that have one (headroom, review, ...) */
export function numberDefault(name: Row['name']): number {
  const value = optionRow(name).default;
  if (typeof value !== 'number') throw new Error(`option ${name} has no number default`);
  return value;
}

/** a row's default as a string (step, workbench) */
export function stringDefault(name: Row['name']): string {
  const value = optionRow(name).default;
  if (typeof value !== 'string') throw new Error(`option ${name} has no string default`);
  return value;
}

/** the default as a person writes it (50k, 10, .flower, true), or null when there is none */
export function shownDefault(row: OptionRow): string | null {
  if (row.defaultText !== undefined) return row.defaultText;
  if (row.default === undefined) return null;
  // a token count as a person types it: 50k for 50000
  if (row.type === 'tokens' && typeof row.default === 'number' && row.default % 1_000 === 0)
    return `${row.default / 1_000}k`;
  return String(row.default);
}
