// argv in, exit code out. Parses and validates flags with yargs, hands a run to its command,
// and maps every error to one line and a documented exit code (see errors.ts).

import yargs, { type Argv } from 'yargs';
import { readFileSync } from 'node:fs';
import { EXIT, FlowerError, reportFatal } from './errors.js';
import { parseTokenCount } from './core/policy.js';
import { checkSeconds, type SecondsSetting } from './core/seconds-value.js';

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

// A token count flag: "200k", "1m", "200000"; anything else is refused with the fix.
function tokens(flag: string) {
  return (value: unknown): number | undefined => (value === undefined ? undefined : parseTokenCount(flag, value));
}

function seconds(flag: SecondsSetting) {
  return (value: unknown): number | undefined => {
    if (value === undefined) return undefined;
    const checked = checkSeconds(flag, String(value));
    if ('problem' in checked) throw new FlowerError(`--${flag} ${checked.problem}`);
    return checked.value;
  };
}

function runOptions(y: Argv) {
  return y
    .positional('prompt', { type: 'string', describe: 'the task for the first session (later sessions start from the handoff document)' })
    .options({
      claude: { type: 'string', describe: 'path to the claude binary (else $FLOWER_PTY_CLAUDE, else PATH)' },
      window: { type: 'string', coerce: tokens('window'), describe: "the model's context window (default: what Claude Code reports, else from the model name)" },
      headroom: { type: 'string', coerce: tokens('headroom'), describe: 'tokens left free above the handoff line (default 50k)' },
      'max-generations': { type: 'number', describe: 'the runaway brake (default 8)' },
      workbench: { type: 'string', describe: 'folder for the documents and the manifest (default .flower); --no-workbench keeps nothing on disk' },
      step: { type: 'string', describe: 'the step name used in the document file name (default work)' },
      review: { type: 'string', coerce: seconds('review'), describe: 'seconds a frozen document waits for a person before the successor starts (default 10, 0 = none)' },
      'write-timeout': { type: 'string', coerce: seconds('write-timeout'), describe: 'seconds the session has to write its document before a degraded one is used (default 300)' },
      'parked-retry': { type: 'string', coerce: seconds('parked-retry'), describe: "seconds an API-key session parked on a rate limit waits before flower-pty types `continue` once (subscriptions continue by themselves; default 300)" },
      events: { type: 'string', describe: 'append one JSON object a line per event to this file' },
      log: { type: 'string', describe: 'write diagnostic lines to this file' },
      plain: { type: 'boolean', describe: 'claude full-screen with state in the terminal title (no split view; also when stdout is not a terminal)' },
      handoff: { type: 'boolean', default: true, describe: 'hand off instead of auto-compact; --no-handoff runs claude unchanged' },
      'keep-auto-compact': { type: 'boolean', default: false, describe: "keep Claude Code's auto-compact as a backstop (defeats the handoff: not recommended)" },
      continue: { type: 'boolean', default: false, describe: 'resume a lineage: a new session seeded with the newest frozen document' },
      notify: { type: 'boolean', describe: 'bell and desktop notification on handoff, degraded handoff, brake and exit' },
      'notify-command': { type: 'string', describe: 'run this shell command for each event that needs a person (the event in $FLOWER_PTY_EVENT, $FLOWER_PTY_MESSAGE)' },
      verbose: { type: 'boolean', alias: 'v', default: false, describe: 'print the endpoint, model, window, thresholds and the masked token, then start' },
      'detach-key': { type: 'string', describe: 'with --plain: a control key (e.g. C-\\) that detaches when pressed alone; the split view detaches with C-] d' },
      detach: { type: 'boolean', alias: 'd', default: false, describe: 'start the run with no terminal: print its id and how to attach or open it, and exit' },
    });
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
    process.exitCode = reportFatal(error);
  }
}

export async function run(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const parser = yargs(argv)
    .scriptName('flower-pty')
    .usage('$0 [options] [prompt] [-- <claude args>]\n\nRuns the interactive Claude Code CLI and, before its context window fills, has the session write a\nhandoff document, freezes it to disk where you can edit it, and starts a fresh session from it.')
    .parserConfiguration({ 'populate--': true, 'boolean-negation': true })
    .command('$0 [prompt]', 'run claude under supervision (the default)', runOptions, async (args) => {
      const { runCommand } = await import('./commands/run.js');
      // Flags win over FLOWER_PTY_* variables, which win over <workbench>/config.json, then the user's file.
      const { loadConfig } = await import('./adapters/config-file.js');
      const given = args.workbench as string | boolean | undefined;
      const loaded = loadConfig({ cwd: process.cwd(), env: process.env, refuseLinkedWorkbench: true, ...(given === false || typeof given === 'string' ? { workbenchFlag: given } : {}) });
      for (const note of loaded.notes) process.stderr.write(`flower-pty: ${note}\n`);
      const cfg = loaded.values;
      exitCode = await runCommand({
        prompt: args.prompt ?? null,
        claudeArgs: ((args['--'] ?? []) as Array<string | number>).map(String),
        claude: args.claude ?? (process.env.FLOWER_PTY_CLAUDE ? undefined : cfg.claude),
        window: args.window ?? cfg.window,
        headroom: args.headroom ?? cfg.headroom,
        maxGenerations: args['max-generations'] ?? cfg['max-generations'],
        workbench: given ?? cfg.workbench,
        step: args.step ?? cfg.step,
        review: args.review ?? cfg.review,
        writeTimeout: args['write-timeout'] ?? cfg['write-timeout'],
        parkedRetry: args['parked-retry'] ?? cfg['parked-retry'],
        events: args.events ?? cfg.events,
        log: args.log ?? cfg.log,
        plain: args.plain ?? cfg.plain ?? false,
        handoff: args.handoff,
        keepAutoCompact: args['keep-auto-compact'],
        continue: args.continue,
        notify: args.notify ?? cfg.notify ?? true,
        notifyCommand: args['notify-command'] ?? cfg['notify-command'] ?? null,
        verbose: args.verbose,
        ...(args['detach-key'] !== undefined ? { detachKey: args['detach-key'] } : {}),
        ...(args.detach ? { detach: true } : {}),
      });
    })
    .command(
      'attach [id]',
      'attach this terminal to a live run (no id: the run of this folder, else the only one); over ssh: ssh host -t flower-pty attach',
      (y) =>
        y
          .positional('id', { type: 'string', describe: 'the run id (flower-pty ls)' })
          .options({
            plain: { type: 'boolean', default: false, describe: 'claude full-screen with state in the terminal title (no split view)' },
            'detach-key': { type: 'string', describe: 'with --plain: a control key (e.g. C-\\) that detaches when pressed alone' },
            workbench: { type: 'string', default: process.env.FLOWER_PTY_WORKBENCH || '.flower', describe: "the workbench whose run to attach to when no id is given (default $FLOWER_PTY_WORKBENCH, else .flower)" },
          }),
      async (args) => {
        const { runAttach } = await import('./commands/attach.js');
        exitCode = await runAttach({ id: args.id, plain: args.plain, detachKey: args['detach-key'], workbench: args.workbench });
      },
    )
    .command(
      '__serve <spec>',
      false, // hidden: a client starts the run server with it
      (y) => y.positional('spec', { type: 'string', demandOption: true }),
      async (args) => {
        const { runServe } = await import('./server/serve-command.js');
        await runServe(args.spec);
      },
    )
    .command(
      'replay <transcript>',
      'dry run: what flower-pty would have done on a recorded transcript',
      (y) =>
        y
          .positional('transcript', { type: 'string', demandOption: true, describe: 'a Claude Code transcript (.jsonl)' })
          .options({
            window: { type: 'string', coerce: tokens('window'), describe: 'context window (default: from the model name in the transcript)' },
            headroom: { type: 'string', coerce: tokens('headroom'), describe: 'headroom (default 50k)' },
            json: { type: 'boolean', default: false, describe: 'one JSON object a line' },
          }),
      async (args) => {
        const { runReplay } = await import('./commands/replay.js');
        exitCode = await runReplay({
          file: args.transcript,
          ...(args.window !== undefined ? { window: args.window } : {}),
          ...(args.headroom !== undefined ? { headroom: args.headroom } : {}),
          json: args.json,
          out: (line) => process.stdout.write(line + '\n'),
        });
      },
    )
    .command(
      'status',
      'print the lineage recorded in the workbench manifest',
      (y) =>
        y.options({
          // the same folder a run would use when FLOWER_PTY_WORKBENCH names one
          workbench: { type: 'string', default: process.env.FLOWER_PTY_WORKBENCH || '.flower', describe: 'the workbench folder (default $FLOWER_PTY_WORKBENCH, else .flower)' },
          json: { type: 'boolean', default: false },
        }),
      async (args) => {
        const { runStatus } = await import('./commands/status.js');
        exitCode = await runStatus({ workbench: args.workbench, json: args.json, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      'report',
      'write the lineage as one self-contained HTML page: context curves, timeline, documents, edits, cost',
      (y) =>
        y.options({
          workbench: { type: 'string', describe: 'the workbench folder (found as a run finds it: $FLOWER_PTY_WORKBENCH, your config, else .flower)' },
          output: { alias: 'o', type: 'string', describe: 'the HTML file to write (default <workbench>/report.html)' },
          events: { type: 'string', describe: "the run's --events file (default: the workbench config's events key, if any)" },
          open: { type: 'boolean', default: false, describe: "open the page with the platform's opener (xdg-open / open)" },
          json: { type: 'boolean', default: false, describe: 'print the same data as one JSON document instead of writing the page' },
        }),
      async (args) => {
        const { runReport } = await import('./commands/report.js');
        exitCode = await runReport({
          ...(args.workbench !== undefined ? { workbench: args.workbench } : {}),
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
      'ls',
      "list this user's live runs on this machine (a run whose server is gone is not listed; its socket is removed)",
      (y) => y.options({ json: { type: 'boolean', default: false, describe: 'one JSON array of runs' } }),
      async (args) => {
        const { runLs } = await import('./commands/ls.js');
        exitCode = await runLs({ json: args.json, env: process.env, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      'kill [id]',
      'end a live run cleanly (no id: the run of this folder, else the only one); flower-pty --continue picks the lineage up later',
      (y) =>
        y
          .positional('id', { type: 'string', describe: 'the run id (flower-pty ls)' })
          .options({ workbench: { type: 'string', describe: "the workbench whose run to end when no id is given (default: the one a run here would use)" } }),
      async (args) => {
        const { runKill } = await import('./commands/kill.js');
        exitCode = await runKill({ id: args.id, workbench: args.workbench, cwd: process.cwd(), env: process.env, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      'web',
      "every live run of yours in a browser: a dashboard, each run's terminal, its document, approvals (prints a login URL)",
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
      'demo',
      'watch a whole handoff cycle in about a minute: the real claude against a built-in scripted model on 127.0.0.1 (no account, no network, a throwaway folder)',
      (y) =>
        y.options({
          plain: { type: 'boolean', default: false, describe: 'claude full-screen with state in the terminal title (no split view)' },
          'keep-going': { type: 'boolean', default: false, describe: "don't end after the successor's first turn: quit claude yourself" },
          claude: { type: 'string', describe: "path to the claude binary (else $FLOWER_PTY_CLAUDE, else the repo's pinned one, else PATH)" },
          review: { type: 'string', coerce: seconds('review'), describe: 'seconds the frozen document waits for your edit (default 8)' },
        }),
      async (args) => {
        const { runDemo } = await import('./commands/demo.js');
        exitCode = await runDemo({
          plain: args.plain,
          keepGoing: args['keep-going'],
          claude: args.claude,
          review: args.review ?? 8,
          out: (line) => process.stdout.write(line + '\n'),
        });
      },
    )
    .command(
      'trust',
      "let this folder's own config (.flower/config.json) run programs and write outside the project: its claude, notify-command, events, log, workbench (as it is now; a changed file needs trusting again)",
      (y) =>
        y.options({
          workbench: { type: 'string', describe: 'the workbench whose config to trust (default $FLOWER_PTY_WORKBENCH, else .flower)' },
          remove: { type: 'boolean', default: false, describe: 'stop trusting it' },
          list: { type: 'boolean', default: false, describe: 'list the trusted folders' },
        }),
      async (args) => {
        const { runTrust } = await import('./commands/trust.js');
        exitCode = await runTrust({ workbench: args.workbench, remove: args.remove, list: args.list, cwd: process.cwd(), env: process.env, out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .command(
      'doctor',
      'check in one screen whether claude, its login, its config folder, hooks and transcript writing will work with flower-pty (never calls the API)',
      (y) => y.options({ claude: { type: 'string', describe: 'path to the claude binary (else $FLOWER_PTY_CLAUDE, else PATH)' } }),
      async (args) => {
        const { runDoctor } = await import('./commands/doctor.js');
        exitCode = await runDoctor({ claude: args.claude, env: process.env, cwd: process.cwd(), out: (line) => process.stdout.write(line + '\n') });
      },
    )
    .example(EXAMPLES)
    .epilog(
      'Exit codes: 0 done · 1 internal error · 2 bad usage · 3 runaway brake · 4 claude kept crashing · 5 claude not found or too old · 6 doctor found a problem · 7 kill: the run did not end · 8 a file could not be written (a full disk) · 9 the run server died without a word (killed) · 130 interrupted.\n' +
        'Split view keys: the prefix C-] (change with FLOWER_PTY_PREFIX), then Tab focus · j/k/PgUp/PgDn scroll the document · e edit it in $EDITOR · h hand off now · p hold/release the successor · z hide/show the document · d detach · q quit · ? help · C-] C-] sends C-].\n' +
        'Files: <workbench>/notes/交接-<step>.md (the current document, edit it freely), <workbench>/notes/archive/交接/ (earlier ones), <workbench>/manifest.json.\n' +
        'Config: flags win over FLOWER_PTY_* variables (FLOWER_PTY_WINDOW, _HEADROOM, _REVIEW, _STEP, _WORKBENCH, ...), then <workbench>/config.json, then $XDG_CONFIG_HOME/flower-pty/config.json.',
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
