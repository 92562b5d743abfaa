// `flower-pty attach` and the run server (`__serve`) have light entries of their own (src/cli/attach-main.ts,
// src/server/serve-command.ts): what the attach reads itself, what it leaves to the full command line,
// and that neither loads yargs or the run command; the attach loads no face, the server no blessed
// until it draws a split view.
import t from 'tap';
import { readFileSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseAttachArgs } from '../../src/cli/attach-main.js';
import { parseLsArgs } from '../../src/cli/ls-main.js';
import { FLOWER_BIN, REPO } from '../helpers/flower-run.js';
import { ownCommandHere } from '../../src/adapters/own-command-here.js';

t.test('the attach line it reads itself', async (t) => {
  // no --workbench: commands/attach.ts finds it as a run would (FLOWER_PTY_WORKBENCH, the config files, .flower)
  t.same(parseAttachArgs(['attach']), { id: undefined, plain: false, detachKey: undefined, workbench: undefined });
  t.same(parseAttachArgs(['attach', 'abc123', '--plain', '--detach-key', 'C-\\', '--workbench=w']), {
    id: 'abc123',
    plain: true,
    detachKey: 'C-\\',
    workbench: 'w',
  });
  t.same(parseAttachArgs(['attach', '--detach-key=C-b', 'x']), {
    id: 'x',
    plain: false,
    detachKey: 'C-b',
    workbench: undefined,
  });
});

t.test('anything else goes to the full command line', async (t) => {
  for (const argv of [
    [],
    ['ls'],
    ['attach', '--help'],
    ['attach', '-h'],
    ['attach', '--version'],
    ['attach', 'a', 'b'],
    ['attach', '--plain', '--plain'],
    ['attach', '--plain=false'],
    ['attach', '--no-plain'],
    ['attach', '--detach-key'],
    ['attach', '--workbench', '--plain'],
    ['attach', '--workbench='],
    ['attach', '--bogus'],
  ]) {
    t.equal(parseAttachArgs(argv), null, argv.join(' '));
  }
});

t.test('through the bin: a line it leaves to yargs is answered as before; one it reads finds no run', async (t) => {
  const runtime = mkdtempSync(join(tmpdir(), 'flower-attach-entry-'));
  t.teardown(() => rmSync(runtime, { recursive: true, force: true }));
  mkdirSync(join(runtime, 'run'), { mode: 0o700 });
  const env = { ...process.env, XDG_RUNTIME_DIR: join(runtime, 'run') };
  const bogus = spawnSync(process.execPath, [FLOWER_BIN, 'attach', '--bogus'], {
    encoding: 'utf8',
    env,
    cwd: runtime,
    timeout: 60_000,
  });
  t.equal(bogus.status, 2);
  t.equal(
    bogus.stderr,
    `flower-pty: unknown flag --bogus for flower-pty attach (see ${ownCommandHere(env, runtime)} attach --help)\n`,
  );
  const help = spawnSync(process.execPath, [FLOWER_BIN, 'attach', '--help'], {
    encoding: 'utf8',
    env,
    cwd: runtime,
    timeout: 60_000,
  });
  t.equal(help.status, 0);
  t.match(help.stdout, /--detach-key/);
  const none = spawnSync(process.execPath, [FLOWER_BIN, 'attach', '--plain'], {
    encoding: 'utf8',
    env,
    cwd: runtime,
    timeout: 60_000,
  });
  t.equal(none.status, 2);
  t.match(none.stderr, /^flower-pty: [^\n]+\n$/, 'one line');
  const badKey = spawnSync(process.execPath, [FLOWER_BIN, 'attach', '--plain', '--detach-key', 'x'], {
    encoding: 'utf8',
    env,
    cwd: runtime,
    timeout: 60_000,
  });
  t.equal(badKey.status, 2);
  t.match(badKey.stderr, /^flower-pty: --detach-key: [^\n]+\n$/);
});

// Static imports only: a dynamic import() is loaded when it runs (the faces, when the client draws). A
// CommonJS package is required (docs/libraries.md §3): any require of one counts as loaded, wherever it is.
const staticImport =
  /^(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]|^import\s+['"]([^'"]+)['"]|(?:\brequire|createRequire\(import\.meta\.url\))\(\s*['"]([^'"]+)['"]\s*\)/gm;

function loadedBy(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.startsWith('/')) continue; // a package or node:* module
    for (const m of readFileSync(file, 'utf8').matchAll(staticImport)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      todo.push(spec.startsWith('.') ? resolve(dirname(file), spec.replace(/\.js$/, '.ts')) : spec);
    }
  }
  return seen;
}

t.test('the attach loads no yargs, no blessed, no emulator, no run command', async (t) => {
  const src = join(REPO, 'src');
  const loaded = loadedBy([join(src, 'cli', 'attach-main.ts'), join(src, 'commands', 'attach.ts')]);
  t.ok(loaded.has(join(src, 'client', 'attach-client.ts')), 'the walk follows the imports');
  for (const heavy of [
    'yargs',
    'blessed',
    '@xterm/headless',
    'chokidar',
    '@lydell/node-pty',
    join(src, 'cli', 'main.ts'),
    join(src, 'commands', 'run.ts'),
    join(src, 'runtime', 'supervisor.ts'),
    join(src, 'core', 'document', 'handoff-prompts.ts'),
  ]) {
    t.notOk(loaded.has(heavy), `not ${heavy}`);
  }
  // the run listing is loaded only when the socket is not certain (several runs, or a dead one)
  t.notOk(loaded.has(join(src, 'server', 'run-registry.ts')), 'not the run listing');
  // builtins that cost an attach milliseconds to load, wanted only when it hashes, writes or edits
  for (const builtin of ['node:crypto', 'node:child_process']) t.notOk(loaded.has(builtin), `not ${builtin}`);
});

t.test('the ls line it reads itself, and what it leaves to the full command line', async (t) => {
  t.same(parseLsArgs(['ls']), { json: false, wireVersion: false, allHosts: false, hosts: [] });
  t.same(parseLsArgs(['ls', '--json', '--host', 'a', '--host=me@b', '--all-hosts', '--wire-version']), {
    json: true,
    wireVersion: true,
    allHosts: true,
    hosts: ['a', 'me@b'],
  });
  for (const argv of [
    ['attach'],
    ['ls', '--help'],
    ['ls', '--json', '--json'],
    ['ls', '--host'],
    ['ls', '--host', '-oProxyCommand=x'],
    ['ls', '--host='],
    ['ls', 'extra'],
    ['ls', '--json=true'],
  ]) {
    t.equal(parseLsArgs(argv), null, argv.join(' '));
  }
});

t.test('ls loads no yargs, no blessed, no run command', async (t) => {
  const src = join(REPO, 'src');
  const loaded = loadedBy([join(src, 'cli', 'ls-main.ts'), join(src, 'commands', 'ls.ts')]);
  t.ok(loaded.has(join(src, 'server', 'run-registry.ts')), 'the walk follows the imports');
  for (const heavy of [
    'yargs',
    'blessed',
    '@xterm/headless',
    join(src, 'cli', 'main.ts'),
    join(src, 'commands', 'run.ts'),
  ])
    t.notOk(loaded.has(heavy), `not ${heavy}`);
});

t.test(
  'the run server loads no yargs, no command line, no run command, no blessed until it draws a split view',
  async (t) => {
    const src = join(REPO, 'src');
    const loaded = loadedBy([join(src, 'server', 'serve-command.ts')]);
    t.ok(
      loaded.has(join(src, 'server', 'screen-model.ts')) && loaded.has('@xterm/headless'),
      'the walk follows the imports',
    );
    for (const heavy of [
      'yargs',
      'blessed',
      join(src, 'cli', 'main.ts'),
      join(src, 'commands', 'run.ts'),
      join(src, 'faces', 'split-face.ts'),
    ]) {
      t.notOk(loaded.has(heavy), `not ${heavy}`);
    }
  },
);

t.test("__serve through the bin: a line that is not `__serve <spec>` is the full command line's", async (t) => {
  const r = spawnSync(process.execPath, [FLOWER_BIN, '__serve'], { encoding: 'utf8', timeout: 60_000 });
  t.equal(r.status, 2);
  t.equal(
    r.stderr,
    `flower-pty: __serve: name its spec: ${ownCommandHere(process.env, process.cwd())} __serve <spec>\n`,
    'what to pass, in one line',
  );
});
