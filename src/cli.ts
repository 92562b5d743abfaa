// argv in, exit code out. Parses and validates flags with yargs, hands a run to its command,
// and maps every error to one line and a documented exit code (see errors.ts).

import yargs, { type Argv } from 'yargs';
import { readFileSync } from 'node:fs';
import { EXIT, FlowerError, reportFatal } from './errors.js';
import { exitCodesLine } from './core/exit-code.js';
import { commandRow, commandSpec, type CommandName } from './core/command-table.js';
import { configRows, optionRow } from './core/options-table.js';
import { runYargsOptions, yargsOption } from './adapters/yargs-options.js';

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
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
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

// A command's row (name, positionals, help line) is core/command-table.ts's; this is yargs' spelling of it.
// yargs hides a command whose description is false, though its types allow only a string.
function command(name: CommandName): [string, string] {
  const row = commandRow(name);
  return [commandSpec(row), row.summary === false ? (false as unknown as string) : row.summary];
}

/** the option that names a workbench, in a subcommand's words */
/** the demo's review is shorter than a run's: a person watching the demo is already at the screen */
const DEMO_REVIEW_SECONDS = 8;

const workbenchOption = (help: string) => yargsOption(optionRow('workbench'), { help });

export async function main(argv: string[]): Promise<void> {
  // `flower-pty replay x | head`: a reader that goes away is the end of the output, not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  try {
    process.exitCode = await run(argv);
  } catch (error) {
    process.exitCode = reportFatal(error);
  }
}

export async function run(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const parser = yargs(argv)
    .scriptName('flower-pty')
    .usage('$0 [options] [prompt] [-- <claude args>]\n\nRuns the interactive Claude Code CLI and, before its context window fills, has the session write a\nhandoff document, freezes it to disk where you can edit it, and starts a fresh session from it.')
    .parserConfiguration({ 'populate--': true, 'boolean-negation': true })
    .command(...command('$0'), runOptions, async (args) => {
      const { runCommand } = await import('./commands/run.js');
      const { runCommandOptions } = await import('./commands/run-options.js');
      const { loadConfig } = await import('./adapters/config-file.js');
      const given = args.workbench as string | boolean | undefined;
      const loaded = loadConfig({ cwd: process.cwd(), env: process.env, refuseLinkedWorkbench: true, ...(given === false || typeof given === 'string' ? { workbenchFlag: given } : {}) });
      for (const note of loaded.notes) process.stderr.write(`flower-pty: ${note}\n`);
      exitCode = await runCommand(runCommandOptions(args, loaded.values, process.env));
    })
    .command(
      ...command('attach'),
      (y) =>
        y
          .positional('id', { type: 'string', describe: 'the run id (flower-pty ls)' })
          .options({
            plain: yargsOption(optionRow('plain'), { help: 'claude full-screen with state in the terminal title (no split view)', default: false }),
            'detach-key': yargsOption(optionRow('detach-key'), { help: 'with --plain: a control key (e.g. C-\\) that detaches when pressed alone' }),
            workbench: workbenchOption('the workbench whose run to attach to when no id is given (found as a run finds it)'),
          }),
      async (args) => {
        const { runAttach } = await import('./commands/attach.js');
        exitCode = await runAttach({ id: args.id, plain: args.plain as boolean, detachKey: args['detach-key'] as string | undefined, workbench: args.workbench as string | undefined });
      },
    )
    .command(
      ...command('__serve'),
      (y) => y.positional('spec', { type: 'string', demandOption: true }),
      async (args) => {
        const { runServe } = await import('./server/serve-command.js');
        await runServe(args.spec);
      },
    )
    .command(
      ...command('replay'),
      (y) =>
        y
          .positional('transcript', { type: 'string', demandOption: true, describe: 'a Claude Code transcript (.jsonl)' })
          .options({
            window: { ...yargsOption(optionRow('window'), { help: 'context window' }), defaultDescription: 'from the model name in the transcript' },
            headroom: yargsOption(optionRow('headroom'), { help: 'tokens left free above the handoff line' }),
            json: { type: 'boolean', default: false, describe: 'one JSON object a line' },
          }),
      async (args) => {
        const { runReplay } = await import('./commands/replay.js');
        exitCode = await runReplay({
          file: args.transcript,
          ...(args.window !== undefined ? { window: args.window as number } : {}),
          ...(args.headroom !== undefined ? { headroom: args.headroom as number } : {}),
          json: args.json,
          out: (line) => process.stdout.write(line + '\n'),
        });
      },
    )
    .command(
      ...command('status'),
      (y) =>
        y.options({
          workbench: workbenchOption('the workbench folder (found as a run finds it)'),
          json: { type: 'boolean', default: false },
        }),
      async (args) => {
        const { runStatus } = await import('./commands/status.js');
        const { findWorkbench } = await import('./adapters/config-file.js');
        exitCode = await runStatus({ workbench: findWorkbench(process.cwd(), process.env, args.workbench as string | undefined), json: args.json, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      ...command('report'),
      (y) =>
        y.options({
          workbench: workbenchOption('the workbench folder (found as a run finds it)'),
          output: { alias: 'o', type: 'string', describe: 'the HTML file to write (default <workbench>/report.html)' },
          events: { type: 'string', describe: "the run's --events file (default: the workbench config's events key, if any)" },
          open: { type: 'boolean', default: false, describe: "open the page with the platform's opener (xdg-open / open)" },
          json: { type: 'boolean', default: false, describe: 'print the same data as one JSON document instead of writing the page' },
        }),
      async (args) => {
        const { runReport } = await import('./commands/report.js');
        exitCode = await runReport({
          ...(args.workbench !== undefined ? { workbench: args.workbench as string } : {}),
          cwd: process.cwd(),
          ...(args.output !== undefined ? { output: args.output } : {}),
          ...(args.events !== undefined ? { events: args.events } : {}),
          open: args.open,
          json: args.json,
          env: process.env,
          out: (line) => process.stdout.write(line + '\n'),
        });
      },
    )
    .command(
      ...command('ls'),
      (y) => y.options({ json: { type: 'boolean', default: false, describe: 'one JSON array of runs' } }),
      async (args) => {
        const { runLs } = await import('./commands/ls.js');
        exitCode = await runLs({ json: args.json, env: process.env, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      ...command('kill'),
      (y) =>
        y
          .positional('id', { type: 'string', describe: 'the run id (flower-pty ls)' })
          .options({ workbench: workbenchOption('the workbench whose run to end when no id is given (found as a run finds it)') }),
      async (args) => {
        const { runKill } = await import('./commands/kill.js');
        exitCode = await runKill({ id: args.id, workbench: args.workbench as string | undefined, cwd: process.cwd(), env: process.env, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      ...command('web'),
      (y) =>
        y.options({
          listen: { type: 'string', describe: `HOST:PORT to listen on (default 127.0.0.1:8740; anything but loopback needs --tls-cert/--tls-key or --behind-proxy)` },
          'allow-input': { type: 'boolean', default: false, describe: 'let pages type into claude, approve or deny permissions, edit the document in review, hand off, hold, end runs (default: read-only)' },
          detach: { type: 'boolean', alias: 'd', default: false, describe: 'run in the background: print the login URL, write a log, exit' },
          login: { type: 'boolean', default: false, describe: 'print a new login URL for the web face already running' },
          'tls-cert': { type: 'string', describe: 'serve https with this certificate (PEM)' },
          'tls-key': { type: 'string', describe: 'the key of --tls-cert (PEM)' },
          'behind-proxy': { type: 'boolean', default: false, describe: 'an SSH tunnel or tailscale serve protects a non-loopback --listen (it speaks https to the browser)' },
          'public-host': { type: 'string', array: true, describe: 'a host name the browser uses for this server through a proxy (tailscale serve: the machine name)' },
          'ready-pipe': { type: 'boolean', default: false, hidden: true },
        }),
      async (args) => {
        const { runWeb } = await import('./commands/web.js');
        exitCode = await runWeb({
          listen: args.listen,
          allowInput: args['allow-input'],
          detach: args.detach,
          login: args.login,
          tlsCert: args['tls-cert'],
          tlsKey: args['tls-key'],
          behindProxy: args['behind-proxy'],
          publicHost: (args['public-host'] ?? []).map(String),
          readyPipe: args['ready-pipe'],
          argv,
          env: process.env,
          out: (line) => process.stdout.write(line + '\n'),
          isTTY: Boolean(process.stdout.isTTY),
        });
      },
    )
    .command(
      ...command('demo'),
      (y) =>
        y.options({
          plain: yargsOption(optionRow('plain'), { help: 'claude full-screen with state in the terminal title (no split view)', default: false }),
          'keep-going': { type: 'boolean', default: false, describe: "don't end after the successor's first turn: quit claude yourself" },
          claude: { ...yargsOption(optionRow('claude')), defaultDescription: "$FLOWER_PTY_CLAUDE, else the repo's pinned one, else PATH" },
          review: yargsOption(optionRow('review'), { help: 'seconds the frozen document waits for your edit', default: DEMO_REVIEW_SECONDS }),
        }),
      async (args) => {
        const { runDemo } = await import('./commands/demo.js');
        exitCode = await runDemo({
          plain: args.plain as boolean,
          keepGoing: args['keep-going'],
          claude: args.claude as string | undefined,
          review: args.review as number,
          out: (line) => process.stdout.write(line + '\n'),
        });
      },
    )
    .command(
      ...command('trust'),
      (y) =>
        y.options({
          workbench: workbenchOption('the workbench whose config to trust (found as a run finds it)'),
          remove: { type: 'boolean', default: false, describe: 'stop trusting it' },
          list: { type: 'boolean', default: false, describe: 'list the trusted folders' },
        }),
      async (args) => {
        const { runTrust } = await import('./commands/trust.js');
        exitCode = await runTrust({ workbench: args.workbench as string | undefined, remove: args.remove, list: args.list, cwd: process.cwd(), env: process.env, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      ...command('doctor'),
      (y) => y.options({ claude: yargsOption(optionRow('claude')) }),
      async (args) => {
        const { runDoctor } = await import('./commands/doctor.js');
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
      throw new FlowerError(`${message} (see flower-pty --help)`, EXIT.usage);
    });
  await parser.parseAsync();
  return exitCode;
}
