// The web face with hosts, against a real sshd on loopback: the dashboard lists the configured hosts'
// runs beside the local ones, with each host's health (one that is down says why); a remote run's page
// works through an ssh forward of its run socket, and approving from it reaches the run on its host.
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { startFleet } from '../../scripts/ssh-fleet.mjs';
import { get } from './web-request.js';
import { startFakeRun } from '../helpers/wire-server.js';
import { until } from '../helpers/poll.js';
import { logIn, openBrowser, startWeb } from '../web/web-helpers.js';
import { openSocketDir } from '../../src/server/socket-dir.js';
import { APPROVE_KEYS } from '../../src/core/web/web-access.js';
import type { StatusView } from '../../src/core/screen/status.js';

const root = mkdtempSync(join(tmpdir(), 'flower-hosts-web-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

const fleet = await startFleet(t, root, { alpha: 'real', beta: 'real' });
const local = join(root, 'local');
const runtime = join(local, 'run');
mkdirSync(runtime, { recursive: true, mode: 0o700 });
mkdirSync(join(local, 'config', 'flower-pty'), { recursive: true });
writeFileSync(
  join(local, 'config', 'flower-pty', 'config.json'),
  JSON.stringify({ hosts: ['alpha', 'beta', 'closed', '<b>bold</b>'] }),
);

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
const alphaRun = await startFakeRun(await openSocketDir({ XDG_RUNTIME_DIR: fleet.hosts.alpha!.runtime }), 'aaaa1111', {
  info: { cwd: '/srv/alpha', status: waiting },
});
const betaRun = await startFakeRun(await openSocketDir({ XDG_RUNTIME_DIR: fleet.hosts.beta!.runtime }), 'bbbb2222', {
  info: { cwd: '/srv/beta' },
});
const localRun = await startFakeRun(await openSocketDir({ XDG_RUNTIME_DIR: runtime }), 'llll3333', {
  info: { cwd: '/here' },
});
t.teardown(() => Promise.all([alphaRun.close(), betaRun.close(), localRun.close()]));

const web = await startWeb(t, {
  runtime,
  args: ['--allow-input'],
  env: { HOME: local, XDG_CONFIG_HOME: join(local, 'config'), FLOWER_PTY_SSH_CONFIG: fleet.config },
});
const login = await get(web, '/api/login', {
  Origin: web.base,
  'Content-Type': 'application/json',
  'x-body': JSON.stringify({ token: web.token }),
});
const secret = (JSON.parse(login.body) as { secret: string }).secret;
const headers = { Cookie: login.cookie, 'x-flower-secret': secret };

t.test("the dashboard: the local run and each host's, with the hosts' health", async (t) => {
  let runs: Array<{ id: string; host: string | null }> = [];
  for (let i = 0; i < 200 && runs.length < 3; i++) {
    runs = JSON.parse((await get(web, '/api/runs', headers)).body);
    if (runs.length < 3) await new Promise((r) => setTimeout(r, 200));
  }
  t.same(runs.map((r) => `${r.host}:${r.id}`).sort(), ['alpha:aaaa1111', 'beta:bbbb2222', 'null:llll3333']);
  // each host is asked on its own clock: wait until every one has answered (or failed) once
  let hosts: Array<{ host: string; problem: string | null; runs: number; checked: number | null }> = [];
  for (let i = 0; i < 100; i++) {
    hosts = JSON.parse((await get(web, '/api/hosts', headers)).body);
    if (hosts.length === 4 && hosts.every((h) => h.checked !== null)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  t.match(hosts, [
    { host: 'alpha', problem: null, runs: 1 },
    { host: 'beta', problem: null, runs: 1 },
    { host: 'closed', problem: /closed: unreachable over ssh/, runs: 0 },
    { host: '<b>bold</b>', problem: /unreachable over ssh/, runs: 0 },
  ]);
});

t.test("a remote run's page, through the ssh forward of its socket: its stream and an approval", async (t) => {
  const ws = new WebSocket(
    `ws://127.0.0.1:${web.port}/ws/run/${encodeURIComponent('alpha:aaaa1111')}`,
    ['flower', `flower.${secret}`],
    { headers: { Origin: web.base, Cookie: login.cookie } },
  );
  const seen: string[] = [];
  ws.on('message', (d) => seen.push(d.toString()));
  t.teardown(() => ws.close());
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  ws.send(JSON.stringify({ t: 'approve' }));
  await until(
    'the approval reached the run on alpha',
    () => alphaRun.received.some((m) => m.t === 'input' && m.data === APPROVE_KEYS),
    20_000,
  );
  t.pass('approved from the page, typed on the host');
  await until('the page was answered', () => /"approve"/.test(seen.join('\n')), 10_000);
  t.match(seen.join('\n'), /"approve"/, 'the page was answered');
  t.notOk(
    betaRun.received.some((m) => m.t === 'input'),
    "the other host's run got nothing",
  );
});

t.test("the dashboard page shows each remote run's host and each host's health, escaped", async (t) => {
  const again = await get(web, '/api/login', { Origin: web.base, 'Content-Type': 'application/json', 'x-body': '{}' });
  t.equal(again.status, 400, 'the first token is spent: the browser logs in with a new one');
  const { spawnSync } = await import('node:child_process');
  const { FLOWER_BIN } = await import('../helpers/flower-run.js');
  const login = spawnSync(process.execPath, [FLOWER_BIN, 'web', '--login'], {
    encoding: 'utf8',
    env: { ...process.env, HOME: local, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: join(local, 'config') },
  });
  const url = /http:\/\/127\.0\.0\.1:\d+\/login#\S+/.exec(login.stdout + login.stderr)?.[0];
  t.ok(url, 'a new login URL');
  const context = await openBrowser(t);
  const page = await context.newPage();
  await logIn(page, { ...web, url: url! });
  await page.waitForFunction(() => document.querySelectorAll('#runs li').length === 3, undefined, { timeout: 30_000 });
  const hostOf = (id: string) => page.locator(`#runs li[data-id="${id}"] .host`).allTextContents();
  t.same(await hostOf('aaaa1111'), ['alpha']);
  t.same(await hostOf('bbbb2222'), ['beta']);
  t.same(await hostOf('llll3333'), [], 'a local run names no host');
  await page.waitForFunction(() => document.querySelectorAll('#hosts li').length === 4);
  const health = await page.locator('#hosts li').allTextContents();
  t.match(health, [
    /^alpha1 run$/,
    /^beta1 run$/,
    /^closedclosed: unreachable over ssh/,
    /^<b>bold<\/b><b>bold<\/b>: unreachable over ssh/,
  ]);
  t.equal(await page.locator('#hosts li.down').count(), 2, 'the hosts that are down are marked');
  t.equal(await page.locator('#hosts b').count(), 0, 'a host name is text, never markup');
});
