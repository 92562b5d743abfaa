// Transcript trouble at the tail adapter + reader + meter (the supervisor's pipeline): missing, appearing
// late, truncated, replaced (/clear), a torn line, binary junk, a 10 MB single line, and a 1 GB file
// (made in os.tmpdir() and removed) read with bounded memory. Never a throw; the meter right afterwards.
import t from 'tap';
import {
  appendFileSync,
  closeSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTranscriptTail } from '../../src/adapters/transcript-tail.js';
import { createTranscriptReader, type TranscriptReader } from '../../src/core/meter/transcript-reader.js';
import { TRANSCRIPT_ROWS } from '../../src/claude-code/transcript-rows.js';

const assistant = (id: string, context: number, text = 'ok') =>
  JSON.stringify({
    type: 'assistant',
    sessionId: 's1',
    message: {
      id,
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text }],
      usage: { input_tokens: 100, cache_read_input_tokens: context - 100, output_tokens: 5 },
    },
  }) + '\n';

function follow(path: string) {
  let reader: TranscriptReader = createTranscriptReader(TRANSCRIPT_ROWS);
  const resets: string[] = [];
  const tail = openTranscriptTail({
    path,
    pollMs: 10_000, // the test drives it with catchUp()
    onChunk: (bytes) => void reader.push(bytes),
    onReset: (reason) => {
      resets.push(reason);
      reader = createTranscriptReader(TRANSCRIPT_ROWS);
    },
  });
  return {
    tail,
    resets,
    get meter() {
      return reader.meter;
    },
  };
}

t.test('missing, then appearing late, torn, truncated, replaced', async (t) => {
  const dir = t.testdir();
  const path = join(dir, 's.jsonl');
  const f = follow(path);
  t.teardown(() => f.tail.close());
  f.tail.catchUp();
  t.equal(f.meter.context, 0, 'a missing file is just nothing yet');
  writeFileSync(path, assistant('m1', 20_000));
  f.tail.catchUp();
  t.equal(f.meter.context, 20_000, 'appearing late is picked up');
  const line = assistant('m2', 30_000);
  appendFileSync(path, line.slice(0, 50));
  f.tail.catchUp();
  t.equal(f.meter.context, 20_000, 'half a line waits');
  appendFileSync(path, line.slice(50));
  f.tail.catchUp();
  t.equal(f.meter.context, 30_000, 'the torn line completes');
  truncateSync(path, 0);
  appendFileSync(path, assistant('m3', 5_000));
  f.tail.catchUp();
  t.same(f.resets, ['truncated']);
  t.equal(f.meter.context, 5_000, 'counted from zero after truncation');
  writeFileSync(join(dir, 'new.jsonl'), assistant('m4', 7_000));
  renameSync(join(dir, 'new.jsonl'), path);
  f.tail.catchUp();
  t.same(f.resets, ['truncated', 'replaced']);
  t.equal(f.meter.context, 7_000, 'a replaced file is read from its start');
});

t.test('binary junk and a 10 MB single line', async (t) => {
  const path = join(t.testdir(), 's.jsonl');
  writeFileSync(path, assistant('m1', 10_000));
  const f = follow(path);
  t.teardown(() => f.tail.close());
  appendFileSync(
    path,
    Buffer.concat([
      randomBytes(256 * 1024),
      Buffer.from('\n\u0000\u00ff{"type":"assistant",\n'),
      randomBytes(4096),
      Buffer.from('\n'),
    ]),
  );
  appendFileSync(path, assistant('m2', 40_000));
  t.doesNotThrow(() => f.tail.catchUp());
  t.equal(f.meter.context, 40_000, 'the good line after the junk counts');
  appendFileSync(path, assistant('m3', 60_000, 'y'.repeat(10 * 1024 * 1024)));
  appendFileSync(path, assistant('m4', 61_000));
  t.doesNotThrow(() => f.tail.catchUp());
  t.equal(f.meter.context, 61_000);
  t.equal(f.meter.peak, 61_000);
});

t.test('a 1 GB transcript: caught up with bounded memory, the meter right afterwards', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flower-1gb-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'big.jsonl');
  // Mostly progress rows (the bulk of real transcripts), an assistant reading every ~1 MB.
  const filler = JSON.stringify({ type: 'progress', sessionId: 's1', data: { output: 'z'.repeat(2000) } }) + '\n';
  const block = Buffer.from(filler.repeat(500));
  const fd = openSync(path, 'w');
  let n = 0;
  for (let written = 0; written < 1024 ** 3; written += block.length) {
    writeSync(fd, block);
    writeSync(fd, assistant(`m${n}`, 10_000 + (n % 1000) * 100));
    n++;
  }
  writeSync(fd, assistant('last', 123_456));
  closeSync(fd);
  // maxRSS is the process's high-water mark (KiB): growth past the mark before the catch-up is its cost.
  const before = process.resourceUsage().maxRSS;
  const f = follow(path);
  t.teardown(() => f.tail.close());
  f.tail.catchUp();
  const grewMb = (process.resourceUsage().maxRSS - before) / 1024;
  t.equal(f.meter.context, 123_456, 'the last reading wins');
  t.equal(f.meter.numTurns, n + 1, 'every reading counted');
  t.ok(grewMb < 200, `peak RSS grew ${grewMb.toFixed(0)} MB reading 1 GB (< 200 MB)`);
});
