// End to end, REAL claude: an idle claude lets its unattended run server trim. Claude at rest writes
// nothing to its terminal (no clock, no blinking it draws itself), so once the terminal that started
// the run is gone, the server is quiet and gives back the pages it holds for nothing
// (core/server/memory-trim.ts); a claude that kept drawing would keep it from ever trimming.
import t from 'tap';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { text, usageFor, type MockRequest, type MockReply } from '../../src/mock/messages-api.js';
import { startFlower } from '../helpers/flower-run.js';
import { oneRun, serverPids } from '../helpers/run-servers.js';
import { tempRoot } from '../helpers/real-claude.js';
import { requestRun } from '../../src/server/run-registry.js';
import { QUIET_BEFORE_TRIM_MS } from '../../src/core/server/memory-trim.js';
import { sleep } from '../helpers/poll.js';

const fileKb = (pid: number) => Number(/RssFile:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);

t.test(
  'claude idle, nobody attached: the run server trims',
  { skip: process.platform !== 'linux' && 'the trim is Linux only' },
  async (t) => {
    const log = join(tempRoot(t, 'flower-idle-log-'), 'run.log'); // fresh: a log of an earlier run would say it trimmed
    const respond = (req: MockRequest): MockReply =>
      req.isMain ? text('all done, waiting for you', usageFor(20_000)) : text('side');
    const f = await startFlower({ t, respond, prompt: 'say you are done', flowerArgs: ['--log', log] });
    await f.run.waitFor(
      async () => /all done, waiting for you/.test(await f.run.screenText()),
      60_000,
      'the answer on the screen',
    );
    process.kill(f.run.pty.pid, 'SIGHUP');
    await f.run.exited;
    const [server] = serverPids(f.runtime);
    const before = fileKb(server!);
    const trimmed = () => existsSync(log) && /idle: gave back/.test(readFileSync(log, 'utf8'));
    const deadline = performance.now() + QUIET_BEFORE_TRIM_MS + 45_000;
    while (!trimmed() && performance.now() < deadline) await sleep(250);
    t.ok(trimmed(), 'the log says the server gave memory back while claude sat idle');
    t.ok(fileKb(server!) < before - 10 * 1024, 'its resident file pages dropped');
    const answer = await requestRun((await oneRun(f.runtime)).socket, { t: 'kill' }, 30_000);
    t.ok(answer.ok, 'kill answered');
  },
);
