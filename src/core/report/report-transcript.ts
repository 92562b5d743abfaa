// One generation's transcript for the report: bytes in, the context curve (downsampled), the
// handoff crossing, compactions, overflows, cost and turns out. Pure and incremental. It feeds the
// live meter's own reader (createTranscriptReader) one line at a time, so it can also take the
// timestamp of each line that moved the meter: the reader's signals carry line numbers, not times.

import { createTranscriptReader } from '../meter/transcript-reader.js';
import type { TranscriptRows } from '../meter/transcript-record.js';
import { createCurveSampler, DEFAULT_MAX_POINTS, type CurvePoint } from './downsample.js';

export interface TranscriptMark {
  /** ms since the epoch; null when the line had no timestamp */
  t: number | null;
  line: number;
}

export interface TranscriptScan {
  bytes: number;
  lines: number;
  readings: number;
  peak: number;
  /** the meter's context at the end */
  context: number;
  costUsd: number | null;
  turns: number;
  model: string | null;
  /** downsampled readings; `t` is the line's timestamp (or the previous one's when it had none) */
  points: CurvePoint[];
  /** no reading line had a timestamp: `t` holds the line number instead */
  untimed: boolean;
  /** the first reading at or above the handoff line */
  crossing: CurvePoint | null;
  /** the first MAX_MARKS of each; the totals are below */
  compactions: Array<TranscriptMark & { preTokens: number | null; before: number }>;
  overflows: Array<TranscriptMark & { text: string }>;
  compactionCount: number;
  overflowCount: number;
  /** non-empty lines that are not JSON objects (junk), and over-long lines the splitter skipped */
  junkLines: number;
  droppedLines: number;
  firstAt: number | null;
  lastAt: number | null;
}

export interface TranscriptScanner {
  push(chunk: Uint8Array): void;
  end(): TranscriptScan;
}

const NEWLINE = 0x0a;
const OVERFLOW_TEXT_CHARS = 300;
/** compactions and overflows kept with their place; past this they are only counted (meter.compactions, meter.overflows) */
export const MAX_MARKS = 100;

function isObjectLine(pieces: Uint8Array[]): boolean | null {
  for (const piece of pieces) {
    for (const b of piece) {
      if (b === 0x20 || b === 0x09 || b === 0x0d || b === NEWLINE) continue;
      return b === 0x7b; // '{'
    }
  }
  return null; // an empty line is not junk
}

export function createTranscriptScanner(opts: {
  at: number | null;
  rows: TranscriptRows;
  maxPoints?: number;
}): TranscriptScanner {
  const reader = createTranscriptReader(opts.rows);
  const sampler = createCurveSampler(opts.maxPoints ?? DEFAULT_MAX_POINTS);
  let partial: Uint8Array[] = [];
  let bytes = 0;
  let lastT: number | null = null;
  let firstAt: number | null = null;
  let lastAt: number | null = null;
  let sawTime = false;
  let junkLines = 0;
  let crossing: CurvePoint | null = null;
  // Readings before the first timestamp wait for it.
  let waiting: CurvePoint[] = [];
  const compactions: TranscriptScan['compactions'] = [];
  const overflows: TranscriptScan['overflows'] = [];

  // A line cut across chunks is joined first: the pattern may straddle the cut.
  function lineTime(pieces: Uint8Array[]): number | null {
    if (pieces.length <= 1) return pieces.length === 0 ? null : opts.rows.timestampIn(pieces[0] as Uint8Array);
    const whole = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const p of pieces) {
      whole.set(p, offset);
      offset += p.length;
    }
    return opts.rows.timestampIn(whole);
  }

  function addPoint(p: CurvePoint): void {
    if (opts.at !== null && crossing === null && p.v >= opts.at) crossing = p;
    sampler.add(p);
  }

  function take(signals: ReturnType<typeof reader.push>, pieces: Uint8Array[]): void {
    if (isObjectLine(pieces) === false) junkLines += 1;
    if (signals.length === 0) return;
    const own = lineTime(pieces);
    if (own !== null) {
      sawTime = true;
      lastT = own;
      firstAt ??= own;
      lastAt = own;
      for (const p of waiting) addPoint({ ...p, t: own });
      waiting = [];
    }
    for (const s of signals) {
      if (s.kind === 'reading') {
        const p = { t: lastT ?? s.line, v: s.context, line: s.line };
        if (lastT === null) waiting.push(p);
        else addPoint(p);
      } else if (s.kind === 'compaction' && compactions.length < MAX_MARKS) {
        compactions.push({ t: own, line: s.line, preTokens: s.preTokens, before: s.meterBefore });
      } else if (s.kind === 'overflow' && overflows.length < MAX_MARKS) {
        overflows.push({ t: own, line: s.line, text: s.text.slice(0, OVERFLOW_TEXT_CHARS) });
      }
    }
  }

  return {
    push(chunk) {
      bytes += chunk.length;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(NEWLINE, start);
        if (nl === -1) break;
        const piece = chunk.subarray(start, nl + 1);
        const signals = reader.push(piece);
        take(signals, partial.length === 0 ? [piece] : [...partial, piece]);
        partial = [];
        start = nl + 1;
      }
      if (start < chunk.length) {
        const rest = chunk.subarray(start);
        take(reader.push(rest), []);
        partial.push(rest.slice()); // a caller may reuse its buffer
      }
    },
    end() {
      take(reader.end(), partial);
      partial = [];
      // No timestamp anywhere: the readings keep their line numbers as x.
      for (const p of waiting) addPoint(p);
      waiting = [];
      const m = reader.meter;
      return {
        bytes,
        lines: reader.splitter.lineNo,
        readings: m.readings,
        peak: m.peak,
        context: m.context,
        costUsd: m.costUsd,
        turns: m.numTurns,
        model: m.model,
        points: sampler.points(),
        untimed: !sawTime && m.readings > 0,
        crossing,
        compactions,
        overflows,
        compactionCount: m.compactions,
        overflowCount: m.overflows,
        junkLines,
        droppedLines: reader.splitter.dropped,
        firstAt,
        lastAt,
      };
    },
  };
}
