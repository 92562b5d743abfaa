// The web face's hosts against a real sshd on loopback, bounded: each host is asked on its own clock (a
// host that hangs holds back no other host's rows or health); a host that lists many runs costs no ssh
// forward until a page shows one of them, and never more than the ceiling per host; a forward ends when no
// page needs it; two hosts' runs of the same id are two pages; no forward's ssh outlives a SIGKILLed web
// face, and the next web face ends any its predecessor left.
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { startFleet } from '../../scripts/ssh-fleet.mjs';
import { get } from './web-request.js';
import { startFakeRun, type FakeRun } from '../helpers/wire-server.js';
import { sleep } from '../helpers/poll.js';
import { startWeb, type WebFace } from '../web/web-helpers.js';
import { openSocketDir } from '../../src/server/socket-dir.js';
import { APPROVE_KEYS } from '../../src/core/web/web-access.js';
import { HOST_TUNABLES } from '../../src/core/options/tunables.js';
import { FORWARD_LIFELINE } from '../../src/adapters/ssh-host.js';
import type { StatusView } from '../../src/core/screen/status.js';

const root = mkdtempSync(join(tmpdir(), 'flower-hosts-bounds-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

/** the pids of the ssh forwards whose local socket lies under `dir` (every process on the machine is read) */
function forwardPids(dir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (/(^|\/)ssh$/.test(args[0] ?? '') && args.includes(FORWARD_LIFELINE) && args.some((a) => a.startsWith(dir)))
      pids.push(Number(name));
  }
  return pids;
}

const fleet = await startFleet(t, root, {
  slow: { script: '#!/bin/sh\nsleep 60\n' },
  alpha: 'real',
  beta: 'real',
  many: 'real',
});
const local = join(root, 'local');
const runtime = join(local, 'run');
mkdirSync(runtime, { recursive: true, mode: 0o700 });
mkdirSync(join(local, 'config', 'flower-pty'), { recursive: true });
writeFileSync(
  join(local, 'config', 'flower-pty', 'config.json'),
  JSON.stringify({ hosts: ['slow', 'alpha', 'beta', 'many'] }),
);
const hostsDir = join(await openSocketDir({ XDG_RUNTIME_DIR: runtime }), 'web', 'hosts');

const sockets = async (name: string) => openSocketDir({ XDG_RUNTIME_DIR: fleet.hosts[name]!.runtime });
// both waiting for a permission: a page may approve
const waiting: StatusView = {
  phase: 'working',
  context: 12_000,
  window: 200_000,
  at: 150_000,
  warnAt: 120_000,
  generation: 1,
  maxGenerations: 8,
  handoff: true,
  reviewLeft: null,
  held: false,
  workbench: null,
  documentPath: null,
  note: '',
  attention: 'waiting for your permission: Bash touch x',
};
const alphaRun = await startFakeRun(await sockets('alpha'), 'same0001', {
  info: { cwd: '/srv/alpha', status: waiting },
});
const betaRun = await startFakeRun(await sockets('beta'), 'same0001', { info: { cwd: '/srv/beta', status: waiting } });
const manyRuns: FakeRun[] = [];
for (let i = 0; i < 30; i++)
  manyRuns.push(
    await startFakeRun(await sockets('many'), `many${String(i).padStart(4, '0')}`, { info: { cwd: `/srv/many/${i}` } }),
  );
t.teardown(() => Promise.all([alphaRun, betaRun, ...manyRuns].map((r) => r.close())));

const webEnv = { HOME: local, XDG_CONFIG_HOME: join(local, 'config'), FLOWER_PTY_SSH_CONFIG: fleet.config };
const started = performance.now();
const web = await startWeb(t, { runtime, args: ['--allow-input'], env: webEnv });
const login = await get(web, '/api/login', {
  Origin: web.base,
  'Content-Type': 'application/json',
  'x-body': JSON.stringify({ token: web.token }),
});
const secret = (JSON.parse(login.body) as { secret: string }).secret;
const headers = { Cookie: login.cookie, 'x-flower-secret': secret };
type Health = { host: string; problem: string | null; runs: number; checked: number | null };
const health = async () =>
  Object.fromEntries((JSON.parse((await get(web, '/api/hosts', headers)).body) as Health[]).map((h) => [h.host, h]));

/** waits until `ok` (which may ask the web face) holds; after `ms` throws "timed out waiting for <what>" */
async function until(what: string, ok: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (!(await ok())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

function page(
  face: WebFace,
  key: string,
  cookie: string,
  pageSecret: string,
): Promise<{ ws: WebSocket; seen: string[] }> {
  const ws = new WebSocket(
    `ws://127.0.0.1:${face.port}/ws/run/${encodeURIComponent(key)}`,
    ['flower', `flower.${pageSecret}`],
    { headers: { Origin: face.base, Cookie: cookie } },
  );
  const seen: string[] = [];
  ws.on('message', (d) => seen.push(d.toString()));
  return new Promise((resolve, reject) => (ws.once('open', () => resolve({ ws, seen })), ws.once('error', reject)));
}

t.test('each host on its own clock: a hung host holds back no other host', async (t) => {
  await until('alpha answered', async () => (await health()).alpha?.checked != null, 20_000);
  const first = (await health()).alpha!.checked!;
  const runs = JSON.parse((await get(web, '/api/runs', headers)).body) as Array<{ key: string }>;
  t.ok(
    runs.some((r) => r.key === 'alpha:same0001'),
    "alpha's run is on the dashboard",
  );
  t.equal((await health()).slow!.checked, null, 'while the hung host has not answered');
  await until('alpha asked again on its own clock', async () => ((await health()).alpha!.checked ?? 0) > first, 30_000);
  const now = await health();
  if (performance.now() - started < 24_000)
    t.equal(now.slow!.checked, null, 'and still the hung host has not answered');
  t.ok(now.alpha!.checked! - first >= HOST_TUNABLES.askEveryMs - 1_000, 'alpha on its own period');
});

t.test('a host that lists 30 runs: no forward until a page shows one, never more than the ceiling', async (t) => {
  await until('many listed', async () => (await health()).many?.runs === 30, 30_000);
  t.same(forwardPids(hostsDir), [], 'the dashboard alone opens no forward');
  const pages = [];
  for (let i = 0; i < HOST_TUNABLES.forwardsPerHost; i++)
    pages.push(await page(web, `many:many${String(i).padStart(4, '0')}`, login.cookie, secret));
  for (const p of pages)
    await until(
      'the page is fed',
      () => p.seen.some((m) => /"t":"(screen|status|welcome)"/.test(m)) || p.seen.length > 0,
      20_000,
    );
  t.equal(forwardPids(hostsDir).length, HOST_TUNABLES.forwardsPerHost, 'one forward per page shown');
  const over = await page(web, 'many:many0029', login.cookie, secret);
  await until('the page past the ceiling is told', () => over.seen.some((m) => m.includes('"ended"')), 10_000);
  t.match(over.seen.join('\n'), new RegExp(`${HOST_TUNABLES.forwardsPerHost} runs of many are open in pages already`));
  t.equal(forwardPids(hostsDir).length, HOST_TUNABLES.forwardsPerHost, 'no more ssh than the ceiling');
  for (const p of pages) p.ws.close();
  over.ws.close();
  await until(
    'the forwards no page needs are closed',
    () => forwardPids(hostsDir).length === 0,
    HOST_TUNABLES.forwardLingerMs + 15_000,
  );
  t.pass('closed');
});

t.test('two hosts, one id: two pages, each reaching its own run', async (t) => {
  const runs = JSON.parse((await get(web, '/api/runs', headers)).body) as Array<{ key: string; id: string }>;
  t.same(
    runs
      .filter((r) => r.id === 'same0001')
      .map((r) => r.key)
      .sort(),
    ['alpha:same0001', 'beta:same0001'],
  );
  t.equal(
    (await get(web, `/run/${encodeURIComponent('beta:same0001')}`, { Cookie: login.cookie })).status,
    200,
    'the page address names the host',
  );
  const p = await page(web, 'beta:same0001', login.cookie, secret);
  p.ws.send(JSON.stringify({ t: 'approve' }));
  await until(
    'the approval reached beta',
    () => betaRun.received.some((m) => m.t === 'input' && m.data === APPROVE_KEYS),
    20_000,
  );
  t.notOk(
    alphaRun.received.some((m) => m.t === 'input'),
    "alpha's run of the same id got nothing",
  );
  p.ws.close();
});

t.test('SIGKILL of the web face: no forward outlives it; the next one ends what a predecessor left', async (t) => {
  const p = await page(web, 'alpha:same0001', login.cookie, secret);
  await until('a forward is open', () => forwardPids(hostsDir).length === 1, 20_000);
  web.child.kill('SIGKILL');
  await new Promise((r) => web.child.once('exit', r));
  p.ws.terminate();
  await until('its ssh ended with it', () => forwardPids(hostsDir).length === 0, 20_000);
  t.pass('no ssh of the killed web face is left');

  // a forward's ssh that did not end (its pipe held elsewhere): recorded as the predecessor recorded its own
  const strayLocal = join(hostsDir, '1', 'stray.sock');
  const stray = spawn(
    'ssh',
    ['-T', '-F', fleet.config, '-L', `${strayLocal}:/nowhere.sock`, '--', 'alpha', FORWARD_LIFELINE],
    { stdio: ['pipe', 'ignore', 'ignore'] },
  );
  t.teardown(() => void stray.kill('SIGKILL'));
  await until('the stray ssh runs', () => forwardPids(hostsDir).includes(stray.pid!), 10_000);
  writeFileSync(join(hostsDir, 'forwards'), `${stray.pid} ${strayLocal}\n${process.pid} /not/this.sock\n`);
  const next = await startWeb(t, { runtime, env: webEnv });
  await until('the next web face ended it', () => stray.exitCode !== null || stray.signalCode !== null, 15_000);
  t.pass('ended by the sweep (its own pipe still held open here: nothing else would have ended it)');
  t.equal(next.child.exitCode, null, 'the next web face runs');
  t.pass('and this test process, named in the file with another socket, was left alone');
});
