// Tests for the live-run registry against tiny in-test servers that speak the wire protocol: listing,
// stale sockets removed (only ours, only sockets), silent and refusing servers kept but not listed.
import t, { type Test } from 'tap';
import { mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { linkSync as linkFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowerError } from '../../src/core/errors.js';
import { listRuns, queryRun, requestRun, resolveRun } from '../../src/server/run-registry.js';
import { thisFolder } from '../../src/commands/kill.js';
import { openSocketDir } from '../../src/server/socket-dir.js';
import { startFakeRun, type FakeRun } from '../helpers/wire-server.js';

async function socketDir(t: Test): Promise<string> {
  const runtime = await mkdtemp(join(tmpdir(), 'fp-rr-'));
  t.teardown(() => rm(runtime, { recursive: true, force: true }));
  return openSocketDir({ XDG_RUNTIME_DIR: runtime });
}

async function fake(t: Test, ...args: Parameters<typeof startFakeRun>): Promise<FakeRun> {
  const run = await startFakeRun(...args);
  t.teardown(() => run.close());
  return run;
}

// A socket file nobody listens on: what a SIGKILLed server leaves. libuv unlinks the name it listened
// on when the server closes, so the socket gets a second name first.
async function staleSocket(dir: string, id: string): Promise<string> {
  const server = createServer();
  const temp = join(dir, `.plant-${id}`);
  await new Promise<void>((r) => server.listen(temp, () => r()));
  const path = join(dir, `${id}.sock`);
  linkFileSync(temp, path);
  await new Promise<void>((r) => server.close(() => r()));
  return path;
}

t.test('lists every answering run, oldest first, with its socket', async (t) => {
  const dir = await socketDir(t);
  t.same(await listRuns(dir), { runs: [], removed: [], silent: [] }, 'an empty directory');
  const b = await fake(t, dir, 'bbbbbb', { info: { started: '2026-12-01T05:00:00.000Z', clients: 2 } });
  const a = await fake(t, dir, 'aaaaaa', { info: { started: '2026-12-01T04:00:00.000Z' } });
  const listing = await listRuns(dir);
  t.same(
    listing.runs.map((r) => r.id),
    ['aaaaaa', 'bbbbbb'],
  );
  t.same(listing.runs[1], { ...b.info, socket: b.socket });
  t.same(
    a.received,
    [{ t: 'hello', version: 1, role: 'query' }, { t: 'info' }],
    'a query client says hello, then asks',
  );
});

t.test('a stale socket is removed; a file that is not a socket is left alone', async (t) => {
  const dir = await socketDir(t);
  await fake(t, dir, 'aaaaaa');
  const stale = await staleSocket(dir, 'dddddd');
  await writeFile(join(dir, 'ffffff.sock'), 'not a socket');
  const listing = await listRuns(dir);
  t.same(
    listing.runs.map((r) => r.id),
    ['aaaaaa'],
  );
  t.same(listing.removed, [stale]);
  t.same((await readdir(dir)).sort(), ['aaaaaa.sock', 'ffffff.sock'], 'the stale socket is gone, the plain file stays');
});

t.test('a temp socket left between listen and link is swept once its pid is gone', async (t) => {
  const dir = await socketDir(t);
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  }).stdout;
  const left = await staleSocket(dir, 'tmp000');
  const deadTemp = join(dir, `.tmp000.${dead}.tmp`);
  await rename(left, deadTemp);
  const liveTemp = join(dir, `.tmp111.${process.pid}.tmp`);
  await rename(await staleSocket(dir, 'tmp111'), liveTemp);
  const listing = await listRuns(dir);
  t.same(listing.removed, [deadTemp]);
  t.same(
    (await readdir(dir)).filter((n) => n.endsWith('.tmp')),
    [`.tmp111.${process.pid}.tmp`],
    'a live process may still be starting: its temp stays',
  );
});

t.test('a silent, refusing or garbage-speaking server is not listed and its socket stays', async (t) => {
  const dir = await socketDir(t);
  await fake(t, dir, 'ssssss', { behaviour: 'silent' });
  await fake(t, dir, 'rrrrrr', { behaviour: 'refuse' });
  await fake(t, dir, 'gggggg', { behaviour: 'garbage' });
  const started = Date.now();
  const listing = await listRuns(dir, 500);
  t.ok(Date.now() - started < 5000, 'the sockets are asked at once, each bounded');
  t.same(listing.runs, []);
  t.same(listing.removed, []);
  const reasons = Object.fromEntries(listing.silent.map((s) => [s.socket.slice(-11, -5), s.reason]));
  t.match(reasons, {
    ssssss: /did not answer within 0.5 s/,
    rrrrrr: /cannot attach to a run served by another version/,
    gggggg: /the run sent a frame that is not UTF-8 JSON|hung up/,
  });
  t.equal((await readdir(dir)).length, 3);
});

t.test('queryRun: the answer, or one line', async (t) => {
  const dir = await socketDir(t);
  const run = await fake(t, dir, 'aaaaaa', { info: { generation: 4 } });
  const answer = await queryRun(run.socket, { t: 'info' });
  t.match(answer, { t: 'info', run: { id: 'aaaaaa', generation: 4 } });
  await t.rejects(queryRun(join(dir, 'nobody.sock'), { t: 'info' }), FlowerError);
  const refusing = await fake(t, dir, 'rrrrrr', { behaviour: 'refuse' });
  await t.rejects(queryRun(refusing.socket, { t: 'info' }), {
    name: 'FlowerError',
    message: /rrrrrr\.sock: flower-pty \(wire 1\) cannot attach/,
  });
  const gone = await requestRun(join(dir, 'nobody.sock'), { t: 'info' });
  t.same(gone, { ok: false, stale: true, reason: 'nothing listens on its socket' });
  t.same(
    await requestRun(run.socket, { t: 'kill' }),
    { ok: true, answer: { t: 'bye', reason: 'killed', exitCode: 0 } },
    'kill is answered by bye',
  );
});

t.test('kill answered by a hang-up alone still ends', async (t) => {
  const dir = await socketDir(t);
  const run = await fake(t, dir, 'aaaaaa', { behaviour: 'kill-no-bye' });
  t.same(await requestRun(run.socket, { t: 'kill' }), { ok: true, answer: null });
});

t.test('resolveRun and thisFolder', async (t) => {
  const dir = await socketDir(t);
  await fake(t, dir, 'aaaaaa', { info: { cwd: '/p/a', workbench: '/p/a/.flower' } });
  await fake(t, dir, 'bbbbbb', { info: { cwd: '/p/b', workbench: '/p/b/.flower' } });
  const { runs } = await listRuns(dir);
  const own = 'npx flower-pty';
  t.equal(resolveRun(runs, { ...thisFolder('/p/b', {}), command: 'kill', own }).id, 'bbbbbb');
  t.equal(resolveRun(runs, { cwd: '/p/x', workbench: '/p/a/.flower', command: 'kill', own }).id, 'aaaaaa');
  t.throws(() => resolveRun(runs, { cwd: '/q', workbench: '/q/.flower', command: 'kill', own }), {
    name: 'FlowerError',
    message: /pass an id \(npx flower-pty kill <id>\)/,
  });
  t.same(thisFolder('/p/b', { FLOWER_PTY_WORKBENCH: 'wb' }), { cwd: '/p/b', workbench: '/p/b/wb' });
  t.same(thisFolder('/p/b', {}, '/abs/wb'), { cwd: '/p/b', workbench: '/abs/wb' });
});
