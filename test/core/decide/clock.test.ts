// The clock's rules (core/decide/clock.ts), run as the router runs them after every event: the writing deadline, the review's end (an edit
// keeps it open, a hold stops it), a Stop hook's wait that runs out, hooks that never came.
import t from 'tap';
import { CLOCK_RULES, nextWake, ROW_LOOK_MS, runDue } from '../../../src/core/decide/clock.js';
import type { RunState } from '../../../src/core/run/run-state.js';
import {
  childExit,
  COMPLETE_DOC,
  docLanded,
  command,
  edited,
  given,
  names,
  postTool,
  reading,
  stopHook,
  through,
  transcriptTurnEnd,
  working,
  table,
} from './run.js';

const at = (s: RunState, ...nows: number[]) => through(s, (o, now: number) => runDue(o, now), ...nows);
// The writing turn began at 3 (60 s deadline).
const writing = () => given([reading(152_000, 2), stopHook('', 3)], {}, working());
// Frozen and written at 1 000, the old claude gone: the review runs to 11 000.
function review(): RunState {
  return given([childExit(0, 1_000)], {}, stillExiting());
}
// Frozen and written at 1 000, the old claude told to end and not gone yet.
function stillExiting(): RunState {
  const frozen = given([reading(152_000), stopHook('', 1), docLanded(), stopHook(COMPLETE_DOC, 1_000)], {}, working());
  const facts = given([{ type: 'facts-gathered', now: 1_000, generation: 1, git: null }], {}, frozen);
  return given(
    [
      {
        type: 'document-written',
        now: 1_000,
        generation: 1,
        path: '/p/.flower/notes/doc.md',
        archived: null,
        error: null,
      },
    ],
    {},
    facts,
  );
}
// … after the session moved to a worktree of its own.
const movedAway = () =>
  through(
    stillExiting(),
    (o) => o.gen({ place: { folder: '/p/.claude/worktrees/wt1', permissionMode: null, addedDirs: [] } }),
    null,
  ).state;

const rows: Array<{
  name: string;
  given: () => RunState;
  at: number[];
  effects: string[];
  state?: (s: RunState) => unknown;
  expect?: unknown;
}> = [
  { name: 'the writing deadline: not yet', given: () => given([], {}, writing()), at: [3 + 59_999], effects: [] },
  {
    name: 'a model that ignores the request hits it',
    given: () => given([], {}, writing()),
    at: [3 + 60_000],
    effects: ['gather-facts', 'generation-end', 'end-child'],
    state: (s) => s.pendingFreeze?.reason,
    expect: 'no handoff document within 60s',
  },
  { name: 'the review is open until its end', given: review, at: [10_999], effects: [] },
  {
    name: 'then the successor is asked for',
    given: review,
    at: [11_000],
    effects: ['read-seed'],
    state: (s) => s.cycle.phase,
    expect: 'respawning',
  },
  {
    name: 'the old claude still exiting: the successor is asked for all the same',
    given: stillExiting,
    at: [11_000],
    effects: ['read-seed'],
  },
  {
    name: 'a session that moved to another folder waits for the old claude to be gone',
    given: movedAway,
    at: [11_000, 20_000],
    effects: [],
  },
  {
    name: '… and in its own folder it does not',
    given: () =>
      through(stillExiting(), (o) => o.gen({ place: { folder: '/p', permissionMode: null, addedDirs: [] } }), null)
        .state,
    at: [11_000],
    effects: ['read-seed'],
  },
  {
    name: 'an edit keeps it open until the file is quiet',
    given: () => given([edited('# changed', 10_500)], {}, review()),
    at: [11_001, 12_499],
    effects: [],
  },
  {
    name: '… and it goes on once quiet',
    given: () => given([edited('# changed', 10_500)], {}, review()),
    at: [12_500],
    effects: ['read-seed'],
  },
  {
    name: 'held: the review waits forever',
    given: () => given([command('hold', 5_000)], {}, review()),
    at: [99_000],
    effects: [],
  },
  {
    name: "a Stop hook's last response that never lands: decided from the transcript as it is",
    given: () => given([reading(100_000, 1), stopHook('a reply not yet in the transcript', 1)], {}, working()),
    at: [1 + 3_000],
    effects: ['stop-waited', 'reply:pass'],
  },
  {
    name: "a PostToolUse hook's call that never lands: decided from the transcript as it is, the crossing seen at this boundary",
    given: () => given([reading(152_000, 1), postTool(1, false, 'toolu_lost')], {}, working()),
    at: [1 + 2_999, 1 + 3_000],
    effects: ['tool-waited', 'writing', 'reply:block-handoff'],
  },
  {
    name: 'no hook at all 30 s after the spawn: hooks are missing, said once',
    given: working,
    at: [30_000],
    effects: ['hooks-missing'],
    state: (s) => s.hooksMissing,
    expect: true,
  },
  {
    name: 'a turn ended in the transcript and no Stop hook came: that turn end is the boundary',
    given: () => given([reading(152_000, 1), transcriptTurnEnd(1)], {}, working()),
    at: [1 + 5_000],
    effects: ['hooks-missing', 'type-into-child', 'writing'],
  },
];

table(rows, (s, row) => at(s, ...row.at));

t.test('a hook held for its row: the next wake-up is the next look for the row, not the end of the wait', async (t) => {
  const held = through(
    working(),
    (o) => o.set({ boundaryWaits: [{ id: 1, since: 1_000, until: 4_000, awaits: { kind: 'reply', text: 'x' } }] }),
    null,
  ).state;
  t.equal(nextWake(held, 1_000), 1_000 + ROW_LOOK_MS, 'looked for again soon');
  t.equal(nextWake(held, 3_995), 4_000, 'but never past the end of its wait');
});

// Each deadline is written once, in its rule: the moment the run wakes for is the moment the rule runs at.
t.test('every rule that acts is woken for at exactly the moment it runs, and not a millisecond sooner', async (t) => {
  const cases: Array<{ name: string; state: () => RunState; at: number }> = [
    { name: 'the writing deadline', state: () => given([], {}, writing()), at: 3 + 60_000 },
    { name: "the review's end", state: review, at: 11_000 },
    { name: 'no hook since the spawn', state: working, at: 30_000 },
  ];
  for (const c of cases) {
    const s = c.state();
    const acting = CLOCK_RULES.filter((r) => r.run && r.due(s, c.at - 1) === c.at);
    t.equal(acting.length, 1, `${c.name}: one rule is due then (${acting.map((r) => r.name).join('; ')})`);
    t.same(
      names(through(s, (o, now: number) => runDue(o, now), c.at - 1).effects),
      [],
      `${c.name}: nothing a millisecond before`,
    );
    t.not(
      names(through(s, (o, now: number) => runDue(o, now), c.at).effects).length,
      0,
      `${c.name}: done at its moment`,
    );
    t.ok((nextWake(s, c.at - 1_000) ?? Infinity) <= c.at, `${c.name}: the run wakes by then`);
  }
});

t.test(
  'a rule runs after any event, not only a tick: a Stop hook past the writing deadline finds the document degraded',
  async (t) => {
    const late = given([stopHook('still thinking', 3 + 60_001)], {}, writing());
    t.equal(late.pendingFreeze?.reason, 'no handoff document within 60s');
  },
);
