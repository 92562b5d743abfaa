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
// claude-code/tool-runs.ts): each says which lines it wants by a cheap test, and gets each one parsed
// once, shared with the meter and the other taps.
export interface RowTap {
  /** a cheap test on the raw line; 'parsed': no test, every row parsed anyway (for the meter or another
   *  tap) and only those: for a reader whose rows the meter always parses, a scan of every line saved */
  wants: ((line: string) => boolean) | 'parsed';
  row(value: unknown): void;
}

export function createTranscriptReader(rows: TranscriptRows, opts: { taps?: readonly RowTap[] } = {}): TranscriptReader {
  const splitter = createLineSplitter();
  const meter = createMeter();
  let sawRecord = false;
  const tested = (opts.taps ?? []).filter((tap) => tap.wants !== 'parsed');
  const anyParsed = (opts.taps ?? []).filter((tap) => tap.wants === 'parsed');
  const wanting: RowTap[] = [];

  function take(lines: string[]): MeterSignal[] {
    const signals: MeterSignal[] = [];
    for (const [i, line] of lines.entries()) {
      // Until one record has parsed, parse everything: that is how a non-transcript is recognised.
      // After that, rows that cannot move the meter skip JSON.parse (most of a transcript's bytes).
      const forMeter = !sawRecord || rows.mayMoveMeter(line);
      wanting.length = 0;
      for (const tap of tested) if ((tap.wants as (line: string) => boolean)(line)) wanting.push(tap);
      if ((!forMeter && wanting.length === 0) || line.length === 0) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue; // a torn or foreign line: skipping it is the whole policy
      }
      for (const tap of wanting) tap.row(value);
      for (const tap of anyParsed) tap.row(value);
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
