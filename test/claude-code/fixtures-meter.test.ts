// The meter on REAL transcripts: spotter 2.1.39 sessions that Claude Code compacted (the oracle
// is compactMetadata.preTokens) and the 2.1.332 edge cases (subagents, interrupt, /clear, overflow).
import t from 'tap';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLineSplitter } from '../../src/core/meter/jsonl.js';
import { mayMoveMeter, parseRecord } from '../../src/claude-code/transcript-rows.js';
import { createMeter, type Meter, type MeterSignal } from '../../src/core/meter/context-meter.js';
import { claudeFixtures, fixturesDir } from '../helpers/fixtures.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = fixturesDir();
const spotter = path.join(fixtures, 'spotter-2.1.39');
const cc332 = claudeFixtures('2.1.332', 'sessions');

interface Fed {
  signals: MeterSignal[];
  /** meter.context after each line, by line number */
  contextAt: Map<number, number>;
}

// A seeded PRNG so a failing chunking is reproducible.
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// Feed a file through splitter → parser → meter; `seed` picks random chunk sizes (0 = one chunk).
function feedFile(file: string, meter: Meter = createMeter(), seed = 0): Fed {
  const data = readFileSync(file);
  const splitter = createLineSplitter();
  const signals: MeterSignal[] = [];
  const contextAt = new Map<number, number>();
  const take = (lines: string[]): void => {
    for (const [i, line] of lines.entries()) {
      const no = splitter.lineNumber(i);
      const rec = parseRecord(line);
      if (rec) signals.push(...meter.feed(rec, no));
      contextAt.set(no, meter.context);
    }
  };
  if (seed === 0) {
    take(splitter.push(data));
  } else {
    const rnd = mulberry32(seed);
    for (let at = 0; at < data.length; ) {
      // Mostly small chunks, sometimes large: both cut lines and UTF-8 sequences.
      const size = rnd() < 0.7 ? 1 + Math.floor(rnd() * 64) : 1 + Math.floor(rnd() * 65536);
      take(splitter.push(data.subarray(at, at + size)));
      at += size;
    }
  }
  take(splitter.end());
  return { signals, contextAt };
}

const only = <K extends MeterSignal['kind']>(s: MeterSignal[], kind: K): Extract<MeterSignal, { kind: K }>[] =>
  s.filter((x): x is Extract<MeterSignal, { kind: K }> => x.kind === kind);

const spotterFiles = readdirSync(spotter)
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => path.join(spotter, f));
const cc332Files = readdirSync(cc332, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(path.join(cc332, d.name))
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => path.join(cc332, d.name, f)),
  );
const fileIn = (folder: string): string => {
  const f = cc332Files.find((p) => path.basename(path.dirname(p)) === folder);
  if (!f) throw new Error(`fixture folder ${folder} has no .jsonl`);
  return f;
};

t.test('spotter 2.1.39: the meter agrees with Claude Code at every compaction', async (t) => {
  let boundaries = 0;
  for (const file of spotterFiles) {
    const { signals } = feedFile(file);
    for (const c of only(signals, 'compaction')) {
      boundaries += 1;
      const name = `${path.basename(file)} line ${c.line}`;
      t.ok(c.preTokens !== null && c.preTokens > 0, `${name}: has preTokens`);
      const pre = c.preTokens ?? 0;
      const off = Math.abs(c.estimateBefore - pre) / pre;
      t.ok(
        off <= 0.03,
        `${name}: estimate ${c.estimateBefore} within 3% of preTokens ${pre} (${(off * 100).toFixed(2)}%)`,
      );
      // The bare reading is a lower bound: Claude Code adds the response's output and what came after.
      t.ok(c.meterBefore > 0 && c.meterBefore <= pre, `${name}: reading ${c.meterBefore} <= preTokens ${pre}`);
      t.comment(
        `${name}: reading/preTokens = ${(c.meterBefore / pre).toFixed(4)}, estimate/preTokens = ${(c.estimateBefore / pre).toFixed(4)}`,
      );
    }
  }
  t.ok(boundaries >= 1, `the spotter set has compaction boundaries (${boundaries})`);
});

t.test('2.1.332 subagents-folder: files under <session>/subagents/ do not move the main reading', async (t) => {
  const main = fileIn('subagents-folder');
  const meter = createMeter();
  const fed = feedFile(main, meter);
  const before = { context: meter.context, peak: meter.peak, readings: meter.readings, numTurns: meter.numTurns };
  t.equal(before.peak, 180000, 'the first reply read 50 + 1000 + 178950');
  t.equal(before.context, 16500);
  const subDir = path.join(main.replace(/\.jsonl$/, ''), 'subagents');
  const subFiles = readdirSync(subDir).filter((f) => f.endsWith('.jsonl'));
  t.ok(subFiles.length >= 1, 'the fixture has a subagent transcript');
  let subSignals = 0;
  for (const f of subFiles) subSignals += feedFile(path.join(subDir, f), meter).signals.length;
  t.equal(subSignals, 0, 'sidechain rows produce no signals');
  t.same({ context: meter.context, peak: meter.peak, readings: meter.readings, numTurns: meter.numTurns }, before);
  t.same(
    only(fed.signals, 'overflow').map((s) => s.line),
    [55],
    'the synthetic "Prompt is too long" row',
  );
  t.equal(meter.model, 'claude-opus-5-5');
});

t.test('2.1.332 interrupt: an interrupt signal; the interrupted stream row still reads', async (t) => {
  const meter = createMeter();
  const { signals, contextAt } = feedFile(fileIn('interrupt'), meter);
  t.same(
    only(signals, 'interrupt').map((s) => s.line),
    [24, 31],
  );
  // Line 23 is the row left by the interrupted stream: stop_reason null, output_tokens 1.
  t.same(
    only(signals, 'reading').map((s) => [s.line, s.context]),
    [
      [23, 16500],
      [30, 16500],
    ],
  );
  t.equal(contextAt.get(24), 16500, 'the interrupt does not reset the reading');
  t.equal(meter.context, 16500);
  t.equal(only(signals, 'turn-end').length, 0, 'an interrupted turn writes no turn_duration');
  t.equal(meter.prompts, 2);
});

t.test('2.1.332 /clear: a second session id from the same process', async (t) => {
  // Files sorted by their first timestamp: the pre-/clear session, then the new one.
  const files = cc332Files
    .filter((p) => path.basename(path.dirname(p)) === 'clear-new-session')
    .sort((a, b) => firstTimestamp(a).localeCompare(firstTimestamp(b)));
  t.equal(files.length, 2);
  const meter = createMeter();
  const first = feedFile(files[0] ?? '', meter);
  t.equal(meter.context, 50000);
  const second = feedFile(files[1] ?? '', meter);
  const changes = only([...first.signals, ...second.signals], 'session');
  t.equal(changes.length, 2, 'the first id, then the change');
  t.equal(changes[1]?.previous, changes[0]?.sessionId);
  t.not(changes[1]?.sessionId, changes[0]?.sessionId);
  t.equal(second.contextAt.get(1), 0, '/clear empties the context');
  t.equal(meter.context, 16500);
  t.ok(Math.abs((meter.costUsd ?? 0) - (0.019215 + 0.009855)) < 1e-9, 'cost sums both sessions');
});

function firstTimestamp(file: string): string {
  const m = /"timestamp":"([^"]+)"/.exec(readFileSync(file, 'utf8'));
  return m?.[1] ?? '';
}

t.test('2.1.332 blocked prompt: an overflow signal, and the synthetic row keeps the context', async (t) => {
  const meter = createMeter();
  const { signals, contextAt } = feedFile(fileIn('blocked-prompt-too-long'), meter);
  const overflow = only(signals, 'overflow');
  t.same(
    overflow.map((s) => [s.line, s.text]),
    [[34, 'Prompt is too long']],
  );
  t.equal(contextAt.get(33), 178000);
  t.equal(contextAt.get(34), 178000, 'the zero-usage synthetic row is not a reading');
  t.equal(meter.peak, 178000);
  t.equal(meter.costUsd, 0.062145, 'the newest cost-state of the session (restored on --resume)');
  t.equal(meter.turnEnds, 2, 'two completed turns; the blocked prompt completes none');
});

t.test('2.1.332 reactive compaction: boundaries, overflow, cost', async (t) => {
  const meter = createMeter();
  const { signals } = feedFile(fileIn('compaction-reactive-and-subagent'), meter);
  const c = only(signals, 'compaction');
  t.same(
    c.map((s) => [s.line, s.preTokens, s.postTokens]),
    [
      [57, 16549, 3082],
      [83, 3243, 3036],
    ],
  );
  const first = c[0];
  t.ok(first && Math.abs(first.estimateBefore - 16549) / 16549 <= 0.03, `estimate ${first?.estimateBefore} ~ 16549`);
  t.equal(first?.meterBefore, 16500);
  t.same(
    only(signals, 'overflow').map((s) => s.line),
    [88],
  );
  t.equal(meter.context, 3036, 'after the last boundary, postTokens until the next response');
  t.equal(meter.costUsd, 0.1813695);
  t.equal(meter.numTurns, 4, 'four API responses on the main thread (message ids)');
});

t.test('random chunk sizes give identical signals', async (t) => {
  const files = [...spotterFiles, ...cc332Files];
  for (const file of files) {
    const expected = feedFile(file).signals;
    for (const seed of [1, 2]) {
      t.same(feedFile(file, createMeter(), seed).signals, expected, `${path.basename(file)} seed ${seed}`);
    }
  }
});

// The cheap test before JSON.parse must never pass over a row the meter reads, and it passes over progress
// rows by their first `"type":` key: on every real transcript in the repository, every row the meter reads
// passes it, and no progress row does, whatever the messages inside it.
t.test('the line test lets every meter row through and no progress row, on every fixture', async (t) => {
  const all = path.join(repoRoot, 'test', 'fixtures');
  const files = readdirSync(all, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => path.join(all, f));
  t.ok(files.length > 30, `${files.length} transcripts`);
  let meterRows = 0;
  let progressRows = 0;
  let progressWithMessages = 0;
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      const type = (value as { type?: unknown } | null)?.type;
      if (type === 'assistant' || type === 'user' || type === 'system' || type === 'cost-state') {
        meterRows += 1;
        if (!mayMoveMeter(line)) t.fail(`${path.relative(all, file)}: a ${type} row passed over`);
      } else if (type === 'progress') {
        progressRows += 1;
        if (/"type":"(?:user|assistant)"/.test(line)) progressWithMessages += 1;
        if (mayMoveMeter(line)) t.fail(`${path.relative(all, file)}: a progress row let through`);
      }
    }
  }
  t.ok(meterRows > 1000, `${meterRows} meter rows let through`);
  t.ok(
    progressWithMessages > 10,
    `${progressWithMessages} of ${progressRows} progress rows carry messages, and are passed over`,
  );
  t.ok(mayMoveMeter('{"type": "user","message":{}}'), 'pretty-printed');
  t.notOk(mayMoveMeter('{"userType":"user"}'), 'another key ending in type');
  t.notOk(mayMoveMeter('{"type":"users"}'), 'a longer value');
});
