// `flower-pty ls --host` against a real sshd on loopback: each host's runs in one table with a HOST
// column, asked at once; a host that refuses, one whose port is closed, one that hangs (the connect
// timeout), an older flower-pty, one of another wire version, one that prints garbage and one with no
// flower-pty: each one line, the others still shown. --json keeps each host's object plus its host.
import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { startFleet } from '../../scripts/ssh-fleet.mjs';
import { startFakeRun } from '../helpers/wire-server.js';
import { openSocketDir } from '../../src/server/socket-dir.js';

const root = mkdtempSync(join(tmpdir(), 'flower-hosts-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

function flower(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [FLOWER_BIN, ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({
        code: error ? ((error as { code?: number }).code ?? 1) : 0,
        stdout,
        stderr,
        ms: performance.now() - started,
      });
    });
  });
}

const fleet = await startFleet(t, root, {
  alpha: 'real',
  beta: 'real',
  older: 'older',
  otherwire: 'other-wire',
  garbage: 'garbage',
  bare: 'none',
});
// the local machine of the test: its own (empty) runtime and config
const local = join(root, 'local');
mkdirSync(join(local, 'run'), { recursive: true, mode: 0o700 });
const env = { ...fleet.env, HOME: local, XDG_RUNTIME_DIR: join(local, 'run'), XDG_CONFIG_HOME: join(local, 'config') };

const hostSockets = (name: string) => openSocketDir({ XDG_RUNTIME_DIR: fleet.hosts[name]!.runtime });
const alphaRun = await startFakeRun(await hostSockets('alpha'), 'aaaa1111', {
  info: { cwd: '/srv/alpha/proj', workbench: '/srv/alpha/proj/.flower' },
});
const betaRun = await startFakeRun(await hostSockets('beta'), 'bbbb2222', {
  info: { cwd: '/srv/beta/proj', phase: 'review' },
});
t.teardown(() => alphaRun.close());
t.teardown(() => betaRun.close());

t.test('two hosts: one table with a HOST column, each host its own runs', async (t) => {
  const r = await flower(['ls', '--host', 'alpha', '--host', 'beta'], env);
  t.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  t.match(lines[0], /^HOST\s+ID\s+PID\s+PHASE/);
  t.match(r.stdout, /^alpha\s+aaaa1111\s.*\/srv\/alpha\/proj$/m);
  t.match(r.stdout, /^beta\s+bbbb2222\s.*review.*\/srv\/beta\/proj$/m);
  t.equal(lines.length, 3, 'a header and one row per run, no error line');
});

t.test("--json: each host's object as it printed it, plus host", async (t) => {
  const r = await flower(['ls', '--json', '--host', 'alpha', '--host', 'bare'], env);
  t.equal(r.code, 2, `a host with no flower-pty: exit 2 after the others are listed, as without --json (${r.stderr})`);
  const data = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
  t.equal(data.length, 2);
  t.equal(data[0]!.host, 'alpha');
  t.equal(typeof data[0]!.wire, 'number');
  t.same(
    (data[0]!.runs as Array<{ id: string }>).map((run) => run.id),
    ['aaaa1111'],
  );
  t.same(data[1], { host: 'bare', error: data[1]!.error });
  t.match(data[1]!.error, /bare: no flower-pty there/);
});

t.test('every kind of failing host is one line, the good host still listed', async (t) => {
  const r = await flower(
    [
      'ls',
      '--host',
      'alpha',
      '--host',
      'refusing',
      '--host',
      'closed',
      '--host',
      'older',
      '--host',
      'otherwire',
      '--host',
      'garbage',
      '--host',
      'bare',
    ],
    env,
  );
  t.equal(r.code, 2, 'a host that could not answer: exit 2, as attach, kill and report exit');
  t.match(r.stdout, /^alpha\s+aaaa1111/m, 'the good host is listed');
  t.match(r.stdout, /^\(refusing: unreachable over ssh \(.*Permission denied.*\); check it with ssh refusing\)$/m);
  t.match(r.stdout, /^\(closed: unreachable over ssh \(.*Connection refused.*\)/m);
  t.match(r.stdout, /^\(older: its flower-pty is older/m);
  t.match(r.stdout, /^\(otherwire: its flower-pty speaks wire version 0, this one \d+/m);
  t.match(
    r.stdout,
    /^\(garbage: answered with something that is not flower-pty's list of runs \("Welcome to box! \[31m motd"\)\)$/m,
    'garbage flattened to one line, its control characters gone',
  );
  t.match(r.stdout, /^\(bare: no flower-pty there/m);
  t.notMatch(r.stdout + r.stderr, /\u001b/, 'no escape reaches the terminal');
});

t.test('a host that accepts and never speaks: the connect timeout, the others not held back past it', async (t) => {
  const r = await flower(['ls', '--host', 'hanging', '--host', 'beta'], env);
  t.equal(r.code, 2, r.stderr);
  t.match(r.stdout, /^beta\s+bbbb2222/m);
  t.match(r.stdout, /^\(hanging: unreachable over ssh \(.*timed out.*\)/m);
  t.ok(r.ms < 20_000, `answered after the connect timeout, not ours (${Math.round(r.ms)} ms)`);
});

t.test('a host name ssh would read as an option is refused before ssh sees it', async (t) => {
  const marker = join(root, 'proxy-ran');
  for (const bad of [`-oProxyCommand=touch ${marker}`, 'a b', 'x\u001b[2J']) {
    const r = await flower(['ls', `--host=${bad}`], env);
    t.equal(r.code, 2);
    t.equal(r.stderr.trim().split('\n').length, 1, 'one line');
    t.match(r.stderr, /^flower-pty: host ".*" (starts with "-"|holds a space or a control character)/);
  }
  const { existsSync } = await import('node:fs');
  t.notOk(existsSync(marker), 'no ProxyCommand ran');
});

t.test('--all-hosts: this machine and the hosts of the user config; a project config may not name hosts', async (t) => {
  mkdirSync(join(local, 'config', 'flower-pty'), { recursive: true });
  writeFileSync(join(local, 'config', 'flower-pty', 'config.json'), JSON.stringify({ hosts: ['alpha', 'beta'] }));
  const r = await flower(['ls', '--all-hosts'], env);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /^alpha\s+aaaa1111/m);
  t.match(r.stdout, /^beta\s+bbbb2222/m);
  const json = JSON.parse((await flower(['ls', '--all-hosts', '--json'], env)).stdout) as Array<{
    host: string | null;
    runs: unknown[];
  }>;
  t.same(
    json.map((h) => [h.host, h.runs.length]),
    [
      [null, 0],
      ['alpha', 1],
      ['beta', 1],
    ],
    'this machine first, as host null',
  );
  writeFileSync(join(local, 'config', 'flower-pty', 'config.json'), JSON.stringify({ hosts: ['-oProxyCommand=x'] }));
  const bad = await flower(['ls', '--all-hosts'], env);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /config\.json: "hosts": host "-oProxyCommand=x" starts with "-"/);
  rmSync(join(local, 'config'), { recursive: true });
  const none = await flower(['ls', '--all-hosts'], env);
  t.equal(none.code, 2);
  t.match(none.stderr, /no hosts are configured/);
  // a project's own .flower/config.json naming hosts: ignored, said in one line, whether trusted or not
  const project = join(root, 'project');
  mkdirSync(join(project, '.flower'), { recursive: true });
  writeFileSync(join(project, '.flower', 'config.json'), JSON.stringify({ hosts: ['alpha'] }));
  const { loadConfig } = await import('../../src/adapters/config-file.js');
  const loaded = loadConfig({ cwd: project, env });
  t.equal(loaded.values.hosts, undefined, 'the project file names no host');
  t.match(loaded.notes.join('\n'), /hosts: only your own config/);
});

// Hostile hosts: their flower-pty prints what the test put in their HOME.
const HOSTILE = `#!/bin/sh\ncase "$1" in ls) cat "$HOME/ls.json";; report) cat "$HOME/report.json";; esac\n`;
t.test("--json: every host's object whatever another host sent (deep, huge, a field of its own)", async (t) => {
  const { WIRE_VERSION } = await import('../../src/server/wire.js');
  const hostile = await startFleet(t, join(root, 'hostile'), {
    deep: { script: HOSTILE },
    deeper: { script: HOSTILE },
    huge: { script: `#!/bin/sh\nhead -c 20000000 /dev/zero | tr '\\0' ' '\n` },
    good: 'real',
  });
  const deep = `${'['.repeat(200_000)}1${']'.repeat(200_000)}`;
  const run = {
    id: 'dddd4444',
    pid: 9,
    cwd: '/srv/deep',
    workbench: null,
    step: 'work',
    started: '2026-12-01T04:00:00.000Z',
    clients: 0,
    generation: 1,
    phase: 'working',
    context: 1,
    window: 2,
    status: null,
    socket: '/run/x.sock',
  };
  writeFileSync(
    join(hostile.hosts.deep!.home, 'ls.json'),
    JSON.stringify({ wire: WIRE_VERSION, runs: [{ ...run, extra: 0 }], mine: 0 })
      .replace('"extra":0', `"extra":${deep}`)
      .replace('"mine":0', `"mine":${deep}`),
  );
  writeFileSync(
    join(hostile.hosts.deeper!.home, 'ls.json'),
    JSON.stringify({ wire: WIRE_VERSION, runs: [{ ...run, status: 0 }] }).replace('"status":0', `"status":${deep}`),
  );
  const goodRun = await startFakeRun(
    await openSocketDir({ XDG_RUNTIME_DIR: hostile.hosts.good!.runtime }),
    'gggg5555',
    { info: { cwd: '/srv/good' } },
  );
  t.teardown(() => goodRun.close());
  const r = await flower(['ls', '--json', '--host', 'deep', '--host', 'deeper', '--host', 'huge', '--host', 'good'], {
    ...env,
    FLOWER_PTY_SSH_CONFIG: hostile.config,
  });
  t.equal(r.code, 2, `two hosts answered with no list: exit 2, every object still printed (${r.stderr})`);
  const data = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
  t.same(
    data.map((o) => o.host),
    ['deep', 'deeper', 'huge', 'good'],
    'one object per host, in order',
  );
  t.same(
    data[0],
    { host: 'deep', wire: WIRE_VERSION, runs: [run] },
    'a field the host added, 200,000 deep, goes no further',
  );
  t.match(
    data[1],
    {
      host: 'deeper',
      error:
        /^deeper: answered with something that is not flower-pty's list of runs: runs\[0\]\.status is not an object$/,
    },
    "a used field too deep: that host's one line",
  );
  t.match(data[2], { host: 'huge', error: /^huge: answered with more than 16 MB/ }, "too large: that host's one line");
  t.same(
    (data[3]!.runs as Array<{ id: string }>).map((x) => x.id),
    ['gggg5555'],
    "and the good host's runs",
  );
});

t.test("two hosts' runs of the same id: each named by its host", async (t) => {
  const a = await startFakeRun(await hostSockets('alpha'), 'dupe0001', { info: { cwd: '/srv/alpha/dupe' } });
  const b = await startFakeRun(await hostSockets('beta'), 'dupe0001', { info: { cwd: '/srv/beta/dupe' } });
  t.teardown(() => Promise.all([a.close(), b.close()]));
  const r = await flower(['ls', '--host', 'alpha', '--host', 'beta'], env);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /^alpha\s+dupe0001\s.*\/srv\/alpha\/dupe$/m);
  t.match(r.stdout, /^beta\s+dupe0001\s.*\/srv\/beta\/dupe$/m);
  const json = JSON.parse((await flower(['ls', '--json', '--host', 'alpha', '--host', 'beta'], env)).stdout) as Array<{
    host: string;
    runs: Array<{ id: string }>;
  }>;
  t.same(
    json.map((o) => [o.host, o.runs.some((x) => x.id === 'dupe0001')]),
    [
      ['alpha', true],
      ['beta', true],
    ],
    'and in --json, under each host',
  );
});
