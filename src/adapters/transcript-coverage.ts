// A document's coverage of its session's transcript at the freeze: the transcript read again, off the event
// loop's critical path (a stream, chunk by chunk, awaited between chunks) and bounded in bytes, its rows
// turned into the scorer's facts and the document scored (core/eval). Only the freeze asks, once or twice a
// generation; the live tail never waits on it.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createLineSplitter } from '../core/meter/jsonl.js';
import { scoreDocument, successorFacts, type CoverageScore } from '../core/eval/coverage-score.js';

/** a transcript past this is not read for the check (the freeze goes on without a score, and says so) */
export const COVERAGE_READ_BYTES = 512 * 1024 * 1024;

/** the score of `text` against the transcript at `path`; throws a one-line Error when it cannot be read */
export async function scoreAgainstTranscript(path: string, text: string, limit = COVERAGE_READ_BYTES): Promise<CoverageScore> {
  const size = (await stat(path)).size;
  if (size > limit) throw new Error(`the transcript is ${size} bytes, more than the ${limit} the check reads`);
  const rows: unknown[] = [];
  const lines = createLineSplitter();
  const take = (line: string): void => {
    try {
      rows.push(JSON.parse(line));
    } catch {
      // a half-written last row, or junk: not a fact
    }
  };
  // `end`: only what was there when the check began (the session goes on writing while it is read).
  for await (const chunk of createReadStream(path, { end: Math.max(0, size - 1), highWaterMark: 1 << 20 })) {
    for (const line of lines.push(chunk as Buffer)) take(line);
  }
  for (const line of lines.end()) take(line);
  return scoreDocument(successorFacts(rows), text);
}
