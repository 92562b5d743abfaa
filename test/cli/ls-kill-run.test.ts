// ls, status, the workbench lock and kill against a real run server (the built flower-pty, the fake
// claude): what a person sees from a second terminal while a run lives, and after it is killed.
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { ownCommandHere } from '../../src/adapters/own-command-here.js';
import { runsAsPrinted } from '../helpers/printed-command.js';
import { oneRun } from '../helpers/run-servers.js';
import { startFake, alive, FAKE_CLAUDE } from '../faults/fake-flower.js';

t.test('a live run: ls lists it, status sees it, a second run is refused, kill ends it cleanly', async (t) => {
  const f = startFake({ t, script: { default: { steps: [{ modes: true }] } } });
  await f.run.waitFor(() => f.run.output().includes('modes on'), 20_000, 'the fake claude is up');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(f.root, 'home'),
    XDG_RUNTIME_DIR: f.runtime,
    CLAUDE_CONFIG_DIR: f.configDir,
  };
  // async: the run must go on answering while the command waits
  const flower = (args: string[]) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(process.execPath, [FLOWER_BIN, ...args], { env, cwd: f.project, timeout: 60_000 }, (error, out, err) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
      );
    });
  const run = await oneRun(f.runtime);
  const claude = f.spawns()[0]!.pid;

  const json = await flower(['ls', '--json']);
  t.equal(json.code, 0, json.err);
  const runs = JSON.parse(json.out) as Array<Record<string, unknown>>;
  t.equal(runs.length, 1);
  t.match(runs[0], {
    id: run.id,
    pid: Number,
    cwd: f.project,
    workbench: f.workbench,
    step: 'work',
    generation: 1,
    phase: String,
    context: Number,
    window: Number,
    clients: 1,
    started: /^\d{4}-/,
  });
  t.not(runs[0]!.pid, f.run.pty.pid, 'the pid is the server, not the terminal that started it');
  const table = await flower(['ls']);
  t.match(table.out, new RegExp(`^${run.id} +${String(runs[0]!.pid)} .* 1 +\\S+ +- +${f.project}$`, 'm'));

  // each next step as typed in the project folder (no flower-pty of this checkout on the PATH: the bin's path)
  const own = ownCommandHere(env, f.project);
  const ownWords = own.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const status = await flower(['status', '--workbench', f.workbench]);
  t.equal(status.code, 0, status.err);
  t.match(
    status.out,
    new RegExp(
      `^live: run ${run.id} \\(pid ${String(runs[0]!.pid)}, \\w+\\), 1 client attached; ${ownWords} attach ${run.id}$`,
      'm',
    ),
  );

  const second = await flower(['--plain', '--claude', FAKE_CLAUDE, '--workbench', f.workbench]);
  t.not(second.code, 0, 'a second run on the workbench is refused');
  t.match(second.err, new RegExp(`look in with ${ownWords} attach ${run.id}, end it with ${ownWords} kill ${run.id}`));
  t.equal(second.err.trim().split('\n').length, 1, 'in one line');
  t.equal(f.spawns().length, 1, 'no second claude started');

  const kill = await flower(['kill']);
  t.same(
    kill,
    { code: 0, out: `run ${run.id} ended; pick the lineage up with ${own} --continue\n`, err: '' },
    'no id: the run of this folder',
  );
  runsAsPrinted(t, own, f.project, env);
  const exit = await f.run.exited;
  t.equal(exit.exitCode, 0, 'the attached terminal ends quietly');
  const m = await f.manifestWhen((m) => m.generations?.at(-1)?.ended_at != null);
  t.ok(m.generations.at(-1).ended_at, "the manifest's last generation is closed");
  await f.run.waitFor(() => !alive(claude), 15_000, 'claude ended');
  t.same(
    readdirSync(join(f.runtime, 'flower-pty')).filter((n) => n.endsWith('.sock')),
    [],
    'the socket is gone',
  );
  t.notOk(existsSync(join(f.workbench, 'run.lock')), 'the lock is released');
  t.same(await flower(['ls']), { code: 0, out: 'no live runs\n', err: '' });
  t.match((await flower(['status', '--workbench', f.workbench])).out, /^no live run on this workbench/m);
});
