// flower-pty's commands, one row each: the name, its positionals as yargs reads them, and the line --help
// shows. cli/main.ts registers exactly these (in this order, one loop over the rows) and test/readme.test.ts holds the README's list of
// subcommands to them, so a command is added here once. Pure data.

export interface CommandRow {
  /** '$0' is the default command (a run) */
  readonly name: string;
  /** the positionals after the name, in yargs' grammar ('[id]', '<transcript>') */
  readonly args?: string;
  /** what the positional is, in --help */
  readonly argHelp?: string;
  /** a required positional left out: what to pass, said instead of yargs' "Not enough non-option arguments"
   * (`own`: flower-pty as the person types it where they are, core/options/own-command.ts) */
  readonly argMissing?: (own: string) => string;
  /** the help's line; false hides the command (a client starts the run server with `__serve`) */
  readonly summary: string | false;
}

export const COMMANDS = [
  {
    name: '$0',
    args: '[prompt]',
    argHelp: 'the task for the first session (later sessions start from the handoff document)',
    summary: 'run claude under supervision (the default)',
  },
  {
    name: 'attach',
    args: '[id]',
    argHelp: 'the run id (flower-pty ls), or HOST:ID for a run on another machine (over ssh)',
    summary:
      'attach this terminal to a live run (no id: the run of this folder, else the only one; HOST:ID: one on another machine, over ssh -t)',
  },
  { name: '__serve', args: '<spec>', summary: false },
  {
    name: 'replay',
    args: '<transcript>',
    argHelp: 'a Claude Code transcript (.jsonl)',
    argMissing: (own) =>
      `name the transcript to replay: ${own} replay ~/.claude/projects/<project folder>/<session id>.jsonl [--window N]`,
    summary: 'dry run: what flower-pty would have done on a recorded transcript',
  },
  { name: 'status', summary: 'print the lineage recorded in the workbench manifest' },
  {
    name: 'report',
    args: '[run]',
    argHelp: "a live run's id, or HOST:ID for one on another machine (its lineage fetched over ssh)",
    summary: 'write the lineage as one self-contained HTML page: context curves, timeline, documents, edits, cost',
  },
  {
    name: 'ls',
    summary:
      "list this user's live runs on this machine (a run whose server is gone is not listed; " +
      'its socket is removed), or on others over ssh (--host, --all-hosts)',
  },
  {
    name: 'kill',
    args: '[id]',
    argHelp: 'the run id (flower-pty ls), or HOST:ID for a run on another machine (over ssh)',
    summary:
      'end a live run cleanly (no id: the run of this folder, else the only one); flower-pty --continue picks the lineage up later',
  },
  {
    name: 'web',
    summary:
      "every live run of yours in a browser: a dashboard, each run's terminal, its document, approvals (prints a login URL)",
  },
  {
    name: 'demo',
    summary:
      'watch a whole handoff cycle in about a minute: ' +
      'the real claude against a built-in scripted model on 127.0.0.1 (no account, no network, a throwaway folder)',
  },
  {
    name: 'trust',
    summary:
      "let this folder's own config (.flower/config.json) run programs and write outside the project: " +
      'its claude, notify-command, events, log, workbench (as it is now; a changed file needs trusting again)',
  },
  {
    name: 'eval',
    args: '<what> [paths..]',
    argMissing: (own) =>
      `say what to measure: ${own} eval compaction [FILE|DIR ...] ` +
      `(your sessions' compaction summaries), or ${own} eval fork SESSION (a fork of one session)`,
    argHelp:
      'compaction [FILE|DIR ...]: score every compaction summary in these transcripts (default: your Claude Code projects folder); ' +
      'fork SESSION: fork one of your sessions and compare /compact with a handoff (docs/eval-fork.md)',
    summary:
      'measure what a handoff keeps: how much of what a successor must have (files, dead ends, ' +
      'your instructions, open tasks, identifiers) each compaction summary of your sessions carries (docs/eval.md)',
  },
  {
    name: 'doctor',
    summary:
      'check in one screen whether claude, its login, its config folder, hooks and transcript writing will work with flower-pty (never calls the API)',
  },
] as const satisfies readonly CommandRow[];

export type CommandName = (typeof COMMANDS)[number]['name'];

/**
 * `flower-pty completion`: yargs' own command (it prints the script for the shell $SHELL names, bash or
 * zsh, and answers the script's `--get-yargs-completions` calls), so it is no row above; it is a command a
 * person types all the same (a slip of it is caught, `flower-pty completion` is never a prompt).
 */
export const COMPLETION_COMMAND = {
  name: 'completion',
  summary:
    'print a shell completion script for bash or zsh (the shell $SHELL names): flower-pty completion >> ~/.bashrc (or ~/.zshrc)',
} as const;

/**
 * yargs' completion words, as a person types them: not the default command's own name (`$0`) nor a hidden
 * one, a one-letter alias with one dash (`-d`, not yargs' `--d`). A zsh word carries its description after
 * a colon.
 */
export function completionWords(words: readonly string[]): string[] {
  const hidden = new Set<string>(
    COMMANDS.filter((row) => row.name === '$0' || row.summary === false).map((row) => row.name),
  );
  return words.filter((word) => !hidden.has(word.split(':')[0]!)).map((word) => word.replace(/^--(\w)(?=$|:)/, '-$1'));
}

/** the row of `name` */
export function commandRow(name: CommandName): CommandRow {
  return COMMANDS.find((c) => c.name === name)!;
}

/** a positional of a command: its name, whether it must be given (`<x>`), whether it takes the rest (`[x..]`) */
export interface Positional {
  readonly name: string;
  readonly required: boolean;
  readonly variadic: boolean;
}

/** the positionals of a row, in order (none when the command takes none) */
export function commandPositionals(row: CommandRow): Positional[] {
  const out: Positional[] = [];
  for (const word of (row.args ?? '').split(' ')) {
    const match = /^([<[])(\w+)(\.\.)?[>\]]$/.exec(word);
    if (match !== null) out.push({ name: match[2]!, required: match[1] === '<', variadic: match[3] !== undefined });
  }
  return out;
}

/** the one line for a command whose required positional was left out; `own` names flower-pty as typed here */
export function missingArgument(name: CommandName, own: string): string {
  const row = commandRow(name);
  const [first] = commandPositionals(row);
  return `${name}: ${row.argMissing?.(own) ?? `name its ${first?.name ?? 'argument'}: ${own} ${commandSpec(row)}`}`;
}

/** what yargs registers: the name and its positionals */
export function commandSpec(row: CommandRow): string {
  return row.args === undefined ? row.name : `${row.name} ${row.args}`;
}
