// Bytes of a transcript in, meter signals out: the line splitter, the dialect's row reader (handed in
// as a value, claude-code/transcript-rows.ts) and the meter composed once, for the live tail and for
// replay alike. Pure and incremental.

import { createLineSplitter, type LineSplitter } from './jsonl.js';
import type { TranscriptRows } from './transcript-record.js';
import { createMeter, type Meter, type MeterSignal } from './context-meter.js';

export interface TranscriptReader {
  /** feed raw bytes; returns the signals of the lines they completed */
  push(chunk: Uint8Array | string): MeterSignal[];
  /** end of input: the last unterminated line */
  end(): MeterSignal[];
  /** at least one line parsed as a transcript record */
  readonly sawRecord: boolean;
  readonly meter: Meter;
  readonly splitter: LineSplitter;
}

// Other readers of the same rows (the session's own state, claude-code/session-scope.ts; its tool runs,
// claude-code/tool-runs.ts). Each line is parsed at most once, and every row parsed (for the meter, or
// for any reader) goes to every reader: most rows they read are rows the meter parses anyway, so a reader
// scans no line of its own for them, and a cheap test is asked only of the lines the meter passes over.
export interface RowTap {
  /** a cheap test on a raw line the meter passes over: true when this reader needs it parsed too;
   *  absent when the meter's rows are all it reads */
  alsoWants?: (line: string) => boolean;
  /** any parsed row (not only those its test let through) */
  row(value: unknown): void;
}

export function createTranscriptReader(
  rows: TranscriptRows,
  opts: { taps?: readonly RowTap[] } = {},
): TranscriptReader {
  const splitter = createLineSplitter();
  const meter = createMeter();
  let sawRecord = false;
  const taps = opts.taps ?? [];
  const tests = taps.flatMap((tap) => (tap.alsoWants === undefined ? [] : [tap.alsoWants]));

  function take(lines: string[]): MeterSignal[] {
    const signals: MeterSignal[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.length === 0) continue;
      // Until one record has parsed, parse everything: that is how a non-transcript is recognised.
      // After that, rows that cannot move the meter skip JSON.parse (most of a transcript's bytes).
      const forMeter = !sawRecord || rows.mayMoveMeter(line);
      if (!forMeter && !tests.some((wants) => wants(line))) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue; // a torn or foreign line: skipping it is the whole policy
      }
      for (const tap of taps) tap.row(value);
      if (!forMeter) continue;
      const record = rows.toRecord(value);
      if (record === null) continue;
      sawRecord = true;
      signals.push(...meter.feed(record, splitter.lineNumber(i)));
    }
    return signals;
  }

  return {
    push: (chunk) => take(splitter.push(chunk)),
    end: () => take(splitter.end()),
    get sawRecord() {
      return sawRecord;
    },
    meter,
    splitter,
  };
}
