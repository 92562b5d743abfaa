// A run server left alone gives back what it holds for nothing, and is none the worse for it: with its
// terminal gone and claude quiet for QUIET_BEFORE_TRIM_MS, its resident file pages drop (the node
// binary's, mapped back when used), its log says so once, and a terminal attached afterwards is painted
// and types as before. A watcher (the web face's server follows every run) does not keep it from
// trimming. Real server, fake claude; takes the quiet's 15 s.
import t from 'tap';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { startFake } from './fake-flower.js';
import { serverPids, oneRun } from '../helpers/run-servers.js';
import { tempRoot } from '../helpers/real-claude.js';
import { requestRun } from '../../src/server/run-registry.js';
import { watchRun } from '../../src/web/run-watch.js';
import { QUIET_BEFORE_TRIM_MS } from '../../src/core/server/memory-trim.js';
import { sleep } from '../helpers/poll.js';

const fileKb = (pid: number) => Number(/RssFile:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

t.test(
  'detached and quiet: the server trims once, then attaches and types as before',
  { skip: process.platform !== 'linux' && 'the trim is Linux only' },
  async (t) => {
    const log = join(tempRoot(t, 'flower-idle-log-'), 'run.log'); // fresh: a log of an earlier run would say it trimmed
    const f = startFake({
      t,
      script: { default: { steps: [{ print: 'FIRST\r\n' }] } },
      prompt: 'go',
      flowerArgs: ['--no-workbench', '--log', log],
    });
    await f.run.waitFor(() => f.run.output().includes('fake>'), 15_000, 'the prompt');
    process.kill(f.run.pty.pid, 'SIGHUP');
    await f.run.exited;
    const [server] = serverPids(f.runtime);
    t.ok(server, 'the run server goes on');
    const before = fileKb(server!);
    let watched = 0;
    const watcher = watchRun((await oneRun(f.runtime)).socket, {
      message: () => void watched++,
      closed: () => undefined,
    });
    t.teardown(() => watcher.close());
    const trimmed = () => existsSync(log) && /idle: gave back/.test(readFileSync(log, 'utf8'));
    const deadline = performance.now() + QUIET_BEFORE_TRIM_MS + 30_000;
    while (!trimmed() && performance.now() < deadline) await sleep(200);
    t.ok(trimmed(), 'the log says it gave memory back, with a watcher connected all along');
    t.ok(watched > 0, 'the watcher was served');
    const after = fileKb(server!);
    t.ok(after < before - 10 * 1024, `its resident file pages dropped: ${before} → ${after} kB`);

    const b = f.attach(['--plain']);
    await b.waitForScreen('fake>', 15_000);
    b.pty.write('after the trim\r');
    await b.waitFor(() => b.output().includes('echo: after the trim'), 15_000, 'the echo');
    t.equal(
      readFileSync(log, 'utf8').match(/idle: gave back/g)?.length,
      1,
      'once: not again while a terminal is attached',
    );
    const answer = await requestRun((await oneRun(f.runtime)).socket, { t: 'kill' }, 20_000);
    t.ok(answer.ok, 'kill answered');
    t.equal((await b.exited).exitCode, 0);
  },
);
