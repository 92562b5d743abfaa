// The report's transcript scan: the live meter's reader fed line by line, plus each line's time.
import t from 'tap';
import { TRANSCRIPT_ROWS } from '../../../src/claude-code/transcript-rows.js';
const { timestampIn } = TRANSCRIPT_ROWS;
import { createTranscriptScanner, MAX_MARKS } from '../../../src/core/report/report-transcript.js';
import { assistantLine, userLine } from '../../helpers/report-lineage.js';

const enc = new TextEncoder();
const T = Date.parse('2026-11-30T22:00:00.000Z');
const SID = '11111111-2222-4333-8444-555555555555';

function transcript(): string {
  return (
    [
      userLine(SID, 'start', T),
      assistantLine(SID, 1, 20_000, T + 1_000),
      'not json at all',
      assistantLine(SID, 2, 90_000, T + 2_000),
      '{"broken": ',
      assistantLine(SID, 3, 151_000, T + 3_000),
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        type: 'system',
        subtype: 'compact_boundary',
        compactMetadata: { trigger: 'auto', preTokens: 160_000, postTokens: 3_000 },
        timestamp: new Date(T + 4_000).toISOString(),
        sessionId: SID,
      }),
      assistantLine(SID, 4, 30_000, T + 5_000),
    ].join('\n') + '\n'
  );
}

t.test('the timestamp of a record is found from the end of its line', async (t) => {
  t.equal(timestampIn(enc.encode(assistantLine(SID, 1, 20_000, T + 1234))), T + 1234);
  t.equal(timestampIn(enc.encode('{"a":1}')), null);
  t.equal(
    timestampIn(enc.encode('{"text":"a \\"timestamp\\":\\"2020-01-01T00:00:00Z\\" in a string"}')),
    null,
    'an escaped one inside a string is not it',
  );
  t.equal(timestampIn(enc.encode('{"timestamp":"yesterday"}')), null);
});

t.test('readings with their times, the crossing, the compaction; junk lines counted, not fatal', async (t) => {
  const s = createTranscriptScanner({ at: 150_000, rows: TRANSCRIPT_ROWS });
  s.push(enc.encode(transcript()));
  const r = s.end();
  t.same(
    r.points.map((p) => [p.t - T, p.v]),
    [
      [1000, 20_000],
      [2000, 90_000],
      [3000, 151_000],
      [5000, 30_000],
    ],
  );
  t.same(r.crossing && [r.crossing.t - T, r.crossing.v, r.crossing.line], [3000, 151_000, 6]);
  t.equal(r.compactions.length, 1);
  t.same(
    r.compactions[0] && [(r.compactions[0].t ?? 0) - T, r.compactions[0].preTokens, r.compactions[0].before],
    [4000, 160_000, 151_000],
  );
  t.equal(r.junkLines, 1, "the line that is not a JSON object (a cut-off object is the reader's to skip)");
  t.equal(r.peak, 151_000);
  t.equal(r.turns, 4);
  t.equal(r.untimed, false);
  t.equal(r.firstAt, T);
  t.equal(r.lastAt, T + 5_000);
});

t.test('the result does not depend on where the chunks split (byte by byte, lines cut in two)', async (t) => {
  const bytes = enc.encode(transcript());
  const whole = createTranscriptScanner({ at: 150_000, rows: TRANSCRIPT_ROWS });
  whole.push(bytes);
  const expected = whole.end();
  for (const size of [1, 7, 333]) {
    const s = createTranscriptScanner({ at: 150_000, rows: TRANSCRIPT_ROWS });
    for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size));
    t.same(s.end(), expected, `chunks of ${size} byte(s)`);
  }
});

t.test('no final newline, no timestamps: readings keep their order and say so', async (t) => {
  // (at least the helper's 1050 of input and cache creation: a reading below makes a negative count, which the meter ignores)
  const lines = [1, 2, 3].map((k) => JSON.parse(assistantLine(SID, k, k * 10_000, T)) as Record<string, unknown>);
  for (const l of lines) delete l.timestamp;
  const s = createTranscriptScanner({ at: null, rows: TRANSCRIPT_ROWS });
  s.push(enc.encode(lines.map((l) => JSON.stringify(l)).join('\n')));
  const r = s.end();
  t.equal(r.untimed, true);
  t.same(
    r.points.map((p) => [p.t, p.v]),
    [
      [1, 10_000],
      [2, 20_000],
      [3, 30_000],
    ],
    'x is the line number',
  );
  t.equal(r.crossing, null);
});

t.test('an overflow row is marked with its text', async (t) => {
  const s = createTranscriptScanner({ at: 150_000, rows: TRANSCRIPT_ROWS });
  const row = JSON.stringify({
    type: 'assistant',
    isSidechain: false,
    sessionId: SID,
    timestamp: new Date(T + 9000).toISOString(),
    isApiErrorMessage: true,
    message: {
      id: 'x',
      model: '<synthetic>',
      role: 'assistant',
      content: [{ type: 'text', text: 'Prompt is too long' }],
      usage: { input_tokens: 0, output_tokens: 0 },
    },
  });
  s.push(enc.encode(`${assistantLine(SID, 1, 100, T)}\n${row}\n`));
  const r = s.end();
  t.same(
    r.overflows.map((o) => [(o.t ?? 0) - T, o.text]),
    [[9000, 'Prompt is too long']],
  );
  t.equal(r.overflowCount, 1);
});

t.test('compaction marks are bounded; the count is not', async (t) => {
  const boundary = (k: number): string =>
    JSON.stringify({
      type: 'system',
      subtype: 'compact_boundary',
      isSidechain: false,
      sessionId: SID,
      timestamp: new Date(T + k).toISOString(),
      compactMetadata: { preTokens: 1000, postTokens: 10 },
    });
  const s = createTranscriptScanner({ at: null, rows: TRANSCRIPT_ROWS });
  s.push(
    enc.encode(
      Array.from({ length: MAX_MARKS + 50 }, (_, k) => `${assistantLine(SID, k, 1000, T + k)}\n${boundary(k)}\n`).join(
        '',
      ),
    ),
  );
  const r = s.end();
  t.equal(r.compactions.length, MAX_MARKS);
  t.equal(r.compactionCount, MAX_MARKS + 50);
});
