// Tests for the workbench lock: taken whole, a live run refuses a second one with `attach <id>`,
// stale locks (dead pid, dead socket, garbage) are taken over, a young lock of a starting run is not.
import t, { type Test } from 'tap';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireWorkbenchLock, lockHolder, readWorkbenchLock } from '../../src/server/workbench-lock.js';
import { openSocketDir } from '../../src/server/socket-dir.js';
import { startFakeRun } from '../helpers/wire-server.js';
import { ownCommandHere } from '../../src/adapters/own-command-here.js';

// the refusal's next steps are typed as flower-pty works where the run is (here: this test's folder)
const own = ownCommandHere(process.env, process.cwd());

async function place(t: Test): Promise<{ dir: string; workbench: string }> {
  const runtime = await mkdtemp(join(tmpdir(), 'fp-wl-'));
  t.teardown(() => rm(runtime, { recursive: true, force: true }));
  return { dir: await openSocketDir({ XDG_RUNTIME_DIR: runtime }), workbench: join(runtime, 'proj', '.flower') };
}

// a pid that certainly belonged to a process that has ended
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

const HOUR_AGO = () => new Date(Date.now() - 3600_000).toISOString();

t.test('taken with its fields, read back, released only by its owner', async (t) => {
  const { dir, workbench } = await place(t);
  const release = await acquireWorkbenchLock(workbench, { id: 'aaaaaa', socket: join(dir, 'aaaaaa.sock') });
  const lock = await readWorkbenchLock(workbench);
  t.match(lock, { pid: process.pid, id: 'aaaaaa', socket: join(dir, 'aaaaaa.sock'), started: /^\d{4}-\d\d-\d\dT/ });
  t.same(await readdir(workbench), ['run.lock'], 'no temp file is left');
  release();
  t.equal(await readWorkbenchLock(workbench), null);
  release();
  t.pass('a second release is harmless');

  const mine = await acquireWorkbenchLock(workbench, { id: 'aaaaaa', socket: join(dir, 'x.sock') });
  await writeFile(join(workbench, 'run.lock'), JSON.stringify({ pid: 1, id: 'bbbbbb', socket: '/x', started: 'now' }));
  mine();
  t.match(await readWorkbenchLock(workbench), { id: 'bbbbbb' }, 'a lock that is no longer ours is not removed');
});

t.test('a live run refuses a second one with one line naming attach', async (t) => {
  const { dir, workbench } = await place(t);
  const run = await startFakeRun(dir, 'aaaaaa');
  t.teardown(() => run.close());
  await acquireWorkbenchLock(workbench, { id: 'aaaaaa', socket: run.socket, started: HOUR_AGO() });
  const error = await acquireWorkbenchLock(workbench, { id: 'bbbbbb', socket: join(dir, 'bbbbbb.sock') }).catch(
    (e: Error) => e,
  );
  t.match(error, {
    name: 'FlowerError',
    message: `the workbench ${workbench} is taken by a live run, aaaaaa (pid ${process.pid}); look in with ${own} attach aaaaaa, end it with ${own} kill aaaaaa, or use another --workbench`,
  });
  t.match(await readWorkbenchLock(workbench), { id: 'aaaaaa' }, 'the lock is untouched');
  t.match(await lockHolder(await readWorkbenchLock(workbench)), { state: 'live' });
});

t.test('a run that holds the lock but does not answer is not pushed aside', async (t) => {
  const { dir, workbench } = await place(t);
  const run = await startFakeRun(dir, 'ssssss', { behaviour: 'silent' });
  t.teardown(() => run.close());
  await acquireWorkbenchLock(workbench, { id: 'ssssss', socket: run.socket, started: HOUR_AGO() });
  await t.rejects(acquireWorkbenchLock(workbench, { id: 'bbbbbb', socket: '/x' }), {
    message: new RegExp(
      `run ssssss \\(pid \\d+\\), which does not answer; if it is hung, end it with kill \\d+; look in with ${own} attach ssssss,`,
    ),
  });
});

t.test('a young lock whose socket is not there yet is a run starting', async (t) => {
  const { dir, workbench } = await place(t);
  await acquireWorkbenchLock(workbench, { id: 'aaaaaa', socket: join(dir, 'aaaaaa.sock') });
  await t.rejects(acquireWorkbenchLock(workbench, { id: 'bbbbbb', socket: '/x' }), {
    message: new RegExp(`look in with ${own} attach aaaaaa,`),
  });
});

t.test('stale locks are taken over', async (t) => {
  const { dir, workbench } = await place(t);
  const cases: Array<[string, string]> = [
    [
      'the pid is gone',
      JSON.stringify({
        pid: deadPid(),
        id: 'dead00',
        socket: join(dir, 'dead00.sock'),
        started: new Date().toISOString(),
      }),
    ],
    [
      'the pid lives (reused) but nothing listens, for an hour',
      JSON.stringify({ pid: process.pid, id: 'old000', socket: join(dir, 'old000.sock'), started: HOUR_AGO() }),
    ],
    ['garbage', '{"half a lock'],
    ['not a lock', JSON.stringify({ pid: 'x' })],
  ];
  await mkdir(workbench, { recursive: true });
  for (const [name, text] of cases) {
    await writeFile(join(workbench, 'run.lock'), text);
    const release = await acquireWorkbenchLock(workbench, { id: 'new000', socket: join(dir, 'new000.sock') });
    t.match(await readWorkbenchLock(workbench), { id: 'new000' }, name);
    release();
  }
  t.same(await readdir(workbench), [], 'nothing is left behind');
});

t.test('the lock file is whole from the moment it exists', async (t) => {
  const { workbench } = await place(t);
  await acquireWorkbenchLock(workbench, { id: 'aaaaaa', socket: '/s', pid: 4242, started: '2026-12-01T04:00:00.000Z' });
  t.same(JSON.parse(await readFile(join(workbench, 'run.lock'), 'utf8')), {
    pid: 4242,
    id: 'aaaaaa',
    socket: '/s',
    started: '2026-12-01T04:00:00.000Z',
  });
});

t.test('a zombie counts as gone (a SIGKILLed server nobody reaped must not hold the lock)', async (t) => {
  const { spawn } = await import('node:child_process');
  const { processAlive } = await import('../../src/adapters/process-alive.js');
  // `sleep 0` exits at once, and its parent then becomes `sleep 5`, which never reaps it: a zombie for 5 s.
  const parent = spawn('/bin/sh', ['-c', 'sleep 0 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
  t.teardown(() => parent.kill('SIGKILL'));
  const pid = await new Promise<number>((resolve) =>
    parent.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
  );
  const deadline = performance.now() + 4_000;
  const zombie = () => /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  while (!zombie() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  t.ok(zombie(), 'the process is a zombie now');
  t.equal(processAlive(pid), false, 'and a zombie is not alive');
  t.equal(processAlive(parent.pid!), true, 'its living parent is');
});
