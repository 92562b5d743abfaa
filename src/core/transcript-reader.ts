// Bytes of a transcript in, meter signals out: the line splitter, the record parser and the meter
// composed once, for the live tail and for replay alike. Pure and incremental.

import { createLineSplitter, type LineSplitter } from './jsonl.js';
import { mayMoveMeter, parseRecord } from './transcript-record.js';
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

// `onLine` sees every complete line before the meter's filter (the session's own state, read by the dialect).
export function createTranscriptReader(opts: { onLine?: (line: string) => void } = {}): TranscriptReader {
  const splitter = createLineSplitter();
  const meter = createMeter();
  let sawRecord = false;

  function take(lines: string[]): MeterSignal[] {
    const signals: MeterSignal[] = [];
    for (const [i, line] of lines.entries()) {
      opts.onLine?.(line);
      // Until one record has parsed, parse everything: that is how a non-transcript is recognised.
      // After that, rows that cannot move the meter skip JSON.parse (most of a transcript's bytes).
      if (sawRecord && !mayMoveMeter(line)) continue;
      const record = parseRecord(line);
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
