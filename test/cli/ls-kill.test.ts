// `flower-pty ls`, `kill` and `status` as a person runs them (the built bin, a real process) against
// tiny in-test run servers in a private socket directory.
import t, { type Test } from 'tap';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { openSocketDir } from '../../src/server/socket-dir.js';
import { acquireWorkbenchLock } from '../../src/server/workbench-lock.js';
import { runKill } from '../../src/commands/kill.js';
import { createManifest } from '../../src/core/lineage/manifest.js';
import { startFakeRun, type FakeRun } from '../helpers/wire-server.js';
import { spawn } from '@lydell/node-pty';
import { controlsIn, HOSTILE_NAME } from '../helpers/hostile-name.js';
import { ownCommandHere } from '../../src/adapters/own-command-here.js';
import { runsAsPrinted } from '../helpers/printed-command.js';

interface Place {
  runtime: string;
  dir: string;
  env: Record<string, string>;
}

async function place(t: Test): Promise<Place> {
  const runtime = await mkdtemp(join(tmpdir(), 'fp-cli-'));
  t.teardown(() => rm(runtime, { recursive: true, force: true }));
  const dir = await openSocketDir({ XDG_RUNTIME_DIR: runtime });
  return { runtime, dir, env: { PATH: '/usr/bin:/bin', HOME: runtime, XDG_RUNTIME_DIR: runtime } };
}

// async, not spawnSync: the fake runs live in this process and must answer while the bin waits
function flower(
  args: string[],
  p: Place,
  cwd: string = p.runtime,
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [FLOWER_BIN, ...args], { env: p.env, cwd, timeout: 60_000 }, (error, out, err) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out, err });
    });
  });
}

/** a text as a regular expression that matches it alone */
function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

async function fake(t: Test, ...args: Parameters<typeof startFakeRun>): Promise<FakeRun> {
  const run = await startFakeRun(...args);
  t.teardown(() => run.close());
  return run;
}

t.test('ls: "no live runs", a table, one JSON array', async (t) => {
  const p = await place(t);
  const empty = await flower(['ls'], p);
  t.same(empty, { code: 0, out: 'no live runs\n', err: '' });
  t.same(await flower(['ls', '--json'], p), { code: 0, out: '[]\n', err: '' });

  await fake(t, p.dir, 'aaaaaa', {
    info: { clients: 2, generation: 3, phase: 'review', context: 150_000, cwd: '/p/a' },
  });
  await fake(t, p.dir, 'bbbbbb', { info: { started: '2026-12-01T05:00:00.000Z', cwd: '/p/b' } });
  const table = await flower(['ls'], p);
  t.equal(table.code, 0, table.err);
  const lines = table.out.trimEnd().split('\n');
  t.match(lines[0], /^ID +PID +PHASE +GEN +CONTEXT +CLIENTS +STARTED +NEEDS +CWD$/);
  t.match(
    lines[1],
    /^aaaaaa +\d+ +review +3 +150\.0K\/200\.0K +2 +2026-12-01T04:00:00Z +in review +\/p\/a$/,
    "a run in review waits on the person: the one picture's words",
  );
  t.match(lines[2], /^bbbbbb .* \/p\/b$/);

  const json = await flower(['ls', '--json'], p);
  const runs = JSON.parse(json.out) as Array<Record<string, unknown>>;
  t.equal(runs.length, 2);
  for (const key of [
    'id',
    'pid',
    'cwd',
    'workbench',
    'step',
    'generation',
    'phase',
    'context',
    'window',
    'clients',
    'started',
  ])
    t.ok(key in runs[0]!, `--json has ${key}`);
  t.match(runs[0], {
    id: 'aaaaaa',
    pid: process.pid,
    cwd: '/p/a',
    workbench: '/home/u/proj/.flower',
    step: 'work',
    generation: 3,
    phase: 'review',
    clients: 2,
  });
});

t.test('ls and ls --json: a run in a hostile folder shows it inert, and the JSON reads back whole', async (t) => {
  const p = await place(t);
  await fake(t, p.dir, 'eeeeee', {
    info: { cwd: `/p/${HOSTILE_NAME}`, workbench: `/p/${HOSTILE_NAME}/.flower`, phase: 'working\u009b2J' },
  });
  for (const args of [['ls'], ['ls', '--json']]) {
    const r = await flower(args, p);
    t.equal(r.code, 0, r.err);
    t.same(
      controlsIn(Buffer.from(r.out.replace(/\n/g, ''), 'utf8')),
      [],
      `${args.join(' ')}: nothing a terminal acts on`,
    );
  }
  const runs = JSON.parse((await flower(['ls', '--json'], p)).out) as Array<Record<string, unknown>>;
  t.match(runs[0], { cwd: `/p/${HOSTILE_NAME}`, workbench: `/p/${HOSTILE_NAME}/.flower`, phase: 'working\u009b2J' });
});

t.test('ls refuses a planted socket directory', async (t) => {
  const p = await place(t);
  await rm(p.dir, { recursive: true });
  await mkdir(p.dir, { mode: 0o777 });
  const { chmod } = await import('node:fs/promises');
  await chmod(p.dir, 0o777);
  const r = await flower(['ls'], p);
  t.equal(r.code, 2);
  t.match(
    r.err,
    /^flower-pty: refusing the socket directory .*: it is open to other users \(mode 777\); if you did not make it, remove it/,
  );
  t.equal(r.err.trim().split('\n').length, 1, 'one line');
});

t.test('kill: ends the run of this folder, or the id given, in one line', async (t) => {
  const p = await place(t);
  const proj = join(p.runtime, 'proj');
  await mkdir(proj);
  const a = await fake(t, p.dir, 'aaaaaa', { info: { cwd: proj, workbench: join(proj, '.flower') } });
  const b = await fake(t, p.dir, 'bbbbbb', { info: { cwd: '/elsewhere', workbench: '/elsewhere/.flower' } });
  const here = await flower(['kill'], p, proj);
  // outside a checkout and with no flower-pty on the PATH, the next step names the bin by its path
  const own = ownCommandHere(p.env, proj);
  t.match(own, /^node \S+\/bin\/flower-pty\.js$/);
  t.same(here, { code: 0, out: `run aaaaaa ended; pick the lineage up with ${own} --continue\n`, err: '' });
  runsAsPrinted(
    t,
    /^run aaaaaa ended; pick the lineage up with (.+) --continue$/.exec(here.out.trim())![1]!,
    proj,
    p.env,
  );
  t.match(
    a.received.map((m) => m.t),
    ['hello', 'info', 'hello', 'kill'],
    'ls then kill',
  );
  t.same(
    b.received.filter((m) => m.t === 'kill'),
    [],
    'the other run is untouched',
  );

  const ambiguous = await fake(t, p.dir, 'cccccc', { info: { cwd: '/third', workbench: null } });
  const choose = await flower(['kill'], p);
  t.equal(choose.code, 2);
  t.equal(
    choose.err,
    `flower-pty: 2 runs are live and none is this folder's; pass an id (${ownCommandHere(p.env, p.runtime)} kill <id>): bbbbbb (working, /elsewhere), cccccc (working, /third)\n`,
  );
  t.same(
    ambiguous.received.filter((m) => m.t === 'kill'),
    [],
  );

  const byId = await flower(['kill', 'cccccc'], p);
  t.equal(byId.code, 0, byId.err);
  t.equal(
    byId.out,
    'run cccccc ended; it ran with --no-workbench, so nothing was kept to continue from\n',
    'a --no-workbench run is not sent to --continue',
  );
  t.notMatch(byId.out, /--continue/);
  t.same((await readdir(p.dir)).sort(), ['bbbbbb.sock'], 'the killed runs took their sockets with them');

  const unknown = await flower(['kill', 'zzzzzz'], p);
  t.equal(unknown.code, 2);
  t.match(unknown.err, /no live run has id zzzzzz; live runs: bbbbbb/);
});

t.test('kill: a run that does not end is a non-zero line, bounded', async (t) => {
  const p = await place(t);
  const lines: string[] = [];
  const started = Date.now();
  const { FlowerError } = await import('../../src/core/errors.js');
  const hung = await startFakeRun(p.dir, 'hhhhhh', { info: { cwd: '/h' } });
  t.teardown(() => hung.close());
  // answers info but ignores kill
  hung.server.removeAllListeners('connection');
  hung.server.on('connection', async (socket) => {
    const { createFrameReader, parseClientMessage, encodeFrame } = await import('../../src/server/wire.js');
    const reader = createFrameReader({
      validate: parseClientMessage,
      onError: () => socket.destroy(),
      onMessage: (m) => {
        if (m.t === 'info') socket.write(encodeFrame({ t: 'info', run: hung.info }));
      },
    });
    socket.on('data', (c) => reader.push(c));
    socket.on('error', () => undefined);
  });
  const error = await runKill({ id: 'hhhhhh', cwd: '/', env: p.env, out: (l) => lines.push(l), timeoutMs: 700 }).catch(
    (e: Error) => e,
  );
  t.ok(error instanceof FlowerError);
  t.match(error, {
    exitCode: 7,
    message:
      /^run hhhhhh did not end: the run did not answer within 0.7 s; its server is pid \d+ \(kill \d+ ends it less cleanly\)$/,
  });
  t.ok(Date.now() - started < 10_000, 'bounded');
  t.same(lines, []);

  const silent = await fake(t, p.dir, 'ssssss', { behaviour: 'silent' });
  const named = await runKill({ id: 'ssssss', cwd: '/', env: p.env, out: (l) => lines.push(l), timeoutMs: 700 }).catch(
    (e: Error) => e,
  );
  t.match(
    named,
    {
      exitCode: 7,
      message: `run ssssss did not end: the run did not answer within 0.7 s; ${ownCommandHere(p.env, '/')} status in its folder names its pid`,
    },
    'a run too busy for ls is still asked when named',
  );
  t.match(
    silent.received.map((m) => m.t),
    ['hello', 'info', 'hello', 'kill'],
  );
});

t.test('status says whether a run is live on the workbench and how many clients it has', async (t) => {
  const p = await place(t);
  const workbench = join(p.runtime, 'proj', '.flower');
  await mkdir(workbench, { recursive: true });
  const none = await flower(['status', '--workbench', workbench], p);
  t.equal(none.code, 2, 'no manifest and no run: as before');
  const run = await fake(t, p.dir, 'aaaaaa', { info: { clients: 2, phase: 'working' } });
  const release = await acquireWorkbenchLock(workbench, { id: 'aaaaaa', socket: run.socket });
  const live = await flower(['status', '--workbench', workbench], p);
  t.equal(live.code, 0, live.err);
  const own = ownCommandHere(p.env, p.runtime);
  t.match(
    live.out,
    new RegExp(`^live: run aaaaaa \\(pid \\d+, working\\), 2 clients attached; ${escaped(own)} attach aaaaaa$`, 'm'),
  );
  const json = JSON.parse((await flower(['status', '--workbench', workbench, '--json'], p)).out) as { live: unknown };
  t.match(json.live, { id: 'aaaaaa', clients: 2, phase: 'working', socket: run.socket });
  release();
  await writeFile(
    join(workbench, 'manifest.json'),
    JSON.stringify(
      createManifest({ step: 'work', cwd: '/p', window: 200_000, at: 150_000, now: '2026-12-01T04:00:00.000Z' }),
    ),
  );
  const gone = await flower(['status', '--workbench', workbench], p);
  t.equal(gone.code, 0, gone.err);
  t.match(gone.out, /^step work · 0 generation\(s\)/);
  t.match(
    gone.out,
    new RegExp(`^no live run on this workbench \\(pick the lineage up with ${escaped(own)} --continue\\)$`, 'm'),
  );
  runsAsPrinted(t, own, p.runtime, p.env);
});

t.test(
  'attach from a terminal the server does not draw: the client loads its face then and keeps what came meanwhile',
  async (t) => {
    const p = await place(t);
    const run = await fake(t, p.dir, 'cccccc', { behaviour: 'stream' });
    // a real terminal, so the client names it; the fake server answers as one that could not open it
    const term = spawn(process.execPath, [FLOWER_BIN, 'attach', 'cccccc', '--plain'], {
      cols: 80,
      rows: 24,
      env: p.env,
      cwd: p.runtime,
    });
    let seen = '';
    term.onData((d) => (seen += d));
    const exit = await new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
    const hello = run.received.find((m) => m.t === 'hello' && m.role === 'attach'); // after ls's query
    t.match(
      hello,
      { t: 'hello', role: 'attach', face: 'plain', tty: /^\/dev\/pts\/\d+$/ },
      'the client named its terminal',
    );
    t.equal(exit, 0, seen);
    const screen = seen.indexOf('STREAMED-SCREEN');
    const output = seen.indexOf('STREAMED-OUTPUT');
    t.ok(screen >= 0 && output > screen, 'the screen, then the output, both drawn by the client');
    t.match(seen, /the stream is over/, "the run's last words");
  },
);
