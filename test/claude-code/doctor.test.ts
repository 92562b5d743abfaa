// `flower-pty doctor`: the verdicts on made-up facts (every OK / WARN / FAIL path), and one real run of the
// built bin in a throwaway HOME with a fake claude: one screen, exit 0 when all is well, 6 on a FAIL.
import t from 'tap';
import type { Test } from 'tap';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { doctorLines, type DoctorFacts } from '../../src/claude-code/doctor-verdict.js';
import { parseRelease } from '../../src/claude-code/release.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';

const good: DoctorFacts = {
  claude: { path: '/usr/bin/claude' },
  version: { release: parseRelease('2.1.332'), printed: '2.1.332 (Claude Code)' },
  login: {
    apiKeyEnv: true,
    authTokenEnv: false,
    oauthTokenEnv: false,
    credentialsFile: false,
    oauthAccount: false,
    apiKeyHelper: false,
  },
  configDir: { path: '/home/me/.claude', exists: true, writable: true, parentWritable: true },
  hookClient: { path: '/opt/fp/dist/hook-client.js', exists: true },
  hooksDisabledIn: null,
  childSessionMarker: false,
};
const levelOf = (facts: DoctorFacts, topic: string) => doctorLines(facts).find((l) => l.topic === topic);

t.test('all well: every line OK', async (t) => {
  const lines = doctorLines(good);
  t.same(
    lines.map((l) => l.topic),
    ['claude', 'login', 'config', 'hooks', 'transcript', 'auto-compact'],
  );
  t.same([...new Set(lines.map((l) => l.level))], ['OK']);
});

t.test('each problem gets its level and what to do', async (t) => {
  t.match(levelOf({ ...good, claude: { error: 'no "claude" on PATH: install Claude Code' } }, 'claude'), {
    level: 'FAIL',
    text: /install/,
  });
  t.match(levelOf({ ...good, version: { release: parseRelease('2.1.20'), printed: '2.1.20' } }, 'claude'), {
    level: 'FAIL',
    text: /too old.*npm install -g/,
  });
  t.match(levelOf({ ...good, version: { release: parseRelease('2.1.77'), printed: '2.1.77' } }, 'claude'), {
    level: 'WARN',
    text: /StopFailure/,
  });
  t.match(levelOf({ ...good, version: { release: null, printed: 'nightly' } }, 'claude'), {
    level: 'WARN',
    text: /release unknown/,
  });
  t.match(levelOf({ ...good, login: { ...good.login, apiKeyEnv: false } }, 'login'), {
    level: 'WARN',
    text: /\/login/,
  });
  t.match(levelOf({ ...good, login: { ...good.login, apiKeyEnv: false, credentialsFile: true } }, 'login'), {
    level: 'OK',
  });
  t.match(levelOf({ ...good, configDir: { ...good.configDir, writable: false } }, 'config'), {
    level: 'FAIL',
    text: /CLAUDE_CONFIG_DIR/,
  });
  t.match(levelOf({ ...good, configDir: { ...good.configDir, exists: false, writable: false } }, 'config'), {
    level: 'OK',
    text: /will be created/,
  });
  t.match(
    levelOf(
      { ...good, configDir: { ...good.configDir, exists: false, writable: false, parentWritable: false } },
      'config',
    ),
    { level: 'FAIL' },
  );
  t.match(levelOf({ ...good, hookClient: { ...good.hookClient, exists: false } }, 'hooks'), {
    level: 'FAIL',
    text: /npm run build/,
  });
  t.match(levelOf({ ...good, hooksDisabledIn: '/p/.claude/settings.json' }, 'hooks'), {
    level: 'FAIL',
    text: /disableAllHooks/,
  });
  t.notMatch(
    levelOf({ ...good, version: { release: parseRelease('2.1.77'), printed: '' } }, 'hooks')?.text,
    /StopFailure/,
    'the hooks line lists what that release gets',
  );
  t.match(levelOf({ ...good, childSessionMarker: true }, 'transcript'), { level: 'OK', text: /removes the inherited/ });
  t.notOk(
    levelOf({ ...good, claude: { error: 'x' } }, 'auto-compact'),
    "nothing about a missing claude's auto-compact",
  );
});

function sandbox(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'flower-doctor-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function fakeClaude(dir: string, printed: string): string {
  const file = join(dir, 'claude');
  writeFileSync(file, `#!${process.execPath}\nprocess.stdout.write(${JSON.stringify(printed)});\n`);
  chmodSync(file, 0o755);
  return file;
}

t.test('the bin: one screen, exit 0 when ready, 6 on a FAIL', async (t) => {
  const home = sandbox(t);
  mkdirSync(join(home, 'project'));
  const bin = fakeClaude(home, '2.1.332 (Claude Code)\n');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CACHE_HOME: join(home, 'cache'),
    ANTHROPIC_API_KEY: 'sk-test',
  };
  const ok = spawnSync(process.execPath, [FLOWER_BIN, 'doctor', '--claude', bin], {
    cwd: join(home, 'project'),
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.equal(ok.status, 0, ok.stdout + ok.stderr);
  t.match(ok.stdout, /^flower-pty doctor$/m);
  t.match(ok.stdout, /OK {4}claude .*2\.1\.332/);
  t.match(ok.stdout, /OK {4}login +ANTHROPIC_API_KEY/);
  t.notMatch(ok.stdout, /sk-test/, 'no secret on screen');
  t.ok(ok.stdout.trim().split('\n').length <= 10, 'one screen');

  mkdirSync(join(home, 'project', '.claude'));
  writeFileSync(join(home, 'project', '.claude', 'settings.json'), JSON.stringify({ disableAllHooks: true }));
  const bad = spawnSync(process.execPath, [FLOWER_BIN, 'doctor', '--claude', bin], {
    cwd: join(home, 'project'),
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.equal(bad.status, 6);
  t.match(bad.stdout, /FAIL {2}hooks .*disableAllHooks/);
  t.match(bad.stdout, /1 problem\(s\) to fix/);

  // --json: the same checks as one object, the same exit code
  const json = spawnSync(process.execPath, [FLOWER_BIN, 'doctor', '--json', '--claude', bin], {
    cwd: join(home, 'project'),
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.equal(json.status, 6);
  t.equal(json.stdout.trim().split('\n').length, 1, 'one line');
  const report = JSON.parse(json.stdout) as {
    ready: boolean;
    checks: Array<{ level: string; topic: string; text: string }>;
  };
  t.equal(report.ready, false);
  t.match(
    report.checks.find((c) => c.topic === 'hooks'),
    { level: 'FAIL', text: /disableAllHooks/ },
  );
  t.match(
    report.checks.find((c) => c.topic === 'claude'),
    { level: 'OK', text: /2\.1\.332/ },
  );
  t.notMatch(json.stdout, /sk-test/, 'no secret in it');
  rmSync(join(home, 'project', '.claude'), { recursive: true });
  const ready = spawnSync(process.execPath, [FLOWER_BIN, 'doctor', '--json', '--claude', bin], {
    cwd: join(home, 'project'),
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.equal(ready.status, 0, ready.stderr);
  t.match(JSON.parse(ready.stdout), { ready: true });
});
