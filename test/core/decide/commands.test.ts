// A person's commands and keystrokes (core/decide/sources/commands.ts), driven directly.
import t from 'tap';
import { commanded, typed } from '../../../src/core/decide/sources/commands.js';
import { decide } from '../../../src/core/decide/decide.js';
import type { RunInput, RunState } from '../../../src/core/run/run-state.js';
import { command, given, reading, stopHook, through, working, table } from './run.js';

const key = { type: 'typed' as const, now: 5, data: 'x' };
type Command = Extract<RunInput, { type: 'command' }>;
const review = () => through(working(), (o) => o.cycle({ phase: 'review', reviewUntil: 5_000 }), null).state;

const rows: Array<{
  name: string;
  given: () => RunState;
  events: Command[];
  effects: string[];
  state?: (s: RunState) => unknown;
  expect?: unknown;
}> = [
  {
    name: 'force-handoff arms a cut for the next boundary',
    given: working,
    events: [command('force-handoff') as Command],
    effects: [],
    state: (s) => [s.cycle.pendingCut, /handoff armed/.test(s.note)],
    expect: [true, true],
  },
  {
    name: 'force-handoff with claude idle types the request at once',
    given: () => given([stopHook('', 1)], {}, working()),
    events: [command('force-handoff', 2) as Command],
    effects: ['type-into-child', 'writing'],
  },
  {
    name: 'force-handoff before the session is seen does nothing but say it is armed',
    given: () => through(working(), (o) => o.gen({ sessionSeen: false }), null).state,
    events: [command('force-handoff') as Command],
    effects: [],
    state: (s) => s.cycle.pendingCut,
    expect: false,
  },
  {
    name: 'quit ends claude and the run',
    given: working,
    events: [command('quit') as Command],
    effects: ['end-child', 'ended', 'finish'],
    state: (s) => [s.cycle.phase, s.manifest.generations[0]?.end],
    expect: ['stopped', 'quit'],
  },
  {
    name: 'quit while the document is written is a stop, not a quit',
    given: () => given([reading(152_000), stopHook('', 1)], {}, working()),
    events: [command('quit', 2) as Command],
    effects: ['end-child', 'ended', 'finish'],
    state: (s) => s.manifest.generations[0]?.end,
    expect: 'stopped',
  },
  {
    name: 'hold stops the review clock',
    given: review,
    events: [command('hold') as Command],
    effects: [],
    state: (s) => s.cycle.held,
    expect: true,
  },
  {
    name: 'release before the review is over only releases',
    given: review,
    events: [command('hold') as Command, command('release', 4_999) as Command],
    effects: [],
    state: (s) => [s.cycle.held, s.cycle.phase],
    expect: [false, 'review'],
  },
  {
    name: 'release after it starts the successor',
    given: review,
    events: [command('hold') as Command, command('release', 99_001) as Command],
    effects: ['read-seed'],
    state: (s) => s.cycle.phase,
    expect: 'respawning',
  },
];

table(rows, (s, row) => through(s, commanded, ...row.events));

t.test('keystrokes: a person typing at an idle prompt, or at a parked session', async (t) => {
  const idle = given([stopHook('', 1)], {}, working());
  t.equal(through(idle, typed, key).state.cycle.typed, true, 'their draft is never typed over');
  t.equal(
    through(working(), typed, key).state.cycle.typed,
    false,
    'typing into a busy session is no draft at the prompt',
  );
  const parked = through(
    working(),
    (o) => o.set({ waiting: { kind: 'parked', since: 1, until: null, autoContinue: false, continued: false } }),
    null,
  ).state;
  t.match(
    through(parked, typed, key).state.waiting,
    { kind: 'parked', continued: true },
    'a person there decides when to continue',
  );
});

t.test(
  'decide() on a key that changes nothing in the run: the same run, no effects (it skips rebuilding the view); the first key at an idle prompt still counts',
  async (t) => {
    const busy = working();
    const d = decide(busy, { type: 'typed', now: 10, data: 'a' });
    t.equal(d.state, busy, 'the very same run');
    t.same(d.effects, [], 'no status shown again, no timer set again');
    const idle = given([stopHook('', 1)], {}, working());
    const first = decide(idle, { type: 'typed', now: 10, data: 'a' });
    t.equal(first.state.cycle.typed, true, 'the first key at an idle prompt still counts');
    t.not(first.state, idle);
    const second = decide(first.state, { type: 'typed', now: 20, data: 'b' });
    t.equal(second.state, first.state, 'the next ones change nothing');
    t.same(second.effects, []);
  },
);

t.test("the terminal's own reports are nobody at the prompt: a handoff due is still typed there", async (t) => {
  const idle = given([stopHook('', 1)], {}, working());
  for (const data of [
    '\u001b[?62;22c',
    '\u001b[>1;10;0c',
    '\u001b[12;40R',
    '\u001b[I',
    '\u001b[O',
    '\u001b[?2026;2$y',
    '\u001b[?0u',
    '\u001b]11;rgb:0000/0000/0000\u001b\\',
    '\u001b]10;rgb:ffff/ffff/ffff\u0007',
    '\u001bP1+r544e=787465726d\u001b\\',
    '\u001b[O\u001b[I',
  ]) {
    t.equal(through(idle, typed, { ...key, data }).state.cycle.typed, false, JSON.stringify(data));
  }
  for (const data of ['a', '\u001b[A', '\u001b', '\u001b[?62;22ca', 'x\u001b[I', '\r']) {
    t.equal(through(idle, typed, { ...key, data }).state.cycle.typed, true, `${JSON.stringify(data)} is a key`);
  }
  const parked = through(
    working(),
    (o) => o.set({ waiting: { kind: 'parked', since: 1, until: null, autoContinue: false, continued: false } }),
    null,
  ).state;
  t.match(
    through(parked, typed, { ...key, data: '\u001b[O' }).state.waiting,
    { continued: false },
    'a window losing focus is no person deciding to continue',
  );
});
