// The release probe with a fake claude printing odd versions: parsed, cached per binary path + mtime,
// bounded in time; and through the built bin: a release below the minimum is refused with one line and
// exit 5 before anything starts, an unreadable version warns once and the run goes on.
import t from 'tap';
import type { Test } from 'tap';
import { chmodSync, mkdtempSync, rmSync, utimesSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { probeRelease } from '../../src/adapters/claude-probe.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'flower-probe-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// A claude that prints `printed` for --version (and counts its calls in <file>.calls); `hang` never answers.
function fakeClaude(dir: string, name: string, printed: string, hang = false): string {
  const file = join(dir, name);
  const body = hang ? 'setInterval(() => {}, 1000);' : `process.stdout.write(${JSON.stringify(printed)});`;
  writeFileSync(
    file,
    `#!${process.execPath}\nrequire('fs').appendFileSync(${JSON.stringify(file + '.calls')}, 'x');\n${body}\n`,
  );
  chmodSync(file, 0o755);
  return file;
}
const calls = (bin: string) => (existsSync(`${bin}.calls`) ? readFileSync(`${bin}.calls`, 'utf8').length : 0);

t.test('odd version strings', async (t) => {
  const dir = tempDir(t);
  const cacheDir = join(dir, 'cache');
  const cases: Array<[string, string | null]> = [
    ['2.1.332 (Claude Code)\n', '2.1.332'],
    ['2.1.47 (Claude Code)', '2.1.47'],
    ['\u001b[1m2.1.100\u001b[0m (Claude Code)\n', '2.1.100'],
    ['Claude Code nightly\n', null],
    ['', null],
  ];
  for (const [i, [printed, expected]] of cases.entries()) {
    const bin = fakeClaude(dir, `claude-${i}`, printed);
    const probe = await probeRelease({ claude: bin, env: process.env, cacheDir });
    t.equal(probe.release?.text ?? null, expected, JSON.stringify(printed));
    if (expected === null) t.match(probe.warning, /going on as if it were the newest/);
    else t.equal(probe.warning, null);
  }
});

t.test('cached per binary path and mtime; an unparsable answer is not cached', async (t) => {
  const dir = tempDir(t);
  const cacheDir = join(dir, 'cache');
  const bin = fakeClaude(dir, 'claude', '2.1.200 (Claude Code)');
  t.match(await probeRelease({ claude: bin, env: process.env, cacheDir }), {
    cached: false,
    release: { text: '2.1.200' },
  });
  t.match(await probeRelease({ claude: bin, env: process.env, cacheDir }), {
    cached: true,
    release: { text: '2.1.200' },
  });
  t.equal(calls(bin), 1, 'claude ran once');
  const later = new Date(Date.now() + 60_000);
  utimesSync(bin, later, later);
  t.match(
    await probeRelease({ claude: bin, env: process.env, cacheDir }),
    { cached: false },
    'a new mtime is a new binary',
  );
  const odd = fakeClaude(dir, 'odd', 'who knows');
  await probeRelease({ claude: odd, env: process.env, cacheDir });
  await probeRelease({ claude: odd, env: process.env, cacheDir });
  t.equal(calls(odd), 2, 'asked again each time');
  writeFileSync(join(cacheDir, 'claude-releases.json'), '{not json');
  t.match(
    await probeRelease({ claude: bin, env: process.env, cacheDir }),
    { cached: false, release: { text: '2.1.200' } },
    'a damaged cache is rebuilt',
  );
});

t.test('a claude that never answers: bounded, then unknown', async (t) => {
  const dir = tempDir(t);
  const bin = fakeClaude(dir, 'claude', '', true);
  const started = Date.now();
  const probe = await probeRelease({ claude: bin, env: process.env, cacheDir: join(dir, 'cache'), timeoutMs: 1_500 });
  t.equal(probe.release, null);
  t.ok(Date.now() - started < 15_000, 'gave up on time');
});

t.test('through the bin: too old is refused in one line with exit 5; unreadable warns once and goes on', async (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, XDG_CACHE_HOME: join(dir, 'cache'), HOME: dir, NO_COLOR: '1' };
  const old = fakeClaude(dir, 'claude-old', '2.1.46 (Claude Code)\n');
  const r = spawnSync(process.execPath, [FLOWER_BIN, '--claude', old, '--no-workbench', '--plain', 'go'], {
    cwd: dir,
    env,
    encoding: 'utf8',
    input: '',
    timeout: 60_000,
  });
  t.equal(r.status, 5, 'exit 5: no usable claude');
  t.equal(r.stderr.trim().split('\n').length, 1, 'one line');
  t.match(
    r.stderr,
    /Claude Code 2\.1\.46 is too old: flower-pty needs 2\.1\.47 or newer; upgrade with npm install -g @anthropic-ai\/claude-code/,
  );
  t.equal(calls(old), 1, 'only --version ran: nothing was spawned for a session');

  // An unreadable version: one warning, then the run starts (this fake exits at once, so the run ends).
  const odd = fakeClaude(dir, 'claude-odd', 'nightly build\n');
  const v = spawnSync(
    process.execPath,
    [FLOWER_BIN, '--claude', odd, '--no-workbench', '--plain', '-v', '--review', '0', 'go'],
    { cwd: dir, env, encoding: 'utf8', input: '', timeout: 60_000 },
  );
  t.equal((v.stderr.match(/could not read the Claude Code release/g) ?? []).length, 1, 'warned once');
  t.match(v.stderr, /release unknown \(taken as the newest\)/);
  t.ok(calls(odd) >= 2, 'and claude was started after the probe');
});

t.test('-v says what an older release costs', async (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, XDG_CACHE_HOME: join(dir, 'cache'), HOME: dir, NO_COLOR: '1' };
  const older = fakeClaude(dir, 'claude-77', '2.1.77 (Claude Code)\n');
  const v = spawnSync(
    process.execPath,
    [FLOWER_BIN, '--claude', older, '--no-workbench', '--plain', '-v', '--review', '0', 'go'],
    { cwd: dir, env, encoding: 'utf8', input: '', timeout: 60_000 },
  );
  t.match(v.stderr, /Claude Code 2\.1\.77/);
  t.match(v.stderr, /older release: no StopFailure hook \(before 2\.1\.78\)/);
});
