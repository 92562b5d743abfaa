// The transcript (core/decide/sources/transcript.ts), driven directly: what each meter signal does to the run,
// a Stop hook's wait answered when its response lands, the session followed when claude moves it, a
// transcript that cannot be found.
import t from 'tap';
import { transcriptPresence, transcriptSignal } from '../../../src/core/decide/sources/transcript.js';
import { followSession } from '../../../src/core/decide/turn/session.js';
import { runDue } from '../../../src/core/decide/clock.js';
import type { MeterSignal } from '../../../src/core/meter/context-meter.js';
import type { RunInput, RunState } from '../../../src/core/run/run-state.js';
import {
  COMPLETE_DOC,
  docLanded,
  given,
  hook,
  names,
  postTool,
  promptHook,
  reading,
  SID,
  signal,
  spawnedEvent,
  stopHook,
  through,
  working,
  table,
} from './run.js';

type Signal = Extract<RunInput, { type: 'transcript' }>;
const signals = (s: RunState, ...sigs: MeterSignal[]) =>
  through(s, transcriptSignal, ...sigs.map((x) => signal(x, 2) as Signal));

const rows: Array<{
  name: string;
  given: () => RunState;
  signals: MeterSignal[];
  effects: string[];
  state?: (s: RunState) => unknown;
  expect?: unknown;
}> = [
  {
    name: "a reading is the generation's context, recorded in the manifest",
    given: working,
    signals: [{ kind: 'reading', line: 1, context: 90_000, messageId: 'm', model: null }],
    effects: [],
    state: (s) => [s.gen?.context, s.gen?.peak, s.gen?.readings, s.manifest.generations[0]?.peak_context],
    expect: [90_000, 90_000, 1, 90_000],
  },
  {
    name: "a person's prompt is the lineage's first",
    given: working,
    signals: [{ kind: 'user-prompt', line: 1, text: 'build it' }],
    effects: [],
    state: (s) => [s.firstPrompt, s.manifest.original_prompt],
    expect: ['build it', 'build it'],
  },
  {
    name: "the CLI's own continuation after a limit is no person's prompt",
    given: working,
    signals: [{ kind: 'user-prompt', line: 1, text: 'Your claude.ai usage limit has reset' }],
    effects: [],
    state: (s) => s.firstPrompt,
    expect: null,
  },
  {
    name: "nor is flower-pty's typed line",
    given: working,
    signals: [{ kind: 'user-prompt', line: 1, text: 'flower-pty: your context window is nearly full' }],
    effects: [],
    state: (s) => s.firstPrompt,
    expect: null,
  },
  {
    name: 'an overflow is said, and degrades',
    given: working,
    signals: [{ kind: 'overflow', line: 3, text: 'Prompt is too long' }],
    effects: ['overflow', 'gather-facts', 'generation-end', 'end-child'],
  },
  {
    name: 'an interrupt (a person\'s "no" at a permission prompt) past the line: claude is back at its prompt with no Stop, and the request is typed there at once',
    given: () => given([reading(152_000)], {}, working()),
    signals: [{ kind: 'interrupt', line: 5 }],
    effects: ['type-into-child', 'writing'],
    state: (s) => [s.cycle.phase, s.cycle.idle],
    expect: ['writing', true],
  },
  {
    name: '… below the line it only leaves claude idle',
    given: working,
    signals: [{ kind: 'interrupt', line: 5 }],
    effects: [],
    state: (s) => [s.cycle.phase, s.cycle.idle, s.cycle.pendingCut],
    expect: ['working', true, false],
  },
  {
    name: "… and the cut is typed at no person's draft: a prompt submitted after it makes the session busy again",
    given: () =>
      given(
        [reading(100_000), signal({ kind: 'interrupt', line: 5 }, 2), promptHook('do it another way', 3)],
        {},
        working(),
      ),
    signals: [],
    effects: [],
    state: (s) => s.cycle.idle,
    expect: false,
  },
  {
    name: 'a compaction that slipped through is said',
    given: working,
    signals: [{ kind: 'compaction', line: 4, preTokens: 167_000, meterBefore: 160_000, estimateBefore: 166_000 }],
    effects: ['compaction'],
  },
  {
    name: 'a usage-limit row parks, with the exact word',
    given: working,
    signals: [{ kind: 'usage-limit', line: 5, resetsAtMs: 60_000, autoContinues: true }],
    effects: ['parked'],
    state: (s) => s.waiting,
    expect: { kind: 'parked', since: 2, until: 60_000, autoContinue: true, continued: false },
  },
  {
    name: 'a turn end before any hook is when the hook check starts counting',
    given: working,
    signals: [{ kind: 'turn-end', line: 6, source: 'turn_duration' }],
    effects: [],
    state: (s) => s.gen?.turnEndAt,
    expect: 2,
  },
  {
    name: "another session's rows say nothing of this one",
    given: () => through(working(), (o) => o.gen({ sessionSeen: false }), null).state,
    signals: [{ kind: 'session', line: 1, sessionId: 'other', previous: null }],
    effects: [],
    state: (s) => s.gen?.sessionSeen,
    expect: false,
  },
  {
    name: "a person's accepted /add-dir is a directory a successor may be given",
    given: working,
    signals: [
      { kind: 'added-dir', line: 3, dir: '/srv/a' },
      { kind: 'added-dir', line: 4, dir: '/srv/a' },
    ],
    effects: [],
    state: (s) => s.personDirs,
    expect: ['/srv/a'],
  },
  {
    name: 'the modes the transcript shows the session in are modes a successor may keep, each once',
    given: working,
    signals: [
      { kind: 'permission-mode', line: 3, mode: 'default' },
      { kind: 'permission-mode', line: 5, mode: 'acceptEdits' },
      { kind: 'permission-mode', line: 7, mode: 'acceptEdits' },
    ],
    effects: [],
    state: (s) => s.personModes,
    expect: ['default', 'acceptEdits'],
  },
  {
    name: "a retired generation's rows are not read",
    given: () => through(working(), (o) => o.gen({ ended: true }), null).state,
    signals: [{ kind: 'reading', line: 1, context: 90_000, messageId: 'm', model: null }],
    effects: [],
    state: (s) => s.gen?.context,
    expect: 0,
  },
];

table(rows, (s, row) => signals(s, ...row.signals));

t.test(
  "a Stop hook waiting for its turn's last response is answered when it lands, with the crossing counted",
  async (t) => {
    const waiting = given([stopHook('the last reply', 1)], {}, working());
    t.equal(waiting.boundaryWaits.length, 1);
    const landed = signals(
      waiting,
      { kind: 'reading', line: 7, context: 152_000, messageId: 'm', model: null },
      { kind: 'assistant-text', line: 7, text: 'the last reply', messageId: 'm' },
    );
    t.same(names(landed.effects, landed.state), ['near', 'stop-waited', 'writing', 'reply:block-handoff']);
    t.same(landed.state.boundaryWaits, []);
  },
);

t.test(
  'PostToolUse hooks waiting for their calls are answered when the row lands, with its crossing counted; another call answers nobody',
  async (t) => {
    const waiting = given([postTool(1, false, 'toolu_a'), postTool(1, false, 'toolu_b')], {}, working());
    t.equal(waiting.boundaryWaits.length, 2, 'two parallel calls, each held');
    const other = signals(waiting, { kind: 'tool-use', line: 6, ids: ['toolu_z'] });
    t.same(names(other.effects, other.state), [], 'a row of another call');
    const landed = signals(
      waiting,
      { kind: 'reading', line: 7, context: 152_000, messageId: 'm', model: null },
      { kind: 'tool-use', line: 7, ids: ['toolu_a', 'toolu_b'] },
    );
    t.same(names(landed.effects, landed.state), [
      'near',
      'tool-waited',
      'writing',
      'reply:block-handoff',
      'tool-waited',
      'reply:pass',
    ]);
    t.same(landed.state.boundaryWaits, []);
    t.same(landed.state.gen?.toolUses, ['toolu_a', 'toolu_b'], 'the calls shown are kept to match later hooks');
  },
);

t.test('claude moves the session: the meter follows the transcript it names, and its place is kept', async (t) => {
  const where = {
    transcriptPath: '/wt/t/s1.jsonl',
    cwd: '/p/.claude/worktrees/w',
    projectDir: null,
    permissionMode: 'plan',
    addedDirs: null,
  };
  const moved = through(working(), (o, now: number) => followSession(o, where, false, now), 3);
  t.same(names(moved.effects), ['transcript-moved', 'follow-transcript', 'session-place']);
  t.match(
    moved.effects.find((e) => e.type === 'follow-transcript'),
    { path: '/wt/t/s1.jsonl', carry: true },
  );
  t.match(moved.state.gen?.place, { folder: '/p/.claude/worktrees/w', permissionMode: 'plan' });
  t.equal(
    moved.state.manifest.generations.at(-1)?.transcript_path,
    '/wt/t/s1.jsonl',
    'the manifest records the transcript where it now is, for the report',
  );
  t.not(
    working().manifest.generations.at(-1)?.transcript_path,
    undefined,
    'a spawned generation records its transcript from the start',
  );
  const stale = through(
    moved.state,
    (o, now: number) => followSession(o, { ...where, transcriptPath: '/t/s1.jsonl' }, true, now),
    4,
  );
  t.same(names(stale.effects), [], 'a status line built before the move does not move the meter back');
});

t.test('a transcript not found into a turn: said once, and the session hands off', async (t) => {
  const missing = given(
    [{ type: 'transcript-presence', now: 1, generation: 1, found: false }, promptHook('go', 2)],
    {},
    working(),
  );
  t.equal(missing.gen?.transcriptMissingSince, 2);
  t.same(names(through(missing, (o, now: number) => runDue(o, now), 2 + 4_999).effects), [], 'not yet');
  const lost = through(missing, (o, now: number) => runDue(o, now), 2 + 5_000);
  t.same(names(lost.effects), ['transcript-lost']);
  t.same([lost.state.gen?.transcriptLost, lost.state.cycle.pendingCut], [true, true]);
  t.same(names(through(lost.state, (o, now: number) => runDue(o, now), 20_000).effects), [], 'said once');
  const found = through(lost.state, transcriptPresence, {
    type: 'transcript-presence',
    now: 21_000,
    generation: 1,
    found: true,
  });
  t.same(names(found.effects), ['transcript-found']);
});

t.test(
  "a turn's rows read only after its Stop hook (a tail that starts late): the session stays idle, and the crossing they bring is typed at its prompt",
  async (t) => {
    const ended = given([
      spawnedEvent(1, false),
      hook({ kind: 'session-start', sessionId: SID, transcriptPath: null, source: 'startup' }),
      promptHook('go', 1),
      stopHook('started', 2),
    ]);
    t.same(
      [ended.cycle.phase, ended.cycle.idle, ended.boundaryWaits.length],
      ['working', true, 0],
      'not held: the transcript was not found yet',
    );
    const late = signals(
      ended,
      { kind: 'user-prompt', line: 1, text: 'go' },
      { kind: 'reading', line: 2, context: 155_000, messageId: 'm', model: null },
      { kind: 'assistant-text', line: 2, text: 'started', messageId: 'm' },
    );
    t.same(names(late.effects, late.state), ['near'], 'the rows so far show the turn under way: nothing typed into it');
    const over = signals(late.state, { kind: 'turn-end', line: 3, source: 'stop_hook_summary' });
    t.same(names(over.effects, over.state), ['type-into-child', 'writing'], 'its end row: typed at the prompt');
    t.equal(over.state.cycle.phase, 'writing');
  },
);

// Seen on the real claude under a CPU hog: a prompt typed while the previous turn's Stop hook ran is queued
// (a `queue-operation` row) and its turn starts with no UserPromptSubmit after that Stop. Its crossing was
// typed into the busy turn, whose own Stop then ended the "writing" turn with "crossed" for its document.
t.test(
  'a prompt queued while a Stop hook ran: its crossing is cut at its own Stop, never typed into its turn',
  async (t) => {
    const turn0 = given(
      [
        promptHook('go', 1),
        reading(30_000, 2),
        signal({ kind: 'assistant-text', line: 3, text: 'turn 0', messageId: 'm0' }, 2),
        stopHook('turn 0', 3),
        signal({ kind: 'turn-end', line: 4, source: 'stop_hook_summary' }, 4),
        signal({ kind: 'turn-end', line: 5, source: 'turn_duration' }, 4),
      ],
      {},
      working(),
    );
    t.same([turn0.cycle.idle, turn0.cycle.turnInRows], [true, false], 'the first turn is over');
    // no prompt-submit hook: only the queued prompt's row says claude is busy again
    const queued = signals(turn0, { kind: 'user-prompt', line: 6, text: 'CROSS-NOW' });
    t.equal(queued.state.cycle.turnInRows, true);
    // its Stop comes before its row (held), then the row with the crossing
    const held = given([stopHook('crossed', 5)], {}, queued.state);
    t.equal(held.boundaryWaits.length, 1, 'the Stop waits for its row');
    const landed = signals(
      held,
      { kind: 'reading', line: 7, context: 152_000, messageId: 'm1', model: null },
      { kind: 'assistant-text', line: 7, text: 'crossed', messageId: 'm1' },
    );
    t.same(
      names(landed.effects, landed.state),
      ['near', 'stop-waited', 'writing', 'reply:block-handoff'],
      'cut at the Stop, in its answer; nothing typed',
    );
    t.match(
      landed.effects.find((e) => e.type === 'emit' && e.name === 'writing'),
      { fields: { cut: 'turn-end' } },
    );
    // the same rows read before that Stop came: the Stop is the cut again
    const early = signals(
      queued.state,
      { kind: 'reading', line: 7, context: 152_000, messageId: 'm1', model: null },
      { kind: 'assistant-text', line: 7, text: 'crossed', messageId: 'm1' },
    );
    t.same(names(early.effects, early.state), ['near'], 'the crossing is due, not typed');
    const cut = given([stopHook('crossed', 6)], {}, early.state);
    t.same([cut.cycle.phase, cut.cycle.pendingCut], ['writing', false], 'its Stop cut it');
    // and the model's own document ends the writing turn: the handoff, not a degraded one
    const doc = given([docLanded(COMPLETE_DOC, 7), stopHook(COMPLETE_DOC, 8)], {}, landed.state);
    t.same(
      [doc.cycle.phase, doc.pendingFreeze?.degraded, doc.pendingFreeze?.modelText],
      ['review', false, COMPLETE_DOC],
    );
  },
);

t.test('with no hook yet, a prompt row is what says the session is busy', async (t) => {
  const idle = through(working(), (o) => o.cycle({ idle: true }), null).state;
  t.equal(signals(idle, { kind: 'user-prompt', line: 1, text: 'go' }).state.cycle.idle, false);
});

t.test('an insane usage row is said in the log once a run, and moves nothing', async (t) => {
  const bad: MeterSignal = { kind: 'usage-ignored', line: 4, field: 'input_tokens', value: -1e15 };
  const once = signals(working(), bad);
  const logs = once.effects.filter((e) => e.type === 'log');
  t.equal(logs.length, 1);
  t.match(logs[0], { line: /transcript line 4: input_tokens -1000000000000000 is out of any sane range/ });
  t.same(names(once.effects), [], 'no decision');
  t.equal(once.state.gen?.context, 0);
  const twice = signals(once.state, { ...bad, line: 9 });
  t.same(
    twice.effects.filter((e) => e.type === 'log'),
    [],
    'not said again in the same run, even by a new generation’s meter',
  );
});
