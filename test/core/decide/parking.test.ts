// Parked on a usage limit (core/decide/turn/parking.ts), driven directly: said once, the reset time filled in
// by a later word, resumed by the session moving on, an API-key session continued once after its reset (the clock's rule).
import t from 'tap';
import { park, resumeIfParked } from '../../../src/core/decide/turn/parking.js';
import { CLOCK_RULES, runDue } from '../../../src/core/decide/clock.js';

// The parking rule alone (a working() run has had no hook, so the hooks-missing rule would be due too).
const CONTINUE_RULE = CLOCK_RULES.filter((r) => r.name.includes('parked on a usage limit'));
import type { Out } from '../../../src/core/decide/out.js';
import type { RunState } from '../../../src/core/run/run-state.js';
import { names, through, working } from './run.js';

type Step = ['park', number, number | null, boolean] | ['resume', number] | ['clock', number];
function step(o: Out, s: Step): void {
  if (s[0] === 'park') return park(o, s[1], s[2], s[3]);
  if (s[0] === 'resume') return resumeIfParked(o, s[1]);
  return runDue(o, s[1], CONTINUE_RULE);
}

const rows: Array<{ name: string; steps: Step[]; effects: string[]; waiting?: unknown }> = [
  {
    name: 'a park is said once',
    steps: [
      ['park', 1, null, true],
      ['park', 2, null, true],
    ],
    effects: ['parked'],
    waiting: { kind: 'parked', since: 1, until: null, autoContinue: true, continued: false },
  },
  {
    name: 'a later word adds the reset time and whether it continues',
    steps: [
      ['park', 1, null, true],
      ['park', 2, 60_000, false],
    ],
    effects: ['parked'],
    waiting: { kind: 'parked', since: 1, until: 60_000, autoContinue: false },
  },
  {
    name: 'a word without a time keeps the one known',
    steps: [
      ['park', 1, 60_000, false],
      ['park', 2, null, true],
    ],
    effects: ['parked'],
    waiting: { until: 60_000, autoContinue: false },
  },
  {
    name: 'the session moving on resumes it',
    steps: [
      ['park', 1, null, true],
      ['resume', 5],
    ],
    effects: ['parked', 'resumed'],
    waiting: null,
  },
  { name: 'nothing to resume when not parked', steps: [['resume', 5]], effects: [], waiting: null },
  {
    name: 'an API-key session is not continued before its reset (and 5 s)',
    steps: [
      ['park', 1, 60_000, false],
      ['clock', 64_999],
    ],
    effects: ['parked'],
  },
  {
    name: '… then once',
    steps: [
      ['park', 1, 60_000, false],
      ['clock', 65_000],
      ['clock', 70_000],
    ],
    effects: ['parked', 'type-into-child'],
    waiting: { continued: true },
  },
  {
    name: 'with no reset time, after the back-off',
    steps: [
      ['park', 1, null, false],
      ['clock', 1 + 5 * 60_000],
    ],
    effects: ['parked', 'type-into-child'],
  },
  {
    name: 'a subscription continues by itself: nothing typed',
    steps: [
      ['park', 1, 60_000, true],
      ['clock', 99_000],
    ],
    effects: ['parked'],
  },
];

t.equal(CONTINUE_RULE.length, 1, 'the continue rule is in the clock');

for (const row of rows) {
  t.test(row.name, async (t) => {
    const { state, effects } = through(working() as RunState, step, ...row.steps);
    t.same(names(effects), row.effects, 'the decisions');
    if ('waiting' in row)
      row.waiting === null ? t.equal(state.waiting, null) : t.match(state.waiting, row.waiting as object);
  });
}

t.test('the continue typed is the one word', async (t) => {
  const { effects } = through(working(), step, ['park', 1, 60_000, false], ['clock', 65_000]);
  t.match(
    effects.find((e) => e.type === 'type-into-child'),
    { request: '', line: 'continue' },
  );
});
