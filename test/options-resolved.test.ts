// Every run option goes through the one resolver: for each row of the options table, a value given by its
// flag (through the yargs options made from the row), by its FLOWER_PTY_* variable and by a config file
// comes out of resolveRunOptions under the row's camelCase name, in the precedence flag > variable > file >
// the table's default; and it reaches the run's settings (core/run/settings-from-options.ts) or the one
// consumer named here for it. A new row with no way to the run fails this test until it has one.
import t from 'tap';
import yargs from 'yargs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_OPTIONS, type OptionName, type OptionRow } from '../src/core/options/options-table.js';
import { camelName, resolveRunOptions } from '../src/core/options/resolve-options.js';
import { settingsFromOptions } from '../src/core/run/settings-from-options.js';
import { TUNABLES } from '../src/core/options/tunables.js';
import { runYargsOptions } from '../src/adapters/yargs-options.js';
import { configFromEnv, parseConfigText } from '../src/adapters/config-file.js';
import { runCommandOptions } from '../src/commands/run-options.js';
import { RUN_DIALECT } from '../src/claude-code/run-dialect.js';
import { REPO } from './helpers/flower-run.js';

const ROWS = RUN_OPTIONS as readonly OptionRow[];

// The options the run's settings do not hold, each with the file that reads its resolved value.
const CONSUMERS: Partial<Record<OptionName, string>> = {
  workbench: 'src/commands/run.ts',
  step: 'src/commands/run.ts',
  events: 'src/commands/run.ts',
  log: 'src/commands/run.ts',
  plain: 'src/commands/run.ts',
  continue: 'src/commands/run.ts',
  notify: 'src/commands/run.ts',
  'notify-command': 'src/runtime/supervisor.ts',
  claude: 'src/commands/run.ts',
  verbose: 'src/commands/run.ts',
  'detach-key': 'src/commands/run.ts',
  detach: 'src/commands/run.ts',
};

/** a value for the row that is not its default, as the parser returns it */
function sample(row: OptionRow, n: number): number | string | boolean {
  switch (row.type) {
    case 'tokens':
      return 100_000 + n * 1_000;
    case 'seconds':
    case 'count':
      return 2 + n;
    case 'share':
      return (n % 10) / 10 + 0.05;
    case 'string':
      return `value-${n}`;
    case 'boolean':
      return row.default !== true;
  }
}

function byFlag(row: OptionRow, value: number | string | boolean): Record<string, unknown> {
  const argv =
    typeof value === 'boolean' ? [value ? `--${row.name}` : `--no-${row.name}`] : [`--${row.name}`, String(value)];
  return yargs(argv)
    .options(runYargsOptions())
    .parserConfiguration({ 'boolean-negation': true })
    .strict()
    .parseSync() as Record<string, unknown>;
}

const FACTS = {
  step: 'work',
  cwd: '/p',
  workbench: null,
  documentPath: null,
  eventsPath: null,
  prompt: null,
  env: {},
  stopBlockCap: 8,
  dialect: RUN_DIALECT,
};

t.test(
  'every row, given by flag, by variable and by config file, is resolved under its name; the flag wins, then the variable',
  async (t) => {
    for (const row of ROWS) {
      const key = camelName(row.name) as keyof ReturnType<typeof resolveRunOptions>;
      const [flag, variable, file] = [sample(row, 1), sample(row, 2), sample(row, 3)];
      if (typeof flag === 'boolean') {
        // a switch has two values: each source gives the one that is not the default, so precedence is read below
        t.equal(resolveRunOptions(byFlag(row, flag), {})[key], flag, `--${row.name}: by flag`);
      } else {
        t.equal(resolveRunOptions(byFlag(row, flag), {})[key], flag, `--${row.name}: by flag`);
      }
      // FLOWER_PTY_CLAUDE is read where claude is resolved (its errors name it); checked below
      if (row.env !== undefined && row.name !== 'claude') {
        const env = { [row.env]: String(variable) };
        t.equal(resolveRunOptions({}, configFromEnv(env))[key], variable, `${row.env}: by variable`);
        if (typeof flag !== 'boolean')
          t.equal(
            resolveRunOptions(byFlag(row, flag), configFromEnv(env))[key],
            flag,
            `--${row.name} beats ${row.env}`,
          );
      }
      if (row.configKey !== undefined) {
        const cfg = parseConfigText(JSON.stringify({ [row.configKey]: file }), 'config.json');
        t.equal(resolveRunOptions({}, cfg)[key], file, `"${row.configKey}": by config file`);
        if (row.env !== undefined && row.name !== 'claude' && typeof file !== 'boolean') {
          // the variables and files arrive merged, the variable over the files (adapters/config-file.ts loadConfig)
          t.equal(
            resolveRunOptions({}, { ...cfg, ...configFromEnv({ [row.env]: String(variable) }) })[key],
            variable,
            `${row.env} beats "${row.configKey}"`,
          );
        }
      }
      const none = resolveRunOptions({}, {})[key];
      t.equal(
        none,
        row.later === undefined ? row.default : undefined,
        `--${row.name}: nothing given is ${row.later === undefined ? "the table's default" : `left to ${row.later.split(':')[0]}`}`,
      );
    }
  },
);

t.test('every row reaches the run: the settings hold it, or its consumer reads it', async (t) => {
  for (const [n, row] of ROWS.entries()) {
    const key = camelName(row.name);
    const value = sample(row, n);
    const resolved = resolveRunOptions(byFlag(row, value), {});
    const settings = settingsFromOptions(resolved, FACTS) as unknown as Record<string, unknown>;
    const policy = settings.policy as Record<string, unknown>;
    const consumer = CONSUMERS[row.name as OptionName];
    if (row.type === 'seconds')
      t.equal(settings[`${key}Ms`], (value as number) * 1000, `--${row.name} ${String(value)}: settings.${key}Ms`);
    else if (key in policy) t.equal(policy[key], value, `--${row.name}: settings.policy.${key}`);
    else if (consumer !== undefined)
      t.match(
        readFileSync(join(REPO, consumer), 'utf8'),
        new RegExp(`\\.${key}\\b`),
        `--${row.name}: ${consumer} reads .${key}`,
      );
    else t.equal(settings[key], value, `--${row.name}: settings.${key} (else name its consumer here)`);
  }
});

t.test("the settings' tunables are the tunables table's, and a test may change one", async (t) => {
  const settings = settingsFromOptions(resolveRunOptions({}, {}), FACTS);
  for (const [name, value] of Object.entries(TUNABLES))
    t.equal(settings[name as keyof typeof TUNABLES], value, `${name}: ${value}`);
  t.equal(settingsFromOptions(resolveRunOptions({}, {}), FACTS, { stopWaitMs: 5 }).stopWaitMs, 5);
  t.equal(settings.parkedRetryMs, 300_000, "--parked-retry's default, from the table, in ms");
});

t.test('FLOWER_PTY_CLAUDE beats the files: they are dropped, and claude is resolved from the variable', async (t) => {
  const cfg = parseConfigText(JSON.stringify({ claude: '/cfg/claude' }), 'config.json');
  t.equal(runCommandOptions({}, cfg, { FLOWER_PTY_CLAUDE: '/env/claude' }).claude, undefined);
  t.equal(runCommandOptions({}, cfg, {}).claude, '/cfg/claude');
  t.equal(
    runCommandOptions({ claude: '/flag/claude' }, cfg, { FLOWER_PTY_CLAUDE: '/env/claude' }).claude,
    '/flag/claude',
  );
});

t.test('no run option is defaulted outside the resolver', async (t) => {
  // the table's defaults were once re-applied where the options were passed on
  for (const file of [
    'src/commands/run.ts',
    'src/commands/run-options.ts',
    'src/runtime/supervisor.ts',
    'src/core/run/run-state.ts',
    'src/server/run-server.ts',
  ]) {
    const text = readFileSync(join(REPO, file), 'utf8');
    t.notMatch(
      text,
      /numberDefault\('(review|write-timeout|parked-retry)'\)|RUN_DEFAULTS|optionRow\([^)]*\)\.default/,
      `${file} applies no option default`,
    );
  }
});

// A flag given twice is read by yargs as a list: the last one is meant, as on most command lines. Given
// `--workbench x --no-workbench` a run keeps nothing on disk (it once resolved the list as a path and crashed).
t.test('a flag given more than once: the last one wins', async (t) => {
  const parse = (argv: string[]) =>
    yargs(argv).parserConfiguration({ 'boolean-negation': true }).options(runYargsOptions()).parseSync() as Record<
      string,
      unknown
    >;
  t.equal(
    resolveRunOptions(parse(['--workbench', '/x', '--no-workbench']), {}).workbench,
    false,
    'then --no-workbench: no workbench',
  );
  t.equal(
    resolveRunOptions(parse(['--no-workbench', '--workbench', '/y']), {}).workbench,
    '/y',
    'the other way round: the folder',
  );
  t.equal(resolveRunOptions(parse(['--review', '5', '--review', '9']), {}).review, 9, 'a number the same way');
  t.equal(resolveRunOptions(parse(['--step', 'a', '--step', 'b']), {}).step, 'b', 'and a string');
});
