// The notify policy: the message of each event, the rate limit, and the environment the command gets.
import t from 'tap';
import {
  DEFAULT_NOTIFY_MAX_RUNNING,
  DEFAULT_NOTIFY_WINDOW_MS,
  INITIAL_NOTIFY_STATE,
  NOTIFY_EVENTS,
  cleanNotifyText,
  decideNotify,
  notifyEnv,
  notifyMessage,
} from '../../../src/core/run/notify-policy.js';
import type { NotifyEvent, NotifyLoad, NotifyState } from '../../../src/core/run/notify-policy.js';

// The parked message shows local wall-clock time; pin the zone so the expected text is fixed.
process.env.TZ = 'UTC';

const one: Record<(typeof NOTIFY_EVENTS)[number], NotifyEvent> = {
  'needs-permission': { name: 'needs-permission', tool: 'Bash touch x' },
  question: { name: 'question', text: 'Which parser should we use? (Hand-written / Generated)' },
  idle: { name: 'idle' },
  parked: { name: 'parked', resetsAtMs: Date.UTC(2026, 11, 1, 3, 4, 0) },
  resumed: { name: 'resumed' },
  review: { name: 'review', document: '/p/.flower/notes/交接-work.md' },
  degraded: { name: 'degraded', reason: 'no document within 300 s', document: '/p/.flower/notes/交接-work.md' },
  brake: { name: 'brake', reason: '8 generations in a row' },
  'crash-stop': { name: 'crash-stop', reason: 'claude exited 1: Not logged in' },
  ended: { name: 'ended', reason: 'claude quit' },
};

t.test('every event has its own one-line message', async (tt) => {
  const messages = NOTIFY_EVENTS.map((name) => notifyMessage(one[name]));
  tt.same(messages, [
    'waiting for your permission: Bash touch x',
    'claude asks: Which parser should we use? (Hand-written / Generated)',
    'claude is idle, waiting for you',
    'parked on a usage limit until 03:04',
    'the usage limit has lifted: the session goes on',
    'a handoff document waits for your review: /p/.flower/notes/交接-work.md',
    'degraded handoff (the session did not write its document): no document within 300 s',
    'stopped by the brake: 8 generations in a row',
    'stopped after claude crashed: claude exited 1: Not logged in',
    'the run ended: claude quit',
  ]);
  tt.equal(notifyMessage({ name: 'parked', resetsAtMs: null }), 'parked on a usage limit');
});

t.test('text from a tool call loses its control characters and is cut short', async (tt) => {
  tt.equal(cleanNotifyText('touch a\n\u001b]0;pwned\u0007b\r\n'), 'touch a ]0;pwned b');
  const long = cleanNotifyText('x'.repeat(1000));
  tt.equal(long.length, 300);
  tt.ok(long.endsWith('…'));
  tt.equal(
    notifyMessage({ name: 'needs-permission', tool: 'Bash printf "a\\nb"\nrm -rf /' }),
    'waiting for your permission: Bash printf "a\\nb" rm -rf /',
  );
  tt.equal(
    notifyMessage({ name: 'question', text: 'Ship it?\n\u001b[2J (yes / no)' }),
    'claude asks: Ship it? [2J (yes / no)',
  );
});

t.test('a repeat inside the window is suppressed; after it, or with another message, it is sent', async (tt) => {
  let state: NotifyState = INITIAL_NOTIFY_STATE;
  const step = (event: NotifyEvent, now: number): boolean => {
    const d = decideNotify(state, event, now, 60_000);
    state = d.state;
    return d.send !== undefined;
  };
  tt.equal(step(one.idle, 0), true, 'the first idle');
  tt.equal(step(one.idle, 59_999), false, 'a repeat within a minute');
  tt.equal(step({ name: 'needs-permission', tool: 'Bash touch x' }, 1_000), true, 'another event is not held back');
  tt.equal(
    step({ name: 'needs-permission', tool: 'Bash touch y' }, 2_000),
    true,
    'the same event about another tool is news',
  );
  tt.equal(step({ name: 'needs-permission', tool: 'Bash touch x' }, 3_000), false, 'the same tool again is a repeat');
  tt.equal(step(one.idle, 60_000), true, 'once the window has passed since the last one sent');
  tt.equal(step(one.idle, 61_000), false);
});

t.test('what ends a run is never suppressed', async (tt) => {
  for (const name of ['brake', 'crash-stop', 'ended'] as const) {
    let state: NotifyState = INITIAL_NOTIFY_STATE;
    for (let i = 0; i < 3; i++) {
      const d = decideNotify(state, one[name], i);
      state = d.state;
      tt.ok(d.send, `${name} #${i + 1}`);
    }
  }
});

t.test('the state is not mutated and the default window is five minutes', async (tt) => {
  const first = decideNotify(INITIAL_NOTIFY_STATE, one.resumed, 1000);
  tt.same(INITIAL_NOTIFY_STATE.lastSent, {}, 'the input state is untouched');
  tt.equal(DEFAULT_NOTIFY_WINDOW_MS, 300_000);
  tt.notOk(decideNotify(first.state, one.resumed, 1000 + 299_999).send);
  tt.ok(decideNotify(first.state, one.resumed, 1000 + 300_000).send);
});

t.test('the environment carries the event; the document only where there is one', async (tt) => {
  const run = { run: 'work gen 3', cwd: '/home/me/proj' };
  const review = decideNotify(INITIAL_NOTIFY_STATE, one.review, 0).send!;
  tt.same(notifyEnv(review, run), {
    FLOWER_PTY_EVENT: 'review',
    FLOWER_PTY_MESSAGE:
      'flower-pty (work gen 3): a handoff document waits for your review: /p/.flower/notes/交接-work.md',
    FLOWER_PTY_RUN: 'work gen 3',
    FLOWER_PTY_CWD: '/home/me/proj',
    FLOWER_PTY_DOCUMENT: '/p/.flower/notes/交接-work.md',
  });
  const idle = decideNotify(INITIAL_NOTIFY_STATE, one.idle, 0).send!;
  tt.notOk('FLOWER_PTY_DOCUMENT' in notifyEnv(idle, run));
  tt.equal(decideNotify(INITIAL_NOTIFY_STATE, one.degraded, 0).send?.document, '/p/.flower/notes/交接-work.md');
});

t.test("run events map to notifications; each generation's document is news of its own", async (t) => {
  const { notifyEventOf } = await import('../../../src/core/run/notify-policy.js');
  const first = notifyEventOf({ event: 'review', generation: 1, path: '/p/doc.md' })!;
  const second = notifyEventOf({ event: 'review', generation: 2, path: '/p/doc.md' })!;
  const a = decideNotify(INITIAL_NOTIFY_STATE, first, 0);
  const b = decideNotify(a.state, second, 1_000);
  t.ok(a.send && b.send, 'two reviews of the same file in a row both go out');
  t.match(b.send?.message, /^generation 2's handoff document waits for your review: \/p\/doc\.md$/);
  t.same(notifyEventOf({ event: 'ended', exitCode: 3, message: 'stopped after 8 generations' }), {
    name: 'brake',
    reason: 'stopped after 8 generations',
  });
  t.same(notifyEventOf({ event: 'ended', exitCode: 4, message: 'claude crashed 3 times' }), {
    name: 'crash-stop',
    reason: 'claude crashed 3 times',
  });
  t.same(notifyEventOf({ event: 'ended', exitCode: 0 }), { name: 'ended', reason: 'claude was quit' });
  t.same(notifyEventOf({ event: 'needs-permission', generation: 1, what: 'Bash touch x' }), {
    name: 'needs-permission',
    tool: 'Bash touch x',
  });
  t.equal(
    notifyEventOf({ event: 'near', generation: 1, context: 1, warnAt: 0 }),
    null,
    'not every event pages a person',
  );
  t.same(
    notifyEventOf({ event: 'parked', generation: 1, until: null, autoContinue: false }),
    { name: 'parked', resetsAtMs: null },
    'a limit with no known reset',
  );
  t.same(notifyEventOf({ event: 'degraded', generation: 2, path: null, reason: 'timeout' }), {
    name: 'degraded',
    reason: 'timeout',
    document: null,
    generation: 2,
  });
});

t.test(
  'the cap on commands still running: dropped with a line for the log, and counted for the rate limit',
  async (tt) => {
    const cases: Array<[string, NotifyLoad | undefined, 'send' | 'dropped']> = [
      ['no load given: none running', undefined, 'send'],
      ['below the default cap', { running: DEFAULT_NOTIFY_MAX_RUNNING - 1 }, 'send'],
      ['at the default cap', { running: DEFAULT_NOTIFY_MAX_RUNNING }, 'dropped'],
      ['a cap of its own', { running: 1, maxRunning: 1 }, 'dropped'],
      ['under a cap of its own', { running: 4, maxRunning: 5 }, 'send'],
    ];
    for (const [what, load, expected] of cases) {
      const d = decideNotify(INITIAL_NOTIFY_STATE, { name: 'brake', reason: 'x' }, 0, undefined, load);
      tt.equal(d.send !== undefined ? 'send' : d.dropped !== undefined ? 'dropped' : 'quiet', expected, what);
      if (expected === 'dropped')
        tt.match(d.dropped, /^dropped, \d+ earlier commands are still running$/, `${what}: the log line`);
    }
    const busy = decideNotify(INITIAL_NOTIFY_STATE, { name: 'idle' }, 0, 60_000, { running: 3 });
    tt.ok(busy.dropped, 'dropped while busy');
    const again = decideNotify(busy.state, { name: 'idle' }, 1_000, 60_000, { running: 0 });
    tt.same([again.send, again.dropped], [undefined, undefined], 'its repeat inside the window stays quiet');
  },
);
