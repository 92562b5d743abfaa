// A title that never ends, written to claude's terminal by another process that holds it (an MCP stdio
// server keeps claude's pty as its controlling terminal): ESC ] 0 ; then 400,000 stray UTF-8 continuation
// bytes and 20,000 letters. The native relay once counted those bytes as nothing, held them all and wrote
// them past its buffer: the run server died (and claude with it). Now the run server, real and with the
// native relay, lives through it, still echoes what is typed, holds no more memory than a flood of plain
// output would make it hold, and the person's terminal gets the bytes, since past 4,096 units no title is one.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { startFake } from './fake-flower.js';
import { serverPids } from '../helpers/run-servers.js';

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
const bomb = Buffer.concat([Buffer.from('\u001b]0;'), Buffer.alloc(400_000, 0x80), Buffer.alloc(20_000, 0x61)]);

t.test(
  'the title bomb through a real pty: the run server lives, answers and stays small',
  { skip: process.platform !== 'linux' && 'reads /proc' },
  async (t) => {
    const f = startFake({
      t,
      script: {
        default: {
          steps: [
            { print: 'FIRST\r\n' },
            { sleep: 1500 },
            { tty: bomb.toString('base64') },
            { print: 'AFTER-BOMB\r\n' },
          ],
        },
      },
      prompt: 'go',
      flowerArgs: ['--no-workbench'],
    });
    await f.run.waitFor(() => f.run.output().includes('FIRST'), 20_000, 'the first output');
    const [server] = serverPids(f.runtime);
    t.ok(server, 'a run server serves the run');
    const before = rssKb(server!);
    const gone = () => /the run server \w+ is gone/.test(f.run.output());
    await f.run.waitFor(
      () => (f.run.output().includes('AFTER-BOMB') && f.run.output().includes('fake>')) || gone(),
      60_000,
      'the output after the bomb',
    );
    t.notOk(gone(), 'the client did not lose its run server');
    t.same(serverPids(f.runtime), [server], 'the same run server is alive after it');
    t.ok(f.run.output().includes('a'.repeat(1000)), 'the bytes past the "title" reached the terminal');
    f.run.pty.write('still here\r');
    await f.run.waitFor(() => f.run.output().includes('echo: still here'), 20_000, 'the echo of a typed line');
    const after = rssKb(server!);
    // 420 KB went through it: its emulator and queues hold some of it, nothing near a copy per read
    t.ok(after - before < 64 * 1024, `its memory grew ${after - before} kB (${before} → ${after} kB), under 64 MB`);
    f.run.pty.write('quit\r');
    await f.run.exited;
  },
);
