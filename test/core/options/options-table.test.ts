// The options table is the one place a flag, its default, its variable and its config key are written:
// the README's flag table, its exit codes and its commands are held to the tables here, and the table's
// checks and merge are tried directly.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  RUN_OPTIONS,
  HOSTS_KEY,
  configRows,
  optionRow,
  shownDefault,
  type OptionRow,
} from '../../../src/core/options/options-table.js';
import { checkOption } from '../../../src/core/options/option-value.js';
import { EXIT, EXIT_CODES, exitCodesLine } from '../../../src/core/exit-code.js';
import { COMMANDS, COMPLETION_COMMAND } from '../../../src/core/options/command-table.js';
import { runCommandOptions } from '../../../src/commands/run-options.js';
import { REPO } from '../../helpers/flower-run.js';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const section = (heading: string): string => {
  const start = README.indexOf(`\n${heading}\n`);
  const next = README.indexOf(heading.startsWith('### ') ? '\n#' : '\n## ', start + heading.length + 2);
  return README.slice(start, next < 0 ? undefined : next);
};
const COMMANDS_SECTION = section('## Commands, flags and exit codes');

// The main run options' table: `| flag | meaning |` rows, each first cell naming one option (and its alias / --no- form).
function readmeFlagRows(): Array<{ flags: string[]; meaning: string }> {
  const table = /\| flag \| meaning \|\n\|---\|---\|\n((?:\|.*\|\n)+)/.exec(COMMANDS_SECTION);
  if (!table) return [];
  return table[1]!
    .trimEnd()
    .split('\n')
    .map((line) => {
      const [, first = '', meaning = ''] = /^\| (.*?) \| (.*) \|$/.exec(line) ?? [];
      return { flags: [...first.matchAll(/(?<![\w-])(--?[\w-]+)/g)].map((m) => m[1]!), meaning };
    });
}

// the table's row a README flag stands for: --name, --no-name, or -alias
function rowFor(flag: string): OptionRow | undefined {
  const rows = RUN_OPTIONS as readonly OptionRow[];
  if (/^-\w$/.test(flag)) return rows.find((r) => r.alias === flag.slice(1));
  const name = flag.slice(2);
  return (
    rows.find((r) => r.name === name) ??
    (name.startsWith('no-') ? rows.find((r) => r.name === name.slice(3)) : undefined)
  );
}

t.test("the README's flag table and the options table hold the same options with the same defaults", async (t) => {
  const rows = readmeFlagRows();
  t.ok(rows.length >= 15, `the README's flag table is found (${rows.length} rows)`);
  const documented = new Set<string>();
  for (const { flags, meaning } of rows) {
    const found = flags.map(rowFor);
    t.ok(
      flags.length > 0 && found.every((r) => r !== undefined),
      `README ${flags.join(' / ')}: every flag is in the options table`,
    );
    const row = found[0];
    if (row === undefined) continue;
    t.ok(
      found.every((r) => r === row),
      `README ${flags.join(' / ')}: one option per row`,
    );
    documented.add(row.name);
    // a default the table knows as a value is the one the README gives; a README default is the table's
    const shown = row.default !== undefined && typeof row.default !== 'boolean' ? shownDefault(row) : null;
    const readme = /\(default:? `?([^`;,)]+?)`?[;,)]/.exec(meaning)?.[1] ?? null;
    if (shown !== null) t.equal(readme, shown, `--${row.name}: the README's default is the table's`);
    else if (readme !== null && row.defaultText === undefined)
      t.fail(`--${row.name}: the README gives a default (${readme}) the table does not have`);
  }
  for (const row of RUN_OPTIONS) t.ok(documented.has(row.name), `--${row.name} has a row in the README's flag table`);
});

t.test("the README's exit codes are the table's, and --help's line is made from it", async (t) => {
  const paragraph = /\nExit codes: ([\s\S]*?)\n\n/.exec(COMMANDS_SECTION)?.[1] ?? '';
  const readme = [...paragraph.matchAll(/\*\*(\d+(?:\+n)?)\*\*/g)].map((m) => m[1]!);
  t.same(
    readme,
    [...EXIT_CODES.map((row) => String(row.code)), '128+n'],
    'every code, in order, and the codes of a signal',
  );
  for (const row of EXIT_CODES) t.match(exitCodesLine(), `${row.code} ${row.meaning}`, `the help says ${row.code}`);
  t.equal(EXIT.interrupted, 130, 'interrupted is 128 + SIGINT');
  t.equal(new Set(EXIT_CODES.map((row) => row.code)).size, EXIT_CODES.length, 'no code is used twice');
});

t.test('the README names every command of the command table, and no other', async (t) => {
  const named = new Set([...COMMANDS_SECTION.matchAll(/`flower-pty ([a-z][\w-]*)/g)].map((m) => m[1]!));
  for (const row of COMMANDS) {
    if (row.summary === false || row.name === '$0') continue;
    t.ok(named.has(row.name), `the README documents flower-pty ${row.name}`);
  }
  // yargs' own completion command is a command too (core/options/command-table.ts COMPLETION_COMMAND)
  const known = new Set<string>([...COMMANDS.map((c) => c.name), COMPLETION_COMMAND.name]);
  t.same(
    [...named].filter((word) => !known.has(word)),
    [],
    'every `flower-pty <word>` there is a command',
  );
});

t.test('a value is checked by its row, the same for every source', async (t) => {
  const cases: Array<[string, unknown, { value: unknown } | RegExp]> = [
    ['window', '200k', { value: 200_000 }],
    ['window', 200_000, { value: 200_000 }],
    ['window', 'lots', /^expects a token count like 200000 or 200k, got "lots"$/],
    ['window', true, /^expects a token count/],
    ['review', '0', { value: 0 }],
    ['review', -1, /^expects a number of seconds \(0 or more\), got -1$/],
    ['review', '1e308', /^expects a number of seconds from 0 to 86400 \(a day at most\)/],
    ['write-timeout', 0, /at least 1: the session needs time to write its document/],
    ['max-generations', '3', { value: 3 }],
    ['max-generations', 1.5, /^expects a whole number of at least 1, got 1\.5$/],
    ['max-generations', 1001, /^1001 is past the ceiling of 1000: a brake that high never stops a runaway/],
    ['plain', 'yes', { value: true }],
    ['plain', 'OFF', { value: false }],
    ['plain', 'maybe', /^expects true or false, got "maybe"$/],
    ['step', ' ', /^expects a non-empty string/],
  ];
  for (const [name, raw, expected] of cases) {
    const got = checkOption(optionRow(name as never), raw);
    if (expected instanceof RegExp)
      t.match(
        'problem' in got ? got.problem : `accepted ${JSON.stringify(got)}`,
        expected,
        `${name} ${JSON.stringify(raw)}`,
      );
    else t.same(got, expected, `${name} ${JSON.stringify(raw)}`);
  }
});

t.test('every config key is a flag of its own name with a FLOWER_PTY_ variable', async (t) => {
  for (const row of configRows()) {
    t.equal(row.configKey, row.name, `${row.name}: the key is the flag's name`);
    t.equal(row.env, `FLOWER_PTY_${row.name.toUpperCase().replace(/-/g, '_')}`, `${row.name}: its variable`);
  }
});

t.test(
  'the merge: a flag beats the files and variables, which beat the table; some defaults are decided later',
  async (t) => {
    const none = runCommandOptions({}, {}, {});
    t.equal(none.review, 10, 'review: the table default');
    t.equal(none.writeTimeout, 300);
    t.equal(none.parkedRetry, 300);
    t.equal(none.notify, true, 'notify is on unless asked');
    t.equal(none.plain, false);
    t.equal(none.handoff, true);
    t.equal(
      none.headroom,
      undefined,
      "the headroom is core/run/policy.ts's to default (an explicit one is checked against the window)",
    );
    t.equal(none.step, undefined, "the step: the lineage's own on --continue");
    t.equal(none.workbench, '.flower', 'the workbench: the table default');
    t.equal(none.notifyCommand, undefined, 'no notify command unless given');
    const cfg = runCommandOptions({}, { review: 30, plain: true, notify: false, headroom: 40_000 }, {});
    t.same(
      [cfg.review, cfg.plain, cfg.notify, cfg.headroom],
      [30, true, false, 40_000],
      'the config fills what no flag gives',
    );
    const flag = runCommandOptions(
      { review: 5, plain: false, notify: true, prompt: 'go', '--': ['--model', 4] },
      { review: 30, plain: true, notify: false },
      {},
    );
    t.same(
      [flag.review, flag.plain, flag.notify, flag.prompt, flag.claudeArgs],
      [5, false, true, 'go', ['--model', '4']],
      'a flag wins',
    );
    t.equal(
      runCommandOptions({}, { claude: '/cfg/claude' }, { FLOWER_PTY_CLAUDE: '/env/claude' }).claude,
      undefined,
      'FLOWER_PTY_CLAUDE beats the file (read where claude is resolved)',
    );
    t.equal(runCommandOptions({}, { claude: '/cfg/claude' }, {}).claude, '/cfg/claude');
  },
);

t.test("the README's config keys and variables are the table's", async (t) => {
  const config = section('### Configuration file and environment');
  const keys = /Known keys: ([\s\S]*?)\. Variables:/.exec(config)?.[1] ?? '';
  t.same(
    [...keys.matchAll(/`([\w-]+)`/g)].map((m) => m[1]),
    [...configRows().map((row) => row.configKey), HOSTS_KEY],
    'the known keys, in order (the user-only hosts list last)',
  );
  const variables = /Variables: ([\s\S]*?), and `FLOWER_PTY_NO_NATIVE/.exec(config)?.[1] ?? '';
  t.same(
    [...variables.matchAll(/`(FLOWER_PTY_\w+)`/g)].map((m) => m[1]),
    configRows().map((row) => row.env),
    'the variables, in order',
  );
});

t.test("each subcommand's flags are its table's rows: --help lists each, cli/main.ts writes none inline", async (t) => {
  const { COMMAND_FLAGS } = await import('../../../src/core/options/command-flags.js');
  const { spawnSync } = await import('node:child_process');
  const { FLOWER_BIN } = await import('../../helpers/flower-run.js');
  for (const [command, flags] of Object.entries(COMMAND_FLAGS)) {
    const help = spawnSync(process.execPath, [FLOWER_BIN, command, '--help'], {
      encoding: 'utf8',
      env: { ...process.env, COLUMNS: '200' },
    }).stdout;
    for (const flag of flags!) {
      const name = 'from' in flag ? flag.from : flag.name;
      const hidden = 'hidden' in flag && flag.hidden === true;
      t.equal(help.includes(`--${name} `), !hidden, `${command} --help ${hidden ? 'hides' : 'lists'} --${name}`);
      if ('from' in flag) t.ok(optionRow(flag.from), `${command}'s --${name} borrows the run's row`);
    }
  }
  const cli = readFileSync(join(REPO, 'src', 'cli', 'main.ts'), 'utf8');
  t.notMatch(cli, /\.options\(\{/, 'no option object is written in cli/main.ts');
  const web = spawnSync(process.execPath, [FLOWER_BIN, 'web', '--help'], {
    encoding: 'utf8',
    env: { ...process.env, COLUMNS: '200' },
  }).stdout;
  const { DEFAULT_WEB_PORT } = await import('../../../src/core/web/web-listen.js');
  t.match(web, `127.0.0.1:${DEFAULT_WEB_PORT}`, "the web face's default address comes from where it is decided");
});
