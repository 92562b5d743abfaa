// A document's coverage of its session's transcript at the freeze: the transcript read again as a stream
// (awaited chunk by chunk, so the event loop and the live tail never wait on it) and bounded in bytes; its
// main-thread rows go through the dialect's fact-row reader (claude-code/fact-rows.ts) into the scorer's
// collector, which holds only the facts (core/coverage), and the document is scored against them. Only the
// freeze asks, once or twice a generation.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createLineSplitter } from '../core/meter/jsonl.js';
import { scoreDocument, type CoverageScore } from '../core/coverage/coverage-score.js';
import { createFactCollector, type SuccessorFacts } from '../core/coverage/successor-facts.js';
import { createFactRowReader } from '../claude-code/fact-rows.js';

/** a transcript past this is not read for the check (the freeze goes on without a score, and says so) */
export const COVERAGE_READ_BYTES = 1024 * 1024 * 1024;

/** the facts of the transcript at `path` as it is now, up to its line `lines` (all of them when absent);
 * throws when it cannot be read or is past `limit` bytes */
export async function factsOfTranscript(
  path: string,
  opts: { limit?: number; lines?: number } = {},
): Promise<SuccessorFacts> {
  const limit = opts.limit ?? COVERAGE_READ_BYTES;
  const size = (await stat(path)).size;
  if (size > limit) throw new Error(`the transcript is ${size} bytes, more than the ${limit} the check reads`);
  const reader = createFactRowReader();
  const facts = createFactCollector();
  const lines = createLineSplitter();
  const last = opts.lines ?? Number.POSITIVE_INFINITY;
  let n = 0;
  const take = (line: string): void => {
    n += 1;
    if (n > last || !reader.mayHold(line)) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return; // a half-written last row, or junk: no fact
    }
    for (const row of reader.row(value)) facts.push(row);
  };
  // Only what was there when the reading began: the session may go on writing while it is read.
  if (size > 0) {
    for await (const chunk of createReadStream(path, { end: size - 1, highWaterMark: 1 << 20 })) {
      for (const line of lines.push(chunk as Buffer)) take(line);
      if (n >= last) break;
    }
  }
  for (const line of lines.end()) take(line);
  return facts.facts();
}

/** the score of `text` against the transcript at `path` as it is now; throws when it cannot be read */
export async function scoreAgainstTranscript(
  path: string,
  text: string,
  limit = COVERAGE_READ_BYTES,
): Promise<CoverageScore> {
  return scoreDocument(await factsOfTranscript(path, { limit }), text);
}
