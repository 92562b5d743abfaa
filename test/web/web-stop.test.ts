// `flower-pty web --stop` ends the web face this user started with `web -d`: one line, exit 0, the
// process gone and its claim given back; with none running, one line and exit 0 too; a claim whose pid
// is now some other process is not signalled.
import t from 'tap';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runtimeDir } from '../helpers/run-servers.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { tempRoot } from '../helpers/temp-root.js';
import { processAlive } from '../../src/adapters/process-alive.js';

const runtime = runtimeDir(tempRoot(t, 'flower-web-stop-'));
const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
const dir = join(runtime, 'flower-pty', 'web');
const flower = (...args: string[]) =>
  spawnSync(process.execPath, [FLOWER_BIN, 'web', ...args], { env, encoding: 'utf8', timeout: 30_000 });

t.test('none running: one line, exit 0', async (t) => {
  const r = flower('--stop');
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stdout, 'no web face of yours is running\n');
  t.equal(r.stderr, '');
});

t.test('web -d, then web --stop: it ends, one line, exit 0', async (t) => {
  const started = flower('-d', '--listen', '127.0.0.1:0');
  t.equal(started.status, 0, started.stderr);
  t.match(started.stderr, /flower-pty web --stop stops it/, 'the start says how to stop it');
  const pid = Number(/pid (\d+)/.exec(started.stderr)?.[1]);
  t.teardown(() => {
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  });
  t.ok(processAlive(pid));
  const r = flower('--stop');
  t.equal(r.status, 0, r.stderr);
  t.match(
    r.stdout,
    new RegExp(`^stopped the web face \\(pid ${pid}, http://127\\.0\\.0\\.1:\\d+\\); the runs go on\\n$`),
  );
  t.notOk(processAlive(pid), 'the process is gone when --stop returns');
  t.notOk(existsSync(join(dir, 'server.json')), 'its claim is given back');
  t.equal(flower('--stop').stdout, 'no web face of yours is running\n', 'again: none');
});

t.test('a claim naming a pid that is no web face: not signalled', async (t) => {
  const other = spawn('sleep', ['30']);
  t.teardown(() => other.kill('SIGKILL'));
  writeFileSync(
    join(dir, 'server.json'),
    JSON.stringify({ pid: other.pid, url: 'http://127.0.0.1:1', allowInput: false }),
    { mode: 0o600 },
  );
  const r = flower('--stop');
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stdout, 'no web face of yours is running\n');
  t.ok(processAlive(other.pid!), 'the other process lives');
  t.match(readFileSync(join(dir, 'server.json'), 'utf8'), /"pid"/);
});
