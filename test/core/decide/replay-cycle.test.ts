// The replay's handoff cycle (core/decide/replay-cycle.ts) driven by meter signals directly: the policy once,
// near and handoff once a generation, a compaction as the next generation, and the summary's compaction note.
import t from 'tap';
import {
  replaySignal,
  replaySummary,
  startReplay,
  windowAbove,
  type ReplayCycle,
  type ReplayEvent,
} from '../../../src/core/decide/replay-cycle.js';
import type { MeterSignal } from '../../../src/core/meter/context-meter.js';
import type { TranscriptReader } from '../../../src/core/meter/transcript-reader.js';

const reading = (line: number, context: number, model: string | null = null): MeterSignal => ({
  kind: 'reading',
  line,
  context,
  messageId: `m${line}`,
  model,
});
const compaction = (line: number, preTokens: number | null, estimateBefore: number): MeterSignal => ({
  kind: 'compaction',
  line,
  preTokens,
  meterBefore: estimateBefore,
  estimateBefore,
});

function run(c: ReplayCycle, signals: MeterSignal[]): { cycle: ReplayCycle; events: ReplayEvent[] } {
  const events: ReplayEvent[] = [];
  let cycle = c;
  for (const sig of signals) cycle = replaySignal(cycle, sig, events);
  return { cycle, events };
}
const names = (events: ReplayEvent[]): string[] => events.map((e) => e.event);

// what the summary reads of the reader, beside the cycle's own counts
const readerAt = (model: string | null): Pick<TranscriptReader, 'meter' | 'splitter'> =>
  ({
    meter: { model, readings: 3, peak: 170_000, compactions: 1, overflows: 0 },
    splitter: { lineNo: 9, dropped: 0 },
  }) as unknown as Pick<TranscriptReader, 'meter' | 'splitter'>;

t.test('--window sets the policy at once; the first reading announces it, once', async (t) => {
  const c = startReplay({ window: 200_000 });
  t.match(c.policy, { window: 200_000, at: 150_000, warnAt: 130_000, windowSource: 'flag' });
  const { events } = run(c, [reading(1, 10_000), reading(2, 20_000)]);
  t.same(names(events), ['policy', 'reading', 'reading']);
  t.match(events[0], { event: 'policy', line: 1, window: 200_000, at: 150_000 });
});

t.test("without --window the transcript's model name decides the window at the first reading", async (t) => {
  const c = startReplay({});
  t.equal(c.policy, null, 'not known before a reading');
  const { cycle } = run(c, [reading(1, 10_000, 'claude-opus-4-7[1m]')]);
  t.equal(cycle.policy?.windowSource, 'model-name');
  t.equal(cycle.policy?.window, 1_000_000);
});

t.test('near at the warning line and handoff at the line, each once a generation', async (t) => {
  const { cycle, events } = run(startReplay({ window: 200_000 }), [
    reading(1, 100_000),
    reading(2, 131_000),
    reading(3, 140_000),
    reading(4, 151_000),
    reading(5, 160_000),
  ]);
  t.same(names(events), ['policy', 'reading', 'reading', 'near', 'reading', 'reading', 'handoff', 'reading']);
  t.match(events[3], { event: 'near', line: 2, context: 131_000, warnAt: 130_000 });
  t.match(events[6], { event: 'handoff', line: 4, context: 151_000, at: 150_000 });
  t.equal(cycle.handoffs, 1);
});

t.test('a compaction starts a new generation: near and handoff may come again', async (t) => {
  const { cycle, events } = run(startReplay({ window: 200_000 }), [
    reading(1, 155_000),
    compaction(2, 160_000, 158_000),
    reading(3, 40_000),
    reading(4, 152_000),
  ]);
  t.same(names(events), [
    'policy',
    'reading',
    'near',
    'handoff',
    'compaction',
    'reading',
    'reading',
    'near',
    'handoff',
  ]);
  t.match(events[4], { event: 'compaction', line: 2, preTokens: 160_000, meter: 158_000 });
  t.equal(cycle.handoffs, 2);
  t.equal(cycle.lowestCompaction, 160_000, "Claude Code's own figure, when it gave one");
});

t.test("a compaction with no preTokens is counted at the meter's estimate", async (t) => {
  const { cycle } = run(startReplay({ window: 200_000 }), [reading(1, 10_000), compaction(2, null, 120_000)]);
  t.equal(cycle.lowestCompaction, 120_000);
});

t.test('the summary says a compaction below the line and the window to replay with', async (t) => {
  // a 1M window guessed from the model name, compacted at 160k: the session's window was 200k
  const { cycle } = run(startReplay({}), [reading(1, 150_000, 'claude-opus-4-7[1m]'), compaction(2, 160_000, 159_000)]);
  const summary = replaySummary(cycle, readerAt('claude-opus-4-7[1m]'));
  t.match(summary, {
    event: 'summary',
    lines: 9,
    readings: 3,
    peak: 170_000,
    window: 1_000_000,
    handoffs: 0,
    compactions: 1,
    compactedBelow: { context: 160_000, suggest: 200_000 },
  });
  const above = run(startReplay({ window: 200_000 }), [reading(1, 150_000), compaction(2, 160_000, 159_000)]);
  t.match(replaySummary(above.cycle, readerAt(null)), { compactedBelow: null, handoffs: 1 });
});

t.test('a summary with no reading takes its policy from the meter at the end', async (t) => {
  const summary = replaySummary(startReplay({}), readerAt('claude-opus-4-7[1m]'));
  t.match(summary, { event: 'summary', window: 1_000_000, windowSource: 'model-name', compactedBelow: null });
});

t.test("windowAbove: Claude's windows are 200k or 1M", async (t) => {
  t.equal(windowAbove(150_000), 200_000);
  t.equal(windowAbove(199_999), 200_000);
  t.equal(windowAbove(200_000), 1_000_000);
});

t.test('signals that change no decision pass without an event', async (t) => {
  const c = startReplay({ window: 200_000 });
  const { cycle, events } = run(c, [
    { kind: 'turn-end', line: 1, source: 'x' },
    { kind: 'interrupt', line: 2 },
  ]);
  t.same(events, []);
  t.equal(cycle, c, 'the same state');
});
