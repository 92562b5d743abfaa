// argv in, exit code out. Registers each row of the command table with yargs (its flags are its rows),
// hands the parsed values to the command's handler,
// and maps every error to one line and a documented exit code (see core/errors.ts).

import yargs, { type Argv, type FallbackCompletionFunction } from 'yargs';
import { readFileSync } from 'node:fs';
import { EXIT, FlowerError, reportFatal } from '../core/errors.js';
import { exitCodesLine } from '../core/exit-code.js';
import {
  COMMANDS,
  COMPLETION_COMMAND,
  commandPositionals,
  commandRow,
  commandSpec,
  completionWords,
  missingArgument,
  type CommandName,
} from '../core/options/command-table.js';
import type { CommandArgs } from '../core/options/command-flags.js';
import { commandTypo, unknownFlagsLine } from '../core/options/command-line-typos.js';
import { configRows } from '../core/options/options-table.js';
import { lastGiven } from '../core/options/resolve-options.js';
import { commandYargsOptions, runYargsOptions } from '../adapters/yargs-options.js';
import { sayErr, sayOut } from '../adapters/terminal-lines.js';
import { ownCommandHere } from '../adapters/own-command-here.js';

const EXAMPLES: Array<[string, string]> = [
  ['$0 "fix the failing tests in src/"', 'run claude with handoffs; the prompt starts generation 1'],
  ['$0 --window 200k -- --model claude-sonnet-4-5', 'a 200k model: hand off at 150k (window − 50k headroom)'],
  ['$0 --plain --events events.jsonl', 'claude full-screen, state in the title, events to a file'],
  ['$0 --continue', 'pick a lineage up from the newest frozen document'],
  [
    '$0 replay ~/.claude/projects/-my-proj/<id>.jsonl --window 200k',
    'what flower-pty would have done on a recorded session',
  ],
  ['$0 status', 'print the lineage from .flower/manifest.json'],
  [
    '$0 report --open',
    'the lineage as one self-contained HTML page (.flower/report.html): curves, timeline, documents',
  ],
  ['$0 attach', 'look in on the run of this folder again (C-] d detaches; over ssh: ssh host -t flower-pty attach)'],
  ['$0 demo', 'a full handoff cycle in about a minute, offline, in a throwaway folder'],
  [
    '$0 web --allow-input',
    'your runs in a browser (a login URL and a QR code): approve, read and edit the document, type',
  ],
  ['$0 -d "a long task"', 'start a run with no terminal; attach or open it in the web face later'],
  ['$0 doctor', 'will flower-pty work here? claude, login, config folder, hooks, transcript'],
];

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

const say = sayOut;

/** each command's handler: its flags and positional typed from its rows, its exit code back */
// `eval fork SESSION`: a person's own session forked with their own claude (commands/eval-fork.ts).
async function evalFork(args: CommandArgs<'eval'>): Promise<number> {
  const { runEvalFork } = await import('../commands/eval-fork.js');
  const [session, ...more] = args.paths ?? [];
  if (session === undefined || more.length > 0)
    throw new FlowerError(
      'eval fork: name one session id: flower-pty eval fork SESSION [--at LINE ...] [-k K] [--dry-run]',
      EXIT.usage,
    );
  const bad = (args.at ?? []).find((n) => !/^\d+$/.test(n.trim()));
  if (bad !== undefined)
    throw new FlowerError(
      `eval fork: --at expects a line number of the transcript (1 or more), got "${bad}"`,
      EXIT.usage,
    );
  const at = (args.at ?? []).map(Number);
  // Ctrl-C ends the call under way: the runs that finished are printed, and said to be all there is.
  const stop = new AbortController();
  const onInterrupt = (): void => stop.abort();
  process.once('SIGINT', onInterrupt);
  try {
    return await runEvalFork({
      session,
      at,
      k: args.runs,
      dryRun: args['dry-run'],
      claude: args.claude,
      cwd: process.cwd(),
      env: process.env,
      out: say,
      err: sayErr,
      signal: stop.signal,
    });
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}

/** flower-pty as the person types it here: the commands a usage error suggests work as printed */
const ownHere = (): string => ownCommandHere(process.env, process.cwd());

type Handler<C extends CommandName> = (args: CommandArgs<C>, argv: string[]) => Promise<number>;

const HANDLERS: { [C in CommandName]: Handler<C> } = {
  $0: async (args) => {
    // a lone word near a subcommand is a typo, not a prompt: nothing is started or written
    const typo = typeof args.prompt === 'string' ? commandTypo(args.prompt, ownHere()) : null;
    if (typo !== null) throw new FlowerError(typo, EXIT.usage);
    const { runCommand } = await import('../commands/run.js');
    const { runCommandOptions } = await import('../commands/run-options.js');
    const { loadConfig } = await import('../adapters/config-file.js');
    const given = lastGiven(args.workbench);
    const loaded = loadConfig({
      cwd: process.cwd(),
      env: process.env,
      refuseLinkedWorkbench: true,
      ...(given === false || typeof given === 'string' ? { workbenchFlag: given } : {}),
    });
    for (const note of loaded.notes) sayErr(`flower-pty: ${note}`);
    return runCommand(runCommandOptions(args, loaded.values, process.env));
  },
  attach: async (args) => {
    const { runAttach } = await import('../commands/attach.js');
    return runAttach({ id: args.id, plain: args.plain, detachKey: args['detach-key'], workbench: args.workbench });
  },
  __serve: async (args) => {
    const { runServe } = await import('../server/serve-command.js');
    await runServe(args.spec);
    return EXIT.ok;
  },
  replay: async (args) => {
    const { runReplay } = await import('../commands/replay.js');
    return runReplay({
      file: args.transcript,
      ...(args.window !== undefined ? { window: args.window } : {}),
      ...(args.headroom !== undefined ? { headroom: args.headroom } : {}),
      json: args.json,
      out: say,
    });
  },
  status: async (args) => {
    const { runStatus } = await import('../commands/status.js');
    const { findWorkbench } = await import('../adapters/config-file.js');
    return runStatus({
      workbench: findWorkbench(process.cwd(), process.env, args.workbench),
      json: args.json,
      out: say,
    });
  },
  report: async (args) => {
    const { runReport } = await import('../commands/report.js');
    return runReport({
      ...(args.run !== undefined ? { run: args.run } : {}),
      ...(args.workbench !== undefined ? { workbench: args.workbench } : {}),
      cwd: process.cwd(),
      ...(args.output !== undefined ? { output: args.output } : {}),
      ...(args.events !== undefined ? { events: args.events } : {}),
      open: args.open,
      json: args.json,
      env: process.env,
      out: say,
    });
  },
  ls: async (args, argv) => {
    // yargs reads a bare `--host` (or `--host=`) as no hosts at all, which would list this machine instead,
    // and drops a bare last one beside named ones (`--host a --host`): count the flags it was given
    const given = argv.filter((a) => a === '--host' || a.startsWith('--host=')).length;
    const named = args.host ?? [];
    if (given > 0 && (named.length < given || named.some((h) => String(h) === ''))) {
      throw new FlowerError(
        "ls --host needs a machine's name: flower-pty ls --host user@box (or an alias of ~/.ssh/config; repeat --host for several)",
        EXIT.usage,
      );
    }
    const { runLs } = await import('../commands/ls.js');
    return runLs({
      json: args.json,
      wireVersion: args['wire-version'],
      hosts: (args.host ?? []).map(String),
      allHosts: args['all-hosts'],
      env: process.env,
      out: say,
    });
  },
  kill: async (args) => {
    const { runKill } = await import('../commands/kill.js');
    return runKill({ id: args.id, workbench: args.workbench, cwd: process.cwd(), env: process.env, out: say });
  },
  web: async (args, argv) => {
    const { runWeb } = await import('../commands/web.js');
    return runWeb({
      listen: args.listen,
      allowInput: args['allow-input'],
      detach: args.detach,
      login: args.login,
      stop: args.stop,
      tlsCert: args['tls-cert'],
      tlsKey: args['tls-key'],
      behindProxy: args['behind-proxy'],
      publicHost: (args['public-host'] ?? []).map(String),
      readyPipe: args['ready-pipe'],
      argv,
      env: process.env,
      out: say,
      isTTY: Boolean(process.stdout.isTTY),
    });
  },
  demo: async (args) => {
    const { runDemo } = await import('../commands/demo.js');
    return runDemo({
      plain: args.plain,
      keepGoing: args['keep-going'],
      detach: args.detach,
      claude: args.claude,
      review: args.review,
      out: say,
    });
  },
  trust: async (args) => {
    const { runTrust } = await import('../commands/trust.js');
    return runTrust({
      workbench: args.workbench,
      remove: args.remove,
      list: args.list,
      cwd: process.cwd(),
      env: process.env,
      out: say,
    });
  },
  eval: async (args) => {
    if (args.what === 'fork') return evalFork(args);
    const { runEval } = await import('../commands/eval.js');
    // Ctrl-C stops the reading between two chunks: what was read whole is printed, and said to be partial.
    const stop = new AbortController();
    const onInterrupt = (): void => stop.abort();
    process.once('SIGINT', onInterrupt);
    try {
      return await runEval({
        what: args.what,
        paths: args.paths ?? [],
        html: args.html,
        json: args.json,
        cwd: process.cwd(),
        env: process.env,
        out: say,
        err: sayErr,
        signal: stop.signal,
      });
    } finally {
      process.removeListener('SIGINT', onInterrupt);
    }
  },
  doctor: async (args) => {
    const { runDoctor } = await import('../commands/doctor.js');
    return runDoctor({ claude: args.claude, json: args.json, env: process.env, cwd: process.cwd(), out: say });
  },
};

export async function main(argv: string[]): Promise<void> {
  // `flower-pty replay x | head`: a reader that goes away is the end of the output, not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  try {
    process.exitCode = await run(argv);
  } catch (error) {
    process.exitCode = reportFatal(error, sayErr);
  }
}

export async function run(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  // the command yargs is reading: its builder runs before the flags are checked, so an unknown flag is
  // answered with that command's own flags
  let reading: CommandName = '$0';
  const parser = yargs(argv)
    .scriptName('flower-pty')
    .usage(
      '$0 [options] [prompt] [-- <claude args>]\n\nRuns the interactive Claude Code CLI and, before its context window fills, has the session write a\nhandoff document, freezes it to disk where you can edit it, and starts a fresh session from it.',
    )
    .parserConfiguration({ 'populate--': true, 'boolean-negation': true });
  // One registration per row of the command table, in its order: the row's positional, the command's flag
  // rows (core/options/command-flags.ts; a run's are the options table's) and its handler below.
  const register = <C extends CommandName>(name: C): void => {
    const row = commandRow(name);
    parser.command({
      command: commandSpec(row),
      describe: row.summary,
      builder: (y: Argv) => {
        // the default command's builder may run after a subcommand's: only a subcommand names itself
        if (name !== '$0') reading = name;
        let withPositional = y;
        for (const [i, positional] of commandPositionals(row).entries()) {
          withPositional = withPositional.positional(positional.name, {
            type: 'string',
            ...(positional.variadic ? { array: true } : {}),
            ...(positional.required ? { demandOption: true } : {}),
            ...(row.argHelp !== undefined && i === 0 ? { describe: row.argHelp } : {}),
          });
        }
        return withPositional.options(name === '$0' ? runYargsOptions() : commandYargsOptions(name));
      },
      handler: async (args) => {
        // the one typed boundary: yargs checked each flag against its row, the types are the rows'
        exitCode = await HANDLERS[name](args as unknown as CommandArgs<C>, argv);
      },
    });
  };
  for (const row of COMMANDS) register(row.name);
  // yargs' own: the script, and the answers to its calls (the commands and each one's flags)
  const completing: FallbackCompletionFunction = (_current, _argv, yargsWords, done) => {
    yargsWords((error, words) => done(error ? [] : completionWords(words ?? [])));
  };
  parser.completion(COMPLETION_COMMAND.name, COMPLETION_COMMAND.summary, completing);
  parser
    .example(EXAMPLES)
    .epilog(
      `Exit codes: ${exitCodesLine()}\n` +
        'Split view keys: the prefix C-] (change with FLOWER_PTY_PREFIX), then Tab focus · j/k/PgUp/PgDn scroll the document · e edit it in $EDITOR · h hand off now · p hold/release the successor · z hide/show the document · d detach · q quit · ? help · C-] C-] sends C-].\n' +
        'Files: <workbench>/notes/交接-<step>.md (the current document, edit it freely), <workbench>/notes/archive/交接/ (earlier ones), <workbench>/manifest.json.\n' +
        `Config: flags win over FLOWER_PTY_* variables (${configRows()
          .map((row) => row.env)
          .join(
            ', ',
          )}), then <workbench>/config.json, then $XDG_CONFIG_HOME/flower-pty/config.json (keys: the flags' names).`,
    )
    .strict()
    .help()
    .alias('h', 'help')
    .version(version())
    .wrap(Math.min(110, process.stdout.columns || 100))
    .fail((message, error) => {
      // yargs wraps an error thrown by a coerce function (our value checks) in a YError.
      if (error && error.name === 'YError') throw new FlowerError(error.message, EXIT.usage);
      if (error) throw error;
      const own = ownHere();
      // `flower-pty stauts --json`: the typo is the news, not the flag
      const typo =
        reading === '$0' && argv[0] !== undefined && !argv[0].startsWith('-') ? commandTypo(argv[0], own) : null;
      if (typo !== null) throw new FlowerError(typo, EXIT.usage);
      // `flower-pty replay` alone: what to pass, not yargs' count of positionals
      if (/^Not enough non-option arguments/.test(message) && reading !== '$0')
        throw new FlowerError(missingArgument(reading, own), EXIT.usage);
      const unknown = unknownFlagsLine(message, reading, argv, own);
      throw new FlowerError(unknown ?? `${message} (see ${own} --help)`, EXIT.usage);
    });
  await parser.parseAsync();
  return exitCode;
}
