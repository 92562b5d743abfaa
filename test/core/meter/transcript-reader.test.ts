// The composed reader: the same signals whatever the chunking, and the skip of rows that cannot
// move the meter changes nothing a caller sees.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTranscriptReader } from '../../../src/core/meter/transcript-reader.js';
import { createLineSplitter } from '../../../src/core/meter/jsonl.js';
import { parseRecord, TRANSCRIPT_ROWS } from '../../../src/claude-code/transcript-rows.js';
import { createMeter, type MeterSignal } from '../../../src/core/meter/context-meter.js';
import { claudeFixtures, fixturesDir } from '../../helpers/fixtures.js';

const files = [
  claudeFixtures('2.1.332', 'sessions', 'interrupt', '916027cd-11c4-47a2-b016-c835104931da.jsonl'),
  claudeFixtures('2.1.332', 'sessions', 'blocked-prompt-too-long', '4b3a40db-d761-46ca-817d-72dd1463617b.jsonl'),
  join(fixturesDir(), 'spotter-2.1.39', 'tool_heavy.jsonl'),
];

// The slow reference: every line parsed, no skipping.
function reference(bytes: Uint8Array): MeterSignal[] {
  const splitter = createLineSplitter();
  const meter = createMeter();
  const out: MeterSignal[] = [];
  const lines = [...splitter.push(bytes), ...splitter.end()];
  lines.forEach((line, i) => {
    const record = parseRecord(line);
    if (record) out.push(...meter.feed(record, i + 1));
  });
  return out;
}

for (const file of files) {
  t.test(file.split('/').slice(-2).join('/'), async (t) => {
    const bytes = new Uint8Array(readFileSync(file));
    const ref = reference(bytes).filter((s) => s.kind !== 'session');
    const reader = createTranscriptReader(TRANSCRIPT_ROWS);
    const got: MeterSignal[] = [];
    let at = 0;
    let size = 1;
    while (at < bytes.length) {
      got.push(...reader.push(bytes.subarray(at, at + size)));
      at += size;
      size = (size * 7 + 3) % 4096 || 1;
    }
    got.push(...reader.end());
    t.ok(ref.length > 0, 'the fixture has signals');
    t.same(
      got.filter((s) => s.kind !== 'session'),
      ref,
      'same signals as parsing every line',
    );
    t.ok(reader.sawRecord);
    t.equal(reader.meter.context, ref.filter((s) => s.kind === 'reading').at(-1)?.context ?? 0);
  });
}
