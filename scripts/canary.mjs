#!/usr/bin/env node
// The version canary: `npm run canary -- 2.1.78 2.1.200 latest`. Installs each Claude Code release from
// the npm registry into a cache folder, runs the end-to-end handoff tests against it (the dialect's
// cycle on the release's own settings, the flower-pty cycle, the mid-turn cut (after a call that worked, failed or was refused), the overflow, the faults)
// and prints a table: release, result, seconds, notes. CI runs the pinned release only (npm test).
// Options: --cache <dir> (default $FLOWER_PTY_CANARY_CACHE, else $XDG_CACHE_HOME/flower-pty/canary);
// --record keeps each release's hook payloads in test/fixtures/claude-code/<release>/; --quick runs only
// the dialect's cycle.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const TESTS = [
  'test/claude-code/release-cycle.test.ts',
  'test/e2e/full-cycle.test.ts',
  'test/e2e/paths.test.ts',
  'test/e2e/tool-boundaries.test.ts',
  'test/faults/real-claude.test.ts',
];
const DEFAULT_RELEASES = ['2.1.47', '2.1.78', '2.1.100', '2.1.150', '2.1.200', '2.1.250', '2.1.300', '2.1.332'];

const argv = process.argv.slice(2);
const flag = (name) => {
  const i = argv.indexOf(name);
  if (i === -1) return undefined;
  const value = argv[i + 1];
  argv.splice(i, 2);
  return value;
};
const take = (name) => {
  const i = argv.indexOf(name);
  if (i !== -1) argv.splice(i, 1);
  return i !== -1;
};
const record = take('--record');
// --quick: only the dialect's cycle (seconds a release), e.g. to sweep many releases first.
const quick = take('--quick');
const cache =
  flag('--cache') ??
  process.env.FLOWER_PTY_CANARY_CACHE ??
  join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'flower-pty', 'canary');
const releases = argv.length > 0 ? argv : DEFAULT_RELEASES;
if (releases.some((r) => !/^(\d+\.\d+\.\d+|latest)$/.test(r))) {
  console.error(`canary: releases look like 2.1.78 or latest, got ${releases.join(' ')}`);
  process.exit(2);
}

// Installs `spec` into <cache>/<spec> once; returns the binary and the release it reports.
function install(spec) {
  const prefix = join(cache, spec);
  const bin = join(prefix, 'node_modules', '.bin', 'claude');
  if (spec === 'latest' || !existsSync(bin)) {
    mkdirSync(prefix, { recursive: true });
    const npm = spawnSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefix', prefix, `@anthropic-ai/claude-code@${spec}`],
      { encoding: 'utf8' },
    );
    if (npm.status !== 0)
      return { error: `npm install failed: ${(npm.stderr || npm.stdout).trim().split('\n').at(-1)}` };
  }
  const version = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  const release = /(\d+\.\d+\.\d+)/.exec(version.stdout ?? '')?.[1];
  return release
    ? { bin, release }
    : {
        error: `claude --version printed ${JSON.stringify((version.stdout || version.stderr || '').trim().slice(0, 60))}`,
      };
}

// Runs the tests against `bin`; resolves with pass/fail counts and the names of failed tests.
function runTests(bin, release) {
  const env = { ...process.env, FLOWER_PTY_TEST_CLAUDE: bin, FLOWER_PTY_TEST_CLAUDE_RELEASE: release };
  if (record) env.FLOWER_PTY_RECORD_PAYLOADS = join(REPO, 'test', 'fixtures', 'claude-code', release);
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      ['tap', '--disable-coverage', '--reporter=tap', '--jobs=1', ...(quick ? TESTS.slice(0, 1) : TESTS)],
      { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (code) => {
      // The whole TAP output beside the install, to read why a release failed.
      writeFileSync(join(cache, `${release}.tap.log`), out);
      const summary = [...out.matchAll(/^# \{ total: (\d+)(?:, pass: (\d+))?(?:, fail: (\d+))?/gm)].at(-1);
      // A failed subtest at the top nesting level of a file: "    not ok N - <name>".
      const failed = [...out.matchAll(/^ {4}not ok \d+ - (.+?)(?: # time=.*)?$/gm)].map((m) => m[1]);
      resolve({ code, pass: Number(summary?.[2] ?? 0), fail: Number(summary?.[3] ?? (code === 0 ? 0 : 1)), failed });
    });
  });
}

const build = spawnSync('npm', ['run', 'build'], { cwd: REPO, stdio: 'inherit' });
if (build.status !== 0) process.exit(1);
mkdirSync(cache, { recursive: true });
const rows = [];
for (const spec of releases) {
  const started = Date.now();
  const got = install(spec);
  if (got.error) {
    rows.push([spec, 'ERROR', '-', got.error]);
  } else {
    process.stderr.write(`canary: ${got.release} (${got.bin}) ...\n`);
    const r = await runTests(got.bin, got.release);
    const seconds = String(Math.round((Date.now() - started) / 1000));
    const notes =
      r.fail === 0
        ? `${r.pass} assertions`
        : `failed: ${r.failed.slice(0, 3).join('; ') || `exit ${r.code}`} (log: ${join(cache, `${got.release}.tap.log`)})`;
    rows.push([
      spec === 'latest' ? `${got.release} (latest)` : got.release,
      r.fail === 0 && r.code === 0 ? 'pass' : 'FAIL',
      seconds,
      notes,
    ]);
  }
  process.stderr.write(`canary: ${rows.at(-1).join(' | ')}\n`);
}
console.log('| release | result | seconds | notes |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
process.exit(rows.every((r) => r[1] === 'pass') ? 0 : 1);
