// The handoff cycle at its boundaries (core/decide/stages/handoff.ts), driven directly: each row is a run, the
// steps that happen to it, and the decisions that must come out (every rule of the former machine's tests).
import t from 'tap';
import {
  crossing,
  forceHandoff,
  overflowed,
  preCompact,
  prompted,
  reading,
  toolBoundary,
  turnEnded,
  typedAtPrompt,
  type Answer,
} from '../../../src/core/decide/stages/handoff.js';
import { brakeMessage, NO_BOUNDARY } from '../../../src/core/decide/stages/generations.js';
import type { Out } from '../../../src/core/decide/out.js';
import type { RunState } from '../../../src/core/run/run-state.js';
import { COMPLETE_DOC, names, through, working, table } from './run.js';

type Step =
  | ['reading', number]
  | ['turn-end', string?, ('hook' | 'transcript')?]
  | ['tool']
  | ['pre-compact', 'auto' | 'manual']
  | ['overflow', string]
  | ['force']
  | ['prompt']
  | ['typed']
  | ['session-seen'];

function step(o: Out, s: Step): void {
  const answer = (a: Answer) => o.do({ type: 'reply', id: 0, answer: { kind: 'text', text: a } });
  switch (s[0]) {
    case 'reading':
      return reading(o, s[1], 1);
    case 'turn-end':
      return answer(turnEnded(o, s[1] ?? '', 1, s[2] ?? 'hook'));
    case 'tool':
      return answer(toolBoundary(o, 1));
    case 'pre-compact':
      return answer(preCompact(o, s[1], 1));
    case 'overflow':
      return overflowed(o, 1, s[1]);
    case 'force':
      return forceHandoff(o, 1);
    case 'prompt':
      return prompted(o);
    case 'typed':
      return typedAtPrompt(o);
    case 'session-seen':
      return o.gen({ sessionSeen: true });
  }
}
const cycle = (s: RunState, ...steps: Step[]) => through(s, step, ...steps);
const writing = () => cycle(working(), ['reading', 152_000], ['turn-end']).state;
const idle = () => cycle(working(), ['reading', 100_000], ['turn-end']).state;

const rows: Array<{
  name: string;
  given: () => RunState;
  steps: Step[];
  effects: string[];
  state?: (s: RunState) => unknown;
  expect?: unknown;
}> = [
  {
    name: 'below the line a turn ends normally',
    given: working,
    steps: [['reading', 100_000], ['turn-end']],
    effects: ['answer:pass'],
  },
  {
    name: 'crossing only marks the cut; nothing is injected mid-stream',
    given: working,
    steps: [['prompt'], ['reading', 151_000]],
    effects: ['near'],
    state: (s) => [s.cycle.phase, s.cycle.pendingCut],
    expect: ['working', true],
  },
  {
    name: 'the cut happens at the next turn end',
    given: working,
    steps: [['reading', 151_000], ['turn-end']],
    effects: ['near', 'writing', 'answer:block-handoff'],
    state: (s) => s.cycle.phase,
    expect: 'writing',
  },
  {
    name: 'near fires once per generation',
    given: working,
    steps: [
      ['reading', 131_000],
      ['reading', 135_000],
      ['reading', 140_000],
    ],
    effects: ['near'],
  },
  {
    name: 'a long autonomous turn is cut at the next tool boundary',
    given: working,
    steps: [['reading', 160_000], ['tool']],
    effects: ['near', 'writing', 'answer:block-handoff'],
    state: (s) => s.cycle.phase,
    expect: 'writing',
  },
  {
    name: 'THE EXEMPTION: a reading above the line while writing starts no other handoff, and is still recorded',
    given: writing,
    steps: [['reading', 170_000], ['tool'], ['reading', 171_000]],
    effects: ['answer:pass'],
    state: (s) => [s.cycle.phase, s.gen?.peak],
    expect: ['writing', 171_000],
  },
  {
    name: "the writing turn's complete document is frozen as written",
    given: writing,
    steps: [['turn-end', COMPLETE_DOC]],
    effects: ['gather-facts', 'generation-end', 'end-child', 'answer:pass'],
    state: (s) => [s.cycle.phase, s.pendingFreeze?.degraded, s.pendingFreeze?.modelText],
    expect: ['review', false, COMPLETE_DOC],
  },
  {
    name: 'an incomplete document degrades, with what is missing',
    given: writing,
    steps: [['turn-end', 'garbage']],
    effects: ['gather-facts', 'generation-end', 'end-child', 'answer:pass'],
    state: (s) => [
      s.pendingFreeze?.degraded,
      s.pendingFreeze?.modelText,
      /missing doing/.test(s.pendingFreeze?.reason ?? ''),
    ],
    expect: [true, 'garbage', true],
  },
  {
    name: 'no handoff before the session is seen',
    given: () => through(working(), (o) => o.gen({ sessionSeen: false }), null).state,
    steps: [['reading', 160_000], ['turn-end']],
    effects: ['near', 'answer:pass'],
  },
  {
    name: 'once the session is seen, the pending cut happens',
    given: () =>
      cycle(through(working(), (o) => o.gen({ sessionSeen: false }), null).state, ['reading', 160_000], ['turn-end'])
        .state,
    steps: [['session-seen'], ['turn-end']],
    effects: ['writing', 'answer:block-handoff'],
  },
  {
    name: 'handoff off: nothing is ever injected',
    given: () => working({ handoff: false }),
    steps: [['reading', 190_000], ['turn-end'], ['overflow', 'prompt is too long']],
    effects: ['answer:pass'],
  },
  {
    name: 'an overflow degrades at once',
    given: working,
    steps: [
      ['reading', 90_000],
      ['overflow', 'Prompt is too long'],
    ],
    effects: ['gather-facts', 'generation-end', 'end-child'],
    state: (s) => [s.cycle.phase, s.pendingFreeze?.reason, s.gen?.crashed],
    expect: ['review', 'overflow: Prompt is too long', false],
  },
  {
    name: 'force-handoff cuts at the next boundary',
    given: working,
    steps: [['reading', 20_000], ['force'], ['turn-end']],
    effects: ['writing', 'answer:block-handoff'],
  },
  {
    name: 'a crossing first seen with claude idle is typed at once',
    given: idle,
    steps: [['reading', 151_000]],
    effects: ['near', 'type-into-child', 'writing'],
    state: (s) => s.cycle.phase,
    expect: 'writing',
  },
  {
    name: 'a draft a person is typing is never typed over',
    given: idle,
    steps: [['typed'], ['reading', 151_000]],
    effects: ['near'],
    state: (s) => s.cycle.pendingCut,
    expect: true,
  },
  {
    name: '… and the cut comes at the end of their turn',
    given: () => cycle(idle(), ['typed'], ['reading', 151_000]).state,
    steps: [['prompt'], ['turn-end']],
    effects: ['writing', 'answer:block-handoff'],
  },
  {
    name: 'without hooks, a transcript turn end with a cut due types the request',
    given: () => cycle(working(), ['prompt'], ['reading', 152_000]).state,
    steps: [['turn-end', '', 'transcript']],
    effects: ['type-into-child', 'writing', 'answer:pass'],
  },
  {
    name: '… and the reply in the transcript is the document',
    given: () => cycle(working(), ['prompt'], ['reading', 152_000], ['turn-end', '', 'transcript']).state,
    steps: [['turn-end', COMPLETE_DOC, 'transcript']],
    effects: ['gather-facts', 'generation-end', 'end-child', 'answer:pass'],
    state: (s) => s.cycle.phase,
    expect: 'review',
  },
  {
    name: 'a Stop block past the cap Claude Code honours is not sent: the request is typed instead',
    given: () =>
      through(cycle(working({ stopBlockCap: 2 }), ['prompt']).state, (o) => o.cycle({ stopBlocks: 2 }), null).state,
    steps: [['reading', 152_000], ['turn-end']],
    effects: ['near', 'type-into-child', 'writing', 'answer:pass'],
  },
  {
    name: 'a block is counted',
    given: working,
    steps: [['prompt'], ['reading', 152_000], ['turn-end']],
    effects: ['near', 'writing', 'answer:block-handoff'],
    state: (s) => s.cycle.stopBlocks,
    expect: 1,
  },
  {
    name: 'a new prompt resets the chain',
    given: () => cycle(working(), ['prompt'], ['reading', 152_000], ['turn-end']).state,
    steps: [['prompt']],
    effects: [],
    state: (s) => s.cycle.stopBlocks,
    expect: 0,
  },
  {
    name: 'an automatic compaction is blocked and becomes a crossing',
    given: working,
    steps: [['pre-compact', 'auto']],
    effects: ['answer:block-compact'],
    state: (s) => s.cycle.pendingCut,
    expect: true,
  },
  {
    name: "a manual compaction is the person's",
    given: working,
    steps: [['pre-compact', 'manual']],
    effects: ['answer:pass'],
  },
  {
    name: '--keep-auto-compact blocks nothing',
    given: () => working({ keepAutoCompact: true }),
    steps: [['pre-compact', 'auto']],
    effects: ['answer:pass'],
  },
  // Born above the line: handing off again would only breed another such session.
  {
    name: 'a successor born above the line is not handed off at its first turn end',
    given: () => working({}, 2, true),
    steps: [['reading', 155_000], ['turn-end']],
    effects: ['born-high', 'near', 'answer:pass'],
    state: (s) => s.cycle.line,
    expect: 155_000 + 22_500,
  },
  {
    name: "with --keep-auto-compact the line goes halfway to Claude Code's own block (177k)",
    given: () => working({ keepAutoCompact: true }, 2, true),
    steps: [['reading', 155_000]],
    effects: ['born-high', 'near'],
    state: (s) => s.cycle.line,
    expect: 155_000 + 11_000,
  },
  {
    name: 'the lifted line still hands off before the client block',
    given: () => cycle(working({}, 2, true), ['reading', 155_000], ['turn-end']).state,
    steps: [['prompt'], ['reading', 178_000], ['turn-end']],
    effects: ['writing', 'answer:block-handoff'],
  },
  {
    name: 'generation 1 is not "born high"',
    given: working,
    steps: [['reading', 155_000], ['turn-end']],
    effects: ['near', 'writing', 'answer:block-handoff'],
  },
  {
    name: 'no room at all: the start-up floor brake',
    given: () => working({ policy: { window: 20_000, headroom: 10_000 } }, 2, true),
    steps: [['reading', 15_000]],
    effects: ['end-child', 'stopped', 'ended', 'finish'],
    state: (s) => [s.cycle.phase, s.finished],
    expect: ['stopped', true],
  },
];

table(rows, (s, row) => cycle(s, ...row.steps));

t.test('the brake at the start-up floor says what to do', async (t) => {
  const { effects } = cycle(working({ policy: { window: 20_000, headroom: 10_000 } }, 2, true), ['reading', 15_000]);
  t.match(
    effects.find((e) => e.type === 'finish'),
    { exitCode: 3, message: brakeMessage(2) },
  );
  t.match(brakeMessage(2), /below this session's start-up floor; raise --window, or run with --no-handoff/);
});

t.test(
  'the start-up floor brake after a generation that ran into the wall with no boundary names that, not the window',
  async (t) => {
    const walled = through(
      working({ policy: { window: 20_000, headroom: 10_000 } }, 2, true),
      (o) =>
        o.set({
          manifest: {
            ...o.s.manifest,
            errors: [
              { generation: 1, at: 'x', reason: `overflow: Prompt is too long (${NO_BOUNDARY}, 12s after the line)` },
            ],
          },
        }),
      null,
    ).state;
    const { effects } = cycle(walled, ['reading', 15_000]);
    t.match(
      effects.find((e) => e.type === 'finish'),
      { exitCode: 3, message: /every one ran past the handoff line into claude's own limit/ },
    );
    t.notMatch(JSON.stringify(effects), /raise --window/);
  },
);

t.test(
  'a turn past the line that runs into the wall with no boundary is said at once: the reading and how long since the line',
  async (t) => {
    const crossed = through(
      working(),
      (o, [context, now]: [number, number]) => reading(o, context, now),
      [152_000, 1_000],
      [181_000, 4_000],
    ).state;
    t.same(
      [crossed.cycle.pendingCut, crossed.cycle.cutDueSince],
      [true, 1_000],
      'due since the first crossing reading',
    );
    const walled = through(crossed, (o, now: number) => overflowed(o, now, 'Prompt is too long'), 31_000);
    t.same(names(walled.effects), ['no-boundary', 'gather-facts', 'generation-end', 'end-child']);
    t.match(walled.effects[0], {
      type: 'emit',
      name: 'no-boundary',
      fields: { generation: 1, context: 181_000, line: 150_000, ms: 30_000 },
    });
    t.match(
      walled.state.pendingFreeze?.reason,
      /^overflow: Prompt is too long \(past the handoff line with no boundary to cut at, 30s after the line\)$/,
    );
    t.same([walled.state.cycle.pendingCut, walled.state.cycle.cutDueSince], [false, null]);
    // Below the line an overflow is only an overflow; the writing turn's is its own failure.
    t.notOk(
      names(through(working(), (o, now: number) => overflowed(o, now, 'Prompt is too long'), 5).effects).includes(
        'no-boundary',
      ),
    );
    const writing = through(
      crossed,
      (o, now: number) => {
        toolBoundary(o, now);
        overflowed(o, now + 1, 'Prompt is too long');
      },
      5_000,
    );
    t.notOk(names(writing.effects).includes('no-boundary'), 'not once the request went out');
    // A blocked compaction or a forced handoff makes the cut due as well, from then.
    t.equal(
      through(
        working(),
        (o, now: number) => {
          preCompact(o, 'auto', now);
        },
        7,
      ).state.cycle.cutDueSince,
      7,
    );
    t.equal(through(working(), (o, now: number) => forceHandoff(o, now), 9).state.cycle.cutDueSince, 9);
  },
);

t.test('the crossing rule on its own (replay asks it too)', async (t) => {
  const rule = [
    { c: { nearSent: false, line: 150_000 }, context: 129_999, want: { near: false, cut: false } },
    { c: { nearSent: false, line: 150_000 }, context: 130_000, want: { near: true, cut: false } },
    { c: { nearSent: true, line: 150_000 }, context: 149_999, want: { near: false, cut: false } },
    { c: { nearSent: true, line: 150_000 }, context: 150_000, want: { near: false, cut: true } },
    { c: { nearSent: false, line: 177_500 }, context: 160_000, want: { near: true, cut: false } },
  ];
  for (const r of rule) t.same(crossing(r.c, r.context, 130_000), r.want, `${r.context} against ${r.c.line}`);
});
