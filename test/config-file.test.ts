// Config from files and FLOWER_PTY_* variables: precedence (flags > env > project > user), every
// kind of bad input as one line naming the source, and the built cli applying it (-v) and refusing it (exit 2).
import t from 'tap';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  findWorkbench,
  loadConfig,
  parseConfigText,
  configFromEnv,
  userConfigPath,
  readConfigFile,
} from '../src/adapters/config-file.js';
import { FlowerError } from '../src/core/errors.js';
import { FLOWER_BIN } from './helpers/flower-run.js';
import { tempRoot } from './helpers/temp-root.js';

function setup(project: unknown, user: unknown): { cwd: string; env: Record<string, string> } {
  const root = tempRoot(t, 'flower-config-');
  const cwd = join(root, 'proj');
  mkdirSync(join(cwd, '.flower'), { recursive: true });
  mkdirSync(join(root, 'xdg', 'flower-pty'), { recursive: true });
  if (project !== undefined)
    writeFileSync(join(cwd, '.flower', 'config.json'), typeof project === 'string' ? project : JSON.stringify(project));
  if (user !== undefined)
    writeFileSync(
      join(root, 'xdg', 'flower-pty', 'config.json'),
      typeof user === 'string' ? user : JSON.stringify(user),
    );
  return { cwd, env: { XDG_CONFIG_HOME: join(root, 'xdg'), HOME: join(root, 'home') } };
}

t.test('precedence: env over project over user; missing files are no configuration', async (t) => {
  const { cwd, env } = setup(
    { window: '300k', step: 'proj' },
    { window: 100000, headroom: '20k', step: 'user', review: 3 },
  );
  t.same(loadConfig({ cwd, env }).values, { window: 300_000, headroom: 20_000, step: 'proj', review: 3 });
  t.same(loadConfig({ cwd, env: { ...env, FLOWER_PTY_WINDOW: '400k', FLOWER_PTY_REVIEW: '0' } }).values, {
    window: 400_000,
    headroom: 20_000,
    step: 'proj',
    review: 0,
  });
  const none = setup(undefined, undefined);
  t.same(loadConfig(none).values, {});
  t.same(
    loadConfig({ ...none, env: { ...none.env, FLOWER_PTY_CLAUDE: '/x/claude' } }).values,
    {},
    'FLOWER_PTY_CLAUDE is left to the claude resolver',
  );
});

t.test(
  'the project file follows --workbench, FLOWER_PTY_WORKBENCH and the user file; --no-workbench reads none',
  async (t) => {
    const { cwd, env } = setup({ step: 'dot-flower' }, undefined);
    mkdirSync(join(cwd, 'wb'));
    writeFileSync(join(cwd, 'wb', 'config.json'), JSON.stringify({ step: 'wb' }));
    t.equal(loadConfig({ cwd, env, workbenchFlag: 'wb' }).values.step, 'wb');
    t.equal(loadConfig({ cwd, env: { ...env, FLOWER_PTY_WORKBENCH: 'wb' } }).values.step, 'wb');
    t.equal(loadConfig({ cwd, env }).values.step, 'dot-flower');
    t.equal(loadConfig({ cwd, env, workbenchFlag: false }).values.step, undefined);
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'flower-pty', 'config.json'), JSON.stringify({ workbench: 'wb' }));
    t.equal(loadConfig({ cwd, env }).values.step, 'wb', "the user's workbench moves the project file");
  },
);

t.test('user config path: XDG_CONFIG_HOME, else ~/.config', async (t) => {
  t.equal(userConfigPath({ XDG_CONFIG_HOME: '/x' }), '/x/flower-pty/config.json');
  t.equal(userConfigPath({ HOME: '/h' }), '/h/.config/flower-pty/config.json');
});

t.test('bad input: one line naming the source and the problem, exit code 2, never another error', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['{"window": ', /^cfg: not valid JSON/],
    ['[1,2]', /^cfg: expected a JSON object/],
    ['null', /^cfg: expected a JSON object/],
    ['{"windw": 1}', /^cfg: unknown key "windw" \(known: window,/],
    ['{"window": "abc"}', /^cfg: "window" expects a token count/],
    ['{"window": true}', /^cfg: "window" expects a token count/],
    ['{"review": -1}', /^cfg: "review" expects a number of seconds/],
    ['{"max-generations": 1.5}', /^cfg: "max-generations" expects a whole number/],
    ['{"step": ""}', /^cfg: "step" expects a non-empty string/],
    ['{"plain": "maybe"}', /^cfg: "plain" expects true or false/],
    ['{"__proto__": 1}', /^cfg: unknown key "__proto__"/],
  ];
  for (const [text, message] of cases) {
    try {
      parseConfigText(text, 'cfg');
      t.fail(`accepted ${text}`);
    } catch (error) {
      t.ok(error instanceof FlowerError, `${text}: a FlowerError`);
      t.match((error as FlowerError).message, message, text);
      t.notMatch((error as FlowerError).message, /\n/, 'one line');
      t.equal((error as FlowerError).exitCode, 2);
    }
  }
  t.same(parseConfigText('{"plain": "yes", "notify": false, "window": "1m"}', 'cfg'), {
    plain: true,
    notify: false,
    window: 1_000_000,
  });
  t.throws(() => configFromEnv({ FLOWER_PTY_HEADROOM: 'lots' }), /^FLOWER_PTY_HEADROOM expects a token count/);
  // a variable-only switch is checked with the rest: a bad word stops the command, not the run server later
  t.throws(
    () => configFromEnv({ FLOWER_PTY_NO_NATIVE: 'maybe' }),
    /^FLOWER_PTY_NO_NATIVE expects true or false, got "maybe"/,
  );
  t.same(configFromEnv({ FLOWER_PTY_NO_NATIVE: '1' }), {}, 'not a config value: the run server reads it');
  // The notify command is kept byte for byte: it is run by /bin/sh exactly as the person wrote it.
  const command = `notify-send flower-pty "$FLOWER_PTY_MESSAGE"`;
  t.same(parseConfigText(JSON.stringify({ 'notify-command': command }), 'cfg'), { 'notify-command': command });
  t.same(configFromEnv({ FLOWER_PTY_NOTIFY_COMMAND: command }), { 'notify-command': command });
  t.throws(() => parseConfigText('{"notify-command": ""}', 'cfg'), /^cfg: "notify-command" expects a non-empty string/);
  const dir = tempRoot(t, 'flower-config-dir-');
  t.throws(() => readConfigFile(dir), /is a folder, not a config file/);
});

function cli(args: string[], cwd: string, env: Record<string, string>) {
  const r = spawnSync(process.execPath, [FLOWER_BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    input: '',
  });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

t.test(
  'the built cli: flags > env > project > user in -v, and a bad file stops it before anything starts',
  async (t) => {
    const { cwd, env } = setup({ window: '300k', step: 'proj' }, { window: '100k', headroom: '20k' });
    const base = ['-v', '--plain', '--no-notify', '--claude', '/bin/true'];
    let r = cli(base, cwd, env);
    t.match(r.stderr, /window 300\.0K .* handoff at 280\.0K/, 'project window, user headroom');
    t.match(r.stderr, /step proj/);
    r = cli(base, cwd, { ...env, FLOWER_PTY_WINDOW: '400k', FLOWER_PTY_STEP: 'env' });
    t.match(r.stderr, /window 400\.0K .* handoff at 380\.0K/, 'env over project');
    t.match(r.stderr, /step env/);
    r = cli([...base, '--window', '500k', '--step', 'flag'], cwd, {
      ...env,
      FLOWER_PTY_WINDOW: '400k',
      FLOWER_PTY_STEP: 'env',
    });
    t.match(r.stderr, /window 500\.0K .* handoff at 480\.0K/, 'flag over env');
    t.match(r.stderr, /step flag/);
    t.notMatch(r.stdout + r.stderr, /\u001b/, 'stdout is not a terminal: no escapes at all');

    writeFileSync(join(cwd, '.flower', 'config.json'), '{"window": 200000, "colour": "red"}');
    r = cli(base, cwd, env);
    t.equal(r.code, 2);
    t.equal(
      r.stderr.trim(),
      `flower-pty: ${join(cwd, '.flower', 'config.json')}: unknown key "colour" (known: window, headroom, max-generations, workbench, step, review, write-timeout, coverage-check, parked-retry, events, log, plain, notify, notify-command, claude, hosts)`,
    );
    t.notMatch(r.stderr, /lineage in/, 'nothing started');
    r = cli(base, cwd, { ...env, FLOWER_PTY_REVIEW: 'soon' });
    t.equal(r.code, 2, 'a bad variable is refused before the files are read');
    t.match(r.stderr, /^flower-pty: FLOWER_PTY_REVIEW expects a number of seconds \(0 or more\), got "soon"\n$/);
    // nested deeper than any stack: one line, exit 2 (it printed a RangeError's stack and exited 1)
    const deep = 100_000;
    for (const nested of ['['.repeat(deep) + ']'.repeat(deep), '{"a":'.repeat(deep) + '1' + '}'.repeat(deep)]) {
      writeFileSync(join(cwd, '.flower', 'config.json'), `{"window": ${nested}}`);
      r = cli(base, cwd, env);
      t.equal(r.code, 2, 'a deeply nested value: the usage code');
      t.match(
        r.stderr,
        /^flower-pty: .*config\.json: "window" expects a token count like 200000 or 200k, got (a list|an object)\n$/,
        'in one line',
      );
    }
    // a config file that is a device, a FIFO or too big is not read without end
    rmSync(join(cwd, '.flower', 'config.json'));
    symlinkSync('/dev/zero', join(cwd, '.flower', 'config.json'));
    r = cli(base, cwd, env);
    t.equal(r.code, 2);
    t.match(r.stderr, /^flower-pty: .*config\.json: not a regular file; make it a small JSON file, or remove it\n$/);
    rmSync(join(cwd, '.flower', 'config.json'));
    writeFileSync(join(cwd, '.flower', 'config.json'), `{"step": "x", "pad": "${'x'.repeat(2 * 1024 * 1024)}"}`);
    r = cli(base, cwd, env);
    t.equal(r.code, 2);
    t.match(
      r.stderr,
      /^flower-pty: .*config\.json: \d+ bytes, more than the 1048576 a file of this kind can be; make it a small JSON file, or remove it\n$/,
    );
  },
);

t.test(
  'one way to find the workbench, for attach, status, kill and trust: the flag, the variable, the config files, else .flower',
  async (t) => {
    const cwd = tempRoot(t, 'flower-find-wb-');
    const xdg = join(cwd, 'xdg');
    const env = { XDG_CONFIG_HOME: xdg, HOME: cwd };
    t.equal(findWorkbench(cwd, env), join(cwd, '.flower'), 'nothing named: .flower');
    t.equal(findWorkbench(cwd, env, 'given'), join(cwd, 'given'), 'the flag');
    t.equal(findWorkbench(cwd, { ...env, FLOWER_PTY_WORKBENCH: 'from-env' }), join(cwd, 'from-env'), 'the variable');
    t.equal(
      findWorkbench(cwd, { ...env, FLOWER_PTY_WORKBENCH: '' }),
      join(cwd, '.flower'),
      'an empty variable is not set',
    );
    mkdirSync(join(xdg, 'flower-pty'), { recursive: true });
    writeFileSync(join(xdg, 'flower-pty', 'config.json'), JSON.stringify({ workbench: 'from-user' }));
    t.equal(findWorkbench(cwd, env), join(cwd, 'from-user'), "the user's config file");
    t.equal(
      findWorkbench(cwd, { ...env, FLOWER_PTY_WORKBENCH: 'from-env' }),
      join(cwd, 'from-env'),
      'the variable beats the file',
    );
    t.equal(findWorkbench(cwd, env, 'given'), join(cwd, 'given'), 'the flag beats both');
    t.throws(
      () => findWorkbench(cwd, env, ' '),
      /--workbench needs a folder, got an empty value/,
      'an empty flag is refused in one line',
    );
  },
);
