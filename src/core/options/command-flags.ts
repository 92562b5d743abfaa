// Each subcommand's own flags, one row each, in the options table's shape (as each tmux command carries
// its own arguments beside the one options table). A flag the run also has borrows the run's row
// (`from`): its type, alias and checks are written once, in core/options/options-table.ts; a subcommand only
// says it in its own words or with its own default. cli/main.ts registers exactly these
// (adapters/yargs-options.ts `commandYargsOptions`), so no flag is written inline there. Pure data.

import type { COMMANDS, CommandName } from './command-table.js';
import type { OptionName, OptionRow, OptionType, RUN_OPTIONS, ValueOf } from './options-table.js';
import { DEFAULT_WEB_HOST, DEFAULT_WEB_PORT } from '../web/web-listen.js';

/** a flag of a subcommand's own */
export interface OwnFlag extends OptionRow {
  /** the flag may be given several times */
  readonly array?: boolean;
  /** not in --help (an internal hand-shake) */
  readonly hidden?: boolean;
}

/** a run option a subcommand also takes, in its own words or with its own default */
export interface BorrowedFlag {
  readonly from: OptionName;
  readonly help?: string;
  readonly default?: number | string | boolean;
  /** how the help shows a default decided at run time */
  readonly defaultText?: string;
}

export type CommandFlag = OwnFlag | BorrowedFlag;

/** the demo's review is shorter than a run's: a person watching the demo is already at the screen */
export const DEMO_REVIEW_SECONDS = 8;

const json = (help: string) => ({ name: 'json', type: 'boolean', default: false, help }) as const satisfies OwnFlag;
const workbench = (help: string) => ({ from: 'workbench', help }) as const satisfies BorrowedFlag;

export const COMMAND_FLAGS = {
  attach: [
    { from: 'plain', help: 'claude full-screen with state in the terminal title (no split view)', default: false },
    { from: 'detach-key', help: 'with --plain: a control key (e.g. C-\\) that detaches when pressed alone' },
    workbench('the workbench whose run to attach to when no id is given (found as a run finds it)'),
  ],
  replay: [
    { from: 'window', help: 'context window', defaultText: 'from the model name in the transcript' },
    { from: 'headroom', help: 'tokens left free above the handoff line' },
    json('one JSON object a line'),
  ],
  status: [
    workbench('the workbench folder (found as a run finds it)'),
    json('the manifest and whether its run is live, as one JSON object'),
  ],
  report: [
    workbench('the workbench folder (found as a run finds it)'),
    { name: 'output', alias: 'o', type: 'string', help: 'the HTML file to write (default <workbench>/report.html)' },
    {
      name: 'events',
      type: 'string',
      help: "the run's --events file (default: the workbench config's events key, if any)",
    },
    {
      name: 'open',
      type: 'boolean',
      default: false,
      help: "open the page with the platform's opener (xdg-open / open)",
    },
    json('print the same data as one JSON document instead of writing the page'),
  ],
  ls: [
    json('one JSON array of runs (with --host: one object a host, as that host printed it, plus "host")'),
    {
      name: 'host',
      type: 'string',
      array: true,
      help: 'list the runs on this machine over ssh instead (user@box, an alias of ~/.ssh/config; repeat it for several)',
    },
    {
      name: 'all-hosts',
      type: 'boolean',
      default: false,
      help: 'list the runs here and on every host of your config\'s "hosts" list',
    },
    {
      name: 'wire-version',
      type: 'boolean',
      default: false,
      hidden: true,
      help: 'with --json: one object, the wire version and the runs (what ls --host asks a host)',
    },
  ],
  kill: [workbench('the workbench whose run to end when no id is given (found as a run finds it)')],
  web: [
    {
      name: 'listen',
      type: 'string',
      help: `HOST:PORT to listen on (default ${DEFAULT_WEB_HOST}:${DEFAULT_WEB_PORT}; anything but loopback needs --tls-cert/--tls-key or --behind-proxy)`,
    },
    {
      name: 'allow-input',
      type: 'boolean',
      default: false,
      help: 'let pages type into claude, approve or deny permissions, edit the document in review, hand off, hold, end runs (default: read-only)',
    },
    {
      name: 'detach',
      alias: 'd',
      type: 'boolean',
      default: false,
      help: 'run in the background: print the login URL, write a log, exit',
    },
    { name: 'login', type: 'boolean', default: false, help: 'print a new login URL for the web face already running' },
    {
      name: 'stop',
      type: 'boolean',
      default: false,
      help: 'stop the web face of yours that is running (web -d); the runs go on',
    },
    { name: 'tls-cert', type: 'string', help: 'serve https with this certificate (PEM)' },
    { name: 'tls-key', type: 'string', help: 'the key of --tls-cert (PEM)' },
    {
      name: 'behind-proxy',
      type: 'boolean',
      default: false,
      help: 'an SSH tunnel or tailscale serve protects a non-loopback --listen (it speaks https to the browser)',
    },
    {
      name: 'public-host',
      type: 'string',
      array: true,
      help: 'a host name the browser uses for this server through a proxy (tailscale serve: the machine name)',
    },
    {
      name: 'ready-pipe',
      type: 'boolean',
      default: false,
      hidden: true,
      help: 'the detached server says it listens on its standard output',
    },
  ],
  demo: [
    { from: 'plain', help: 'claude full-screen with state in the terminal title (no split view)', default: false },
    {
      name: 'keep-going',
      type: 'boolean',
      default: false,
      help: "don't end after the successor's first turn: quit claude yourself (or flower-pty kill)",
    },
    {
      from: 'detach',
      help: 'start the demo with no terminal (it keeps going): print how to attach it and open it in the web face',
    },
    { from: 'claude', defaultText: "$FLOWER_PTY_CLAUDE, else the repo's pinned one, else PATH" },
    { from: 'review', help: 'seconds the frozen document waits for your edit', default: DEMO_REVIEW_SECONDS },
  ],
  trust: [
    workbench('the workbench whose config to trust (found as a run finds it)'),
    { name: 'remove', type: 'boolean', default: false, help: 'stop trusting it' },
    { name: 'list', type: 'boolean', default: false, help: 'list the trusted folders' },
  ],
  eval: [
    { name: 'html', type: 'string', help: 'also write the scores as one self-contained HTML page to this file' },
    json('print the scores as one JSON document (docs/eval.md has its shape)'),
    {
      name: 'at',
      type: 'string',
      array: true,
      help: "eval fork: a line of the session's transcript to fork it at (again for more cuts; default: its end)",
    },
    {
      name: 'runs',
      alias: 'k',
      type: 'count',
      default: 1,
      min: 1,
      max: 20,
      maxWhy: 'each run is a real fork, paid for',
      help: 'eval fork: runs per arm and cut',
    },
    {
      name: 'dry-run',
      type: 'boolean',
      default: false,
      help: 'eval fork: print what it would run and a token estimate, and run nothing',
    },
    { from: 'claude', help: 'eval fork: the claude to fork with (as a run finds it)' },
  ],
  doctor: [
    { from: 'claude' },
    json('one JSON object: "ready", and "checks", each with its level (OK, WARN, FAIL), topic and text'),
  ],
} as const satisfies Partial<Record<CommandName, readonly CommandFlag[]>>;

/** a subcommand's flags (none: it takes only its positionals) */
export function commandFlags(command: CommandName): readonly CommandFlag[] {
  const flags: Partial<Record<CommandName, readonly CommandFlag[]>> = COMMAND_FLAGS;
  return flags[command] ?? [];
}

// The values a subcommand's handler gets, typed from its rows (cli/main.ts casts yargs' result to this once).
type RunRow = (typeof RUN_OPTIONS)[number];
type FlagsOf<C> = C extends keyof typeof COMMAND_FLAGS ? (typeof COMMAND_FLAGS)[C][number] : never;
type FlagKey<F> = F extends { from: infer N extends string }
  ? N
  : F extends { name: infer N extends string }
    ? N
    : never;
/** yargs fills in a default the flag gives, or a run row's that no config file or variable could beat */
type Absent<F, R> = F extends { default: unknown }
  ? never
  : R extends { configKey: string }
    ? undefined
    : R extends { default: unknown }
      ? never
      : undefined;
type FlagValue<F> = F extends { array: true }
  ? string[] | undefined
  : F extends { from: infer N }
    ? ValueOf<Extract<RunRow, { name: N }>['type']> | Absent<F, Extract<RunRow, { name: N }>>
    : F extends { type: infer T extends OptionType }
      ? ValueOf<T> | Absent<F, F>
      : never;
/** the positionals of a command's row: `<x>` given, `[x]` maybe, `[x..]` the rest as a list */
type Positional<A> = A extends `[${infer N}..]`
  ? { readonly [K in N]?: string[] }
  : A extends `<${infer N}>`
    ? { readonly [K in N]: string }
    : A extends `[${infer N}]`
      ? { readonly [K in N]?: string }
      : unknown;
type Positionals<A> = A extends `${infer H} ${infer R}` ? Positional<H> & Positionals<R> : Positional<A>;
type ArgsOf<C> = Extract<(typeof COMMANDS)[number], { name: C }> extends { args: infer A } ? A : '';

export type CommandArgs<C extends CommandName> = Positionals<ArgsOf<C>> &
  (C extends '$0' ? Readonly<Record<string, unknown>> : { readonly [F in FlagsOf<C> as FlagKey<F>]: FlagValue<F> });
