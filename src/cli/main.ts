// argv in, exit code out. Parses and validates flags with yargs, hands a run to its command,
// and maps every error to one line and a documented exit code (see core/errors.ts).

import yargs, { type Argv } from 'yargs';
import { readFileSync } from 'node:fs';
import { EXIT, FlowerError, reportFatal } from '../core/errors.js';
import { exitCodesLine } from '../core/exit-code.js';
import { commandRow, commandSpec, type CommandName } from '../core/options/command-table.js';
import { commandTypo, unknownFlagsLine } from '../core/options/command-line-typos.js';
import { configRows } from '../core/options/options-table.js';
import { commandYargsOptions, runYargsOptions } from '../adapters/yargs-options.js';

const EXAMPLES: Array<[string, string]> = [
  ['$0 "fix the failing tests in src/"', 'run claude with handoffs; the prompt starts generation 1'],
  ['$0 --window 200k -- --model claude-sonnet-4-5', 'a 200k model: hand off at 150k (window − 50k headroom)'],
  ['$0 --plain --events events.jsonl', 'claude full-screen, state in the title, events to a file'],
  ['$0 --continue', 'pick a lineage up from the newest frozen document'],
  ['$0 replay ~/.claude/projects/-my-proj/<id>.jsonl --window 200k', 'what flower-pty would have done on a recorded session'],
  ['$0 status', 'print the lineage from .flower/manifest.json'],
  ['$0 report --open', 'the lineage as one self-contained HTML page (.flower/report.html): curves, timeline, documents'],
  ['$0 attach', 'look in on the run of this folder again (C-] d detaches; over ssh: ssh host -t flower-pty attach)'],
  ['$0 demo', 'a full handoff cycle in about a minute, offline, in a throwaway folder'],
  ['$0 web --allow-input', 'your runs in a browser (a login URL and a QR code): approve, read and edit the document, type'],
  ['$0 -d "a long task"', 'start a run with no terminal; attach or open it in the web face later'],
  ['$0 doctor', 'will flower-pty work here? claude, login, config folder, hooks, transcript'],
];

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function runOptions(y: Argv) {
  return y
    .positional('prompt', { type: 'string', describe: 'the task for the first session (later sessions start from the handoff document)' })
    .options(runYargsOptions());
}

// A command's row (name, positionals, help line) is core/options/command-table.ts's; this is yargs' spelling of it.
// yargs hides a command whose description is false, though its types allow only a string.
function command(name: CommandName): [string, string] {
  const row = commandRow(name);
  return [commandSpec(row), row.summary === false ? (false as unknown as string) : row.summary];
}


export async function main(argv: string[]): Promise<void> {
  // `flower-pty replay x | head`: a reader that goes away is the end of the output, not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  try {
    process.exitCode = await run(argv);
  } catch (error) {
    process.exitCode = reportFatal(error, (line) => process.stderr.write(line + '\n'));
  }
}

export async function run(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  // the command yargs is reading: its builder runs before the flags are checked, so an unknown flag is
  // answered with that command's own flags
  let reading: CommandName = '$0';
  const building = <Y>(name: CommandName, build: (y: Argv) => Y) => (y: Argv): Y => {
    reading = name;
    return build(y);
  };
  const parser = yargs(argv)
    .scriptName('flower-pty')
    .usage('$0 [options] [prompt] [-- <claude args>]\n\nRuns the interactive Claude Code CLI and, before its context window fills, has the session write a\nhandoff document, freezes it to disk where you can edit it, and starts a fresh session from it.')
    .parserConfiguration({ 'populate--': true, 'boolean-negation': true })
    .command(...command('$0'), runOptions, async (args) => {
      // a lone word near a subcommand is a typo, not a prompt: nothing is started or written
      const typo = typeof args.prompt === 'string' ? commandTypo(args.prompt) : null;
      if (typo !== null) throw new FlowerError(typo, EXIT.usage);
      const { runCommand } = await import('../commands/run.js');
      const { runCommandOptions } = await import('../commands/run-options.js');
      const { loadConfig } = await import('../adapters/config-file.js');
      const given = args.workbench as string | boolean | undefined;
      const loaded = loadConfig({ cwd: process.cwd(), env: process.env, refuseLinkedWorkbench: true, ...(given === false || typeof given === 'string' ? { workbenchFlag: given } : {}) });
      for (const note of loaded.notes) process.stderr.write(`flower-pty: ${note}\n`);
      exitCode = await runCommand(runCommandOptions(args, loaded.values, process.env));
    })
    .command(
      ...command('attach'),
      building('attach', (y) =>
        y
          .positional('id', { type: 'string', describe: 'the run id (flower-pty ls)' })
          .options(commandYargsOptions('attach'))),
      async (args) => {
        const { runAttach } = await import('../commands/attach.js');
        exitCode = await runAttach({ id: args.id as string | undefined, plain: args.plain as boolean, detachKey: args['detach-key'] as string | undefined, workbench: args.workbench as string | undefined });
      },
    )
    .command(
      ...command('__serve'),
      building('__serve', (y) => y.positional('spec', { type: 'string', demandOption: true })),
      async (args) => {
        const { runServe } = await import('../server/serve-command.js');
        await runServe(args.spec);
      },
    )
    .command(
      ...command('replay'),
      building('replay', (y) =>
        y
          .positional('transcript', { type: 'string', demandOption: true, describe: 'a Claude Code transcript (.jsonl)' })
          .options(commandYargsOptions('replay'))),
      async (args) => {
        const { runReplay } = await import('../commands/replay.js');
        exitCode = await runReplay({
          file: args.transcript as string,
          ...(args.window !== undefined ? { window: args.window as number } : {}),
          ...(args.headroom !== undefined ? { headroom: args.headroom as number } : {}),
          json: args.json as boolean,
          out: (line) => process.stdout.write(line + '\n'),
        });
      },
    )
    .command(
      ...command('status'),
      building('status', (y) =>
        y.options(commandYargsOptions('status'))),
      async (args) => {
        const { runStatus } = await import('../commands/status.js');
        const { findWorkbench } = await import('../adapters/config-file.js');
        exitCode = await runStatus({ workbench: findWorkbench(process.cwd(), process.env, args.workbench as string | undefined), json: args.json as boolean, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      ...command('report'),
      building('report', (y) =>
        y.options(commandYargsOptions('report'))),
      async (args) => {
        const { runReport } = await import('../commands/report.js');
        exitCode = await runReport({
          ...(args.workbench !== undefined ? { workbench: args.workbench as string } : {}),
          cwd: process.cwd(),
          ...(args.output !== undefined ? { output: args.output as string } : {}),
          ...(args.events !== undefined ? { events: args.events as string } : {}),
          open: args.open as boolean,
          json: args.json as boolean,
          env: process.env,
          out: (line) => process.stdout.write(line + '\n'),
        });
      },
    )
    .command(
      ...command('ls'),
      building('ls', (y) => y.options(commandYargsOptions('ls'))),
      async (args) => {
        const { runLs } = await import('../commands/ls.js');
        exitCode = await runLs({ json: args.json as boolean, env: process.env, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      ...command('kill'),
      building('kill', (y) =>
        y
          .positional('id', { type: 'string', describe: 'the run id (flower-pty ls)' })
          .options(commandYargsOptions('kill'))),
      async (args) => {
        const { runKill } = await import('../commands/kill.js');
        exitCode = await runKill({ id: args.id as string | undefined, workbench: args.workbench as string | undefined, cwd: process.cwd(), env: process.env, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      ...command('web'),
      building('web', (y) =>
        y.options(commandYargsOptions('web'))),
      async (args) => {
        const { runWeb } = await import('../commands/web.js');
        exitCode = await runWeb({
          listen: args.listen as string | undefined,
          allowInput: args['allow-input'] as boolean,
          detach: args.detach as boolean,
          login: args.login as boolean,
          tlsCert: args['tls-cert'] as string | undefined,
          tlsKey: args['tls-key'] as string | undefined,
          behindProxy: args['behind-proxy'] as boolean,
          publicHost: ((args['public-host'] as unknown[] | undefined) ?? []).map(String),
          readyPipe: args['ready-pipe'] as boolean,
          argv,
          env: process.env,
          out: (line) => process.stdout.write(line + '\n'),
          isTTY: Boolean(process.stdout.isTTY),
        });
      },
    )
    .command(
      ...command('demo'),
      building('demo', (y) =>
        y.options(commandYargsOptions('demo'))),
      async (args) => {
        const { runDemo } = await import('../commands/demo.js');
        exitCode = await runDemo({
          plain: args.plain as boolean,
          keepGoing: args['keep-going'] as boolean,
          detach: args.detach as boolean,
          claude: args.claude as string | undefined,
          review: args.review as number,
          out: (line) => process.stdout.write(line + '\n'),
        });
      },
    )
    .command(
      ...command('trust'),
      building('trust', (y) =>
        y.options(commandYargsOptions('trust'))),
      async (args) => {
        const { runTrust } = await import('../commands/trust.js');
        exitCode = await runTrust({ workbench: args.workbench as string | undefined, remove: args.remove as boolean, list: args.list as boolean, cwd: process.cwd(), env: process.env, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      ...command('doctor'),
      building('doctor', (y) => y.options(commandYargsOptions('doctor'))),
      async (args) => {
        const { runDoctor } = await import('../commands/doctor.js');
        exitCode = await runDoctor({ claude: args.claude as string | undefined, env: process.env, cwd: process.cwd(), out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .example(EXAMPLES)
    .epilog(
      `Exit codes: ${exitCodesLine()}\n` +
        'Split view keys: the prefix C-] (change with FLOWER_PTY_PREFIX), then Tab focus · j/k/PgUp/PgDn scroll the document · e edit it in $EDITOR · h hand off now · p hold/release the successor · z hide/show the document · d detach · q quit · ? help · C-] C-] sends C-].\n' +
        'Files: <workbench>/notes/交接-<step>.md (the current document, edit it freely), <workbench>/notes/archive/交接/ (earlier ones), <workbench>/manifest.json.\n' +
        `Config: flags win over FLOWER_PTY_* variables (${configRows().map((row) => row.env).join(', ')}), then <workbench>/config.json, then $XDG_CONFIG_HOME/flower-pty/config.json (keys: the flags' names).`,
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
      // `flower-pty stauts --json`: the typo is the news, not the flag
      const typo = reading === '$0' && argv[0] !== undefined && !argv[0].startsWith('-') ? commandTypo(argv[0]) : null;
      if (typo !== null) throw new FlowerError(typo, EXIT.usage);
      const unknown = unknownFlagsLine(message, reading, argv);
      throw new FlowerError(unknown ?? `${message} (see flower-pty --help)`, EXIT.usage);
    });
  await parser.parseAsync();
  return exitCode;
}
