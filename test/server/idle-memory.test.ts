// The run server's idle housekeeping: the trim is called once the run has been quiet with no terminal
// attached, not while one is, not twice in one quiet stretch, and again after activity; with no
// trim in this build it keeps no timer at all. The clock is the test's (real timers only wake the code
// up), so a loaded machine cannot make a trim come early.
import t from 'tap';
import { createIdleMemory } from '../../src/server/idle-memory.js';
import { sleep, untilWithin } from '../helpers/poll.js';

const QUIET = 30;

const until = untilWithin(5_000, 5);

function harness() {
  let attached = 0;
  let clock = 0;
  const trims: number[] = [];
  const lines: string[] = [];
  const idle = createIdleMemory({
    attached: () => attached,
    trim: () => (trims.push(clock), { advisedBytes: 8 * 1048576 }),
    log: (l) => lines.push(l),
    now: () => clock,
    quietMs: QUIET,
  });
  return {
    idle,
    trims,
    lines,
    attach: (n: number) => ((attached = n), idle.attachedChanged()),
    advance: (ms: number) => (clock += ms),
  };
}

t.test('quiet with no terminal attached: one trim, logged; none more while the quiet lasts', async (t) => {
  const h = harness();
  t.teardown(() => h.idle.dispose());
  h.advance(QUIET - 1);
  await sleep(4 * QUIET);
  t.equal(h.trims.length, 0, 'not before the quiet is over, however long the timers took');
  h.advance(1);
  await until('the trim', () => h.trims.length === 1);
  t.same(h.trims, [QUIET], 'once the quiet is over');
  t.match(h.lines[0], /^idle: gave back .*\(8 MB of mappings\)/);
  h.advance(100 * QUIET);
  await sleep(4 * QUIET);
  t.equal(h.trims.length, 1, 'not again in the same quiet stretch');
});

t.test("claude's output keeps pushing the trim back; after it stops, the trim comes", async (t) => {
  const h = harness();
  t.teardown(() => h.idle.dispose());
  for (let i = 0; i < 10; i++) {
    h.advance(QUIET - 5);
    h.idle.activity();
    await sleep(QUIET / 2);
  }
  t.equal(h.trims.length, 0, 'never while the run writes');
  h.advance(QUIET);
  await until('the trim after the output stopped', () => h.trims.length === 1);
  h.idle.activity();
  h.advance(QUIET);
  await until('the trim after the next quiet stretch', () => h.trims.length === 2);
});

t.test('a terminal attached: no trim however long it stays; its leaving starts the quiet again', async (t) => {
  const h = harness();
  t.teardown(() => h.idle.dispose());
  h.attach(1);
  h.advance(100 * QUIET);
  await sleep(4 * QUIET);
  t.equal(h.trims.length, 0, 'never with a terminal attached');
  h.idle.activity(); // its keys, claude's echo
  h.advance(100 * QUIET);
  await sleep(4 * QUIET);
  t.equal(h.trims.length, 0);
  h.attach(0);
  h.advance(QUIET - 1);
  await sleep(4 * QUIET);
  t.equal(h.trims.length, 0, 'not at once when it leaves');
  h.advance(1);
  await until('the trim after it left', () => h.trims.length === 1);
});

t.test('disposed: the timer is gone, nothing more is trimmed', async (t) => {
  const h = harness();
  h.idle.dispose();
  h.idle.activity();
  h.advance(100 * QUIET);
  await sleep(4 * QUIET);
  t.equal(h.trims.length, 0);
});

t.test('no trim in this build or system: nothing scheduled, every call a no-op', async (t) => {
  const idle = createIdleMemory({ attached: () => 0, trim: null, log: () => t.fail('nothing to log'), quietMs: 1 });
  idle.activity();
  idle.attachedChanged();
  await sleep(20);
  idle.dispose();
  t.pass('nothing logged, nothing thrown');
});
