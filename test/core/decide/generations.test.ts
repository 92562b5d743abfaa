// Generations (core/decide/stages/generations.ts), driven directly: claude's exit (a person leaving, a crash,
// a start that failed), a spawn that fails, the next generation after the review, and the brake.
import t from 'tap';
import { brakeMessage, brakeMessageOf, NO_BOUNDARY, startNext } from '../../../src/core/decide/stages/generations.js';
import { childExited, spawnFailed, spawned } from '../../../src/core/decide/sources/claude-life.js';
import { turnEnded } from '../../../src/core/decide/stages/handoff.js';
import type { RunInput, RunState } from '../../../src/core/run/run-state.js';
import { decide } from '../../../src/core/decide/decide.js';
import {
  childExit,
  COMPLETE_DOC,
  docLanded,
  given,
  names,
  reading,
  SID,
  signal,
  spawnedEvent,
  stopHook,
  through,
  working,
  table,
} from './run.js';

const exit = (s: RunState, ...events: RunInput[]) =>
  through(s, childExited, ...(events as Array<Extract<RunInput, { type: 'child-exit' }>>));
// Spawned long enough ago that an exit is not "before its first turn"; a turn ran.
const settled = () => given([reading(50_000, 100)], {}, working());

const rows: Array<{
  name: string;
  given: () => RunState;
  event: RunInput;
  effects: string[];
  state?: (s: RunState) => unknown;
  expect?: unknown;
}> = [
  {
    name: 'a clean exit is the person leaving: the run ends',
    given: settled,
    event: childExit(0),
    effects: ['child-exit', 'ended', 'finish'],
    state: (s) => [s.cycle.phase, s.manifest.generations[0]?.end],
    expect: ['stopped', 'quit'],
  },
  {
    name: 'a crash degrades (no end-child: it is gone)',
    given: settled,
    event: childExit(1),
    effects: ['child-exit', 'crash', 'gather-facts', 'generation-end'],
    state: (s) => [
      s.cycle.phase,
      s.cycle.crashes,
      s.gen?.crashed,
      /code 1 .*during working/.test(s.pendingFreeze?.reason ?? ''),
    ],
    expect: ['review', 1, true, true],
  },
  {
    name: 'dead in its first seconds, before any turn: stop at once, no restart',
    given: () => working(),
    event: childExit(1, 2),
    effects: ['child-exit', 'stopped', 'ended', 'finish'],
    state: (s) => [s.cycle.phase, s.gen?.crashed],
    expect: ['stopped', true],
  },
  {
    name: 'our own end of it during the review decides nothing',
    given: () => through(settled(), (o) => o.cycle({ phase: 'review', reviewUntil: 30_000 }), null).state,
    event: childExit(0),
    effects: ['child-exit'],
  },
  {
    name: 'the old child exiting during respawn is expected',
    given: () => through(settled(), (o) => o.cycle({ phase: 'respawning' }), null).state,
    event: childExit(0),
    effects: ['child-exit'],
  },
  {
    name: 'the third crash in a row stops the run',
    given: () => through(settled(), (o) => o.cycle({ crashes: 2 }), null).state,
    event: childExit(137, 20_000, 9),
    effects: ['child-exit', 'crash', 'stopped', 'ended', 'finish'],
  },
];

table(rows, (s, row) => exit(s, row.event));

t.test('what the stops say', async (t) => {
  const three = exit(through(settled(), (o) => o.cycle({ crashes: 2 }), null).state, childExit(137, 20_000, 9));
  t.match(
    three.effects.find((e) => e.type === 'finish'),
    { exitCode: 4, message: /crashed 3 times in a row \(last exit code 137\)/ },
  );
  const early = exit(working(), { type: 'child-exit', now: 2, code: 1, lastLines: 'Invalid API key' });
  t.match(
    early.effects.find((e) => e.type === 'finish'),
    { exitCode: 4, message: /before its first turn; nothing to hand off\. Its last lines: Invalid API key/ },
  );
  t.same(
    exit(settled(), childExit(0)).effects.find((e) => e.type === 'finish'),
    { type: 'finish', exitCode: 0 },
  );
});

t.test('a completed turn resets the crash streak', async (t) => {
  const crashed = exit(settled(), childExit(1)).state;
  const next = through(crashed, spawned, spawnedEvent(2, true, 30_000) as Extract<RunInput, { type: 'spawned' }>).state;
  t.equal(next.cycle.crashes, 1, 'a new generation keeps the streak');
  const turned = through(next, (o) => void turnEnded(o, '', 30_001, 'hook'), null).state;
  t.equal(turned.cycle.crashes, 0);
});

t.test('a spawn that fails stops the run with its exit code, or 5', async (t) => {
  const fresh = given([]);
  const failed = through(fresh, spawnFailed, {
    type: 'spawn-failed',
    now: 1,
    generation: 1,
    message: 'no "claude" on PATH',
  });
  t.same(names(failed.effects), ['spawn-failed', 'stopped', 'ended', 'finish']);
  t.match(failed.effects.at(-1), { type: 'finish', exitCode: 5, message: 'no "claude" on PATH' });
  const old = through(fresh, spawnFailed, {
    type: 'spawn-failed',
    now: 1,
    generation: 1,
    message: 'too old',
    exitCode: 7,
  });
  t.match(old.effects.at(-1), { type: 'finish', exitCode: 7 });
});

t.test('the next generation, and the brake at max generations with the seed message', async (t) => {
  const reviewed = given(
    [reading(151_000), stopHook(), docLanded(), stopHook(COMPLETE_DOC)],
    { reviewMs: 0 },
    working({ reviewMs: 0 }),
  );
  t.equal(reviewed.cycle.phase, 'review');
  const next = through(reviewed, (o, now: number) => startNext(o, now), 3);
  t.same(names(next.effects), ['read-seed']);
  t.match(next.effects[0], { type: 'read-seed', generation: 2 });
  t.same([next.state.cycle.phase, next.state.cycle.held, next.state.cycle.reviewUntil], ['respawning', false, null]);
  const capped = given(
    [reading(151_000), stopHook(), docLanded(), stopHook(COMPLETE_DOC)],
    {},
    working({ policy: { window: 200_000, maxGenerations: 1 } }),
  );
  const braked = through(capped, (o, now: number) => startNext(o, now), 3);
  t.same(names(braked.effects), ['stopped', 'ended', 'finish']);
  t.match(braked.effects.at(-1), {
    type: 'finish',
    exitCode: 3,
    message: /stopped after 1 generations: the handoff threshold is probably below this session's start-up floor/,
  });
  t.equal(braked.state.cycle.phase, 'stopped');
});

t.test(
  'the brake names the real cause when every generation ran past the line into the wall with no boundary',
  async (t) => {
    const walled = (g: number) => ({
      generation: g,
      at: 'x',
      reason: `overflow: Prompt is too long (${NO_BOUNDARY}, 30s after the line)`,
    });
    const run = (errors: Array<{ generation: number; at: string; reason: string }>) =>
      through(
        working({ policy: { window: 200_000, maxGenerations: 2 } }),
        (o) => o.set({ manifest: { ...o.s.manifest, errors } }),
        null,
      ).state;
    const atGen2 = (s: RunState) => through(s, (o) => o.gen({ n: 2 }), null).state;
    const both = through(atGen2(run([walled(1), walled(2)])), (o, now: number) => startNext(o, now), 3);
    t.match(both.effects.at(-1), {
      type: 'finish',
      exitCode: 3,
      message:
        /stopped after 2 generations: every one ran past the handoff line into claude's own limit \("Prompt is too long"\) with no boundary to cut it at .* the window is not the cause/,
    });
    const one = through(
      atGen2(run([walled(1), { generation: 2, at: 'x', reason: 'the writing turn ended without a document' }])),
      (o, now: number) => startNext(o, now),
      3,
    );
    t.match(
      one.effects.at(-1),
      { type: 'finish', message: /below this session's start-up floor/ },
      'one generation that did not: the usual words',
    );
    t.equal(brakeMessageOf(run([]), 1, 0), brakeMessage(1), 'no generation ended yet: the usual words');
  },
);

t.test('a new generation starts its cycle afresh: the notice again, the line back at `at`', async (t) => {
  const near = given([reading(131_000, 100)], {}, working());
  t.equal(near.cycle.nearSent, true);
  const next = through(
    through(near, (o) => o.cycle({ phase: 'respawning', line: 170_000, pendingCut: true }), null).state,
    spawned,
    spawnedEvent(2, true, 30_000) as Extract<RunInput, { type: 'spawned' }>,
  );
  t.same(names(next.effects), ['follow-transcript', 'generation-start']);
  t.same(
    [
      next.state.cycle.phase,
      next.state.cycle.nearSent,
      next.state.cycle.line,
      next.state.cycle.pendingCut,
      next.state.gen?.sessionSeen,
    ],
    ['working', false, 150_000, false, false],
  );
  const again = given(
    [
      signal({ kind: 'session', line: 1, sessionId: SID, previous: null }, 30_000, 2),
      reading(100_000, 30_001, 2),
      reading(131_000, 30_002, 2),
    ],
    {},
    next.state,
  );
  t.equal(again.cycle.nearSent, true, 'near again in the new generation');
});

// The lineage counts failed attempts (crashes), handoffs and overflows never: the manifest, when the
// crashed generation's degraded document is written.
t.test('a crash is a failed attempt; a handoff is not', async (t) => {
  const crashed = exit(settled(), childExit(1)).state;
  const closed = given(
    [
      { type: 'facts-gathered', now: 20_001, generation: 1, git: null },
      { type: 'document-written', now: 20_002, generation: 1, path: '/p/d.md', archived: null, error: null },
    ],
    {},
    crashed,
  );
  t.same([closed.manifest.attempts, closed.manifest.generations[0]?.end], [1, 'crash']);
  const handedOff = given(
    [
      reading(151_000),
      stopHook(),
      docLanded(),
      stopHook(COMPLETE_DOC),
      { type: 'facts-gathered', now: 3, generation: 1, git: null },
      { type: 'document-written', now: 4, generation: 1, path: '/p/d.md', archived: null, error: null },
    ],
    {},
    working(),
  );
  t.same([handedOff.manifest.attempts, handedOff.manifest.generations[0]?.end], [0, 'handoff']);
});

t.test(
  "the successor is spawned with what the person's transcripts showed: their /add-dir dirs and the modes their session was in",
  async (t) => {
    const reviewed = given(
      [
        signal({ kind: 'permission-mode', line: 1, mode: 'acceptEdits' }, 1),
        signal({ kind: 'added-dir', line: 2, dir: '/srv/a' }, 1),
        reading(151_000),
        stopHook(),
        docLanded(),
        stopHook(COMPLETE_DOC),
      ],
      { reviewMs: 0 },
      working({ reviewMs: 0 }),
    );
    const asked = through(reviewed, (o, now: number) => startNext(o, now), 3);
    const seeded = decide(asked.state, { type: 'seed-read', now: 4, generation: 2, onDisk: COMPLETE_DOC });
    const spawn = seeded.effects.find((e) => e.type === 'spawn');
    t.match(spawn, {
      type: 'spawn',
      generation: 2,
      successor: true,
      personDirs: ['/srv/a'],
      personModes: ['acceptEdits'],
    });
  },
);
