// Faults with the REAL claude against the mock API: claude SIGKILLed mid-turn, a 529 overloaded, a
// stream cut halfway, and the run server SIGKILLed (claude must notice its pty closed and exit).
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { text, usageFor } from '../../src/mock/messages-api.js';
import { startFlower, bySession, type FlowerRun } from '../helpers/flower-run.js';
import { serverPids } from '../helpers/run-servers.js';
import { alive } from './fake-flower.js';
import { sleep } from '../helpers/poll.js';

// claude is the child of the run server (the terminal's flower-pty is only a client)
const serverOf = (f: FlowerRun): number => serverPids(f.runtime)[0]!;
const claudePid = (f: FlowerRun): number =>
  Number(
    execFileSync('pgrep', ['-P', String(serverOf(f))])
      .toString()
      .trim()
      .split('\n')[0],
  );

t.test('claude SIGKILLed mid-turn: degraded handoff, the next generation starts', async (t) => {
  const f = await startFlower({
    t,
    respond: bySession(() => ({ kind: 'hang' })),
    prompt: 'ORIGINAL-REAL: go',
    flowerArgs: ['--window', '100k', '--review', '0'],
  });
  await f.api.waitForRequest((r) => r.isMain, 60_000);
  process.kill(claudePid(f), 'SIGKILL');
  const done = await f.waitForEvent('done', 30_000);
  t.equal(done.degraded, true);
  t.match(done.reason, /signal 9\) during working/);
  await f.waitForEvent('generation-start', 30_000, (e) => e.generation === 2);
  t.match(f.manifest().generations[0], { end: 'crash' });
});

t.test('a 529 overloaded (no retry): reported, the run keeps working', async (t) => {
  const f = await startFlower({
    t,
    respond: bySession(() => ({
      kind: 'error',
      status: 529,
      type: 'overloaded_error',
      message: 'Overloaded',
      retry: false,
    })),
    prompt: 'go',
    flowerArgs: ['--window', '100k', '--review', '0'],
  });
  await f.waitForEvent('api-error', 60_000);
  await sleep(1500);
  t.notOk(
    f.events().some((e) => e.event === 'done' || e.event === 'stopped'),
    'no handoff, no stop: a failed call is not a full context',
  );
  t.notOk(f.run.isExited(), 'flower-pty still running');
});

t.test('a stream cut halfway: no crash, no handoff', async (t) => {
  const f = await startFlower({
    t,
    respond: bySession((_r, i) =>
      i === 0 ? { kind: 'cut', afterText: 'half of a long answer '.repeat(20) } : text('recovered', usageFor(20_000)),
    ),
    prompt: 'go',
    flowerArgs: ['--window', '100k', '--review', '0'],
  });
  await f.api.waitForRequest((r) => r.isMain, 60_000);
  await sleep(8000);
  t.notOk(
    f.events().some((e) => e.event === 'done' || e.event === 'stopped' || e.event === 'child-exit'),
    'the generation goes on',
  );
  t.notOk(f.run.isExited());
});

t.test('the run server SIGKILLed: the real claude notices its pty closed and exits', async (t) => {
  const f = await startFlower({
    t,
    respond: bySession(() => text('idle now', usageFor(10_000))),
    prompt: 'go',
    flowerArgs: ['--window', '100k'],
  });
  await f.run.waitForScreen(/idle now/, 60_000);
  const pid = claudePid(f);
  t.ok(alive(pid));
  process.kill(serverOf(f), 'SIGKILL');
  t.equal((await f.run.exited).exitCode, 9, 'the attached terminal leaves too, saying the server died (exit 9)');
  await f.run.waitFor(() => !alive(pid), 15_000, 'claude to exit').catch(() => undefined);
  t.notOk(alive(pid), 'no orphaned claude');
});
