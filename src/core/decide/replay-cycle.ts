// The handoff cycle over a recorded transcript, as `flower-pty replay` shows it: the policy in force, a
// generation's near notice and its cut (the live run's own `crossing` rule), a compaction as the start of
// the next generation, and the summary with the window a compaction below the line gives away. Pure:
// meter signals in, replay events out; the command reads the file and prints.

import type { MeterSignal } from '../meter/context-meter.js';
import { createTranscriptReader, type TranscriptReader } from '../meter/transcript-reader.js';
import type { TranscriptRows } from '../meter/transcript-record.js';
import { resolvePolicy, type Policy } from '../run/policy.js';
import type { HandoffCycle } from '../run/run-state.js';
import { crossing } from './stages/handoff.js';

export type ReplayEvent =
  | { event: 'reading'; line: number; context: number }
  | { event: 'near'; line: number; context: number; warnAt: number }
  | { event: 'handoff'; line: number; context: number; at: number }
  | { event: 'compaction'; line: number; preTokens: number | null; meter: number }
  | { event: 'overflow'; line: number }
  | { event: 'session'; line: number; sessionId: string }
  /** once, at the first reading: the window and lines in force (the model name is known by then) */
  | {
      event: 'policy';
      line: number;
      model: string | null;
      window: number;
      at: number;
      warnAt: number;
      windowSource: Policy['windowSource'];
    }
  | {
      event: 'summary';
      lines: number;
      readings: number;
      peak: number;
      window: number;
      at: number;
      warnAt: number;
      handoffs: number;
      compactions: number;
      overflows: number;
      dropped: number;
      model: string | null;
      windowSource: Policy['windowSource'];
      /**
       * Claude Code compacted below this window's handoff line: the session's window was smaller than the
       * one assumed (a 1M guess from the model name on a 200k session). The lowest compaction and the
       * window to replay with; null when every compaction was above the line (or there was none).
       */
      compactedBelow: { context: number; suggest: number } | null;
    };

/** a generation's place on its line: the notice sent, the cut marked (a replay has no boundary to cut at) */
export type ReplayGeneration = Pick<HandoffCycle, 'nearSent' | 'line' | 'pendingCut'>;

/** everything a replay has decided so far */
export interface ReplayCycle {
  readonly window: number | undefined;
  readonly headroom: number | undefined;
  /** known from --window at once, else from the transcript's model name at the first reading */
  readonly policy: Policy | null;
  /** null until the first reading */
  readonly generation: ReplayGeneration | null;
  readonly handoffs: number;
  /** the lowest context Claude Code compacted at (its own figure, else the meter's): a window above it is wrong */
  readonly lowestCompaction: number | null;
}

// The seed's rule reads the model from ANTHROPIC_MODEL: the transcript's model plays that part.
function replayPolicy(c: Pick<ReplayCycle, 'window' | 'headroom'>, model: string | null | undefined): Policy {
  return resolvePolicy({ window: c.window, headroom: c.headroom, env: model ? { ANTHROPIC_MODEL: model } : {} });
}

// A new generation: the start of the file, and after each compaction (Claude Code's stand-in for a handoff).
function freshGeneration(p: Policy): ReplayGeneration {
  return { nearSent: false, line: p.at, pendingCut: false };
}

/** With --window the policy is known now (and a bad value fails before any reading). */
export function startReplay(opts: { window?: number; headroom?: number }): ReplayCycle {
  const base = { window: opts.window, headroom: opts.headroom };
  return {
    ...base,
    policy: opts.window === undefined ? null : replayPolicy(base, undefined),
    generation: null,
    handoffs: 0,
    lowestCompaction: null,
  };
}

function onReading(c: ReplayCycle, sig: Extract<MeterSignal, { kind: 'reading' }>, events: ReplayEvent[]): ReplayCycle {
  let policy = c.policy;
  let gen = c.generation;
  if (policy === null || gen === null) {
    policy ??= replayPolicy(c, sig.model);
    gen = freshGeneration(policy);
    const { window, at, warnAt, windowSource } = policy;
    events.push({ event: 'policy', line: sig.line, model: sig.model, window, at, warnAt, windowSource });
  }
  events.push({ event: 'reading', line: sig.line, context: sig.context });
  const crossed = crossing(gen, sig.context, policy.warnAt);
  if (crossed.near) {
    gen = { ...gen, nearSent: true };
    events.push({ event: 'near', line: sig.line, context: sig.context, warnAt: policy.warnAt });
  }
  let handoffs = c.handoffs;
  // The cycle marks the crossing; the real run would cut at the next tool or turn boundary.
  if (crossed.cut && !gen.pendingCut) {
    gen = { ...gen, pendingCut: true };
    handoffs += 1;
    events.push({ event: 'handoff', line: sig.line, context: sig.context, at: gen.line });
  }
  return { ...c, policy, generation: gen, handoffs };
}

/** one meter signal: the replay's next state, its events appended to `events` */
export function replaySignal(c: ReplayCycle, sig: MeterSignal, events: ReplayEvent[]): ReplayCycle {
  switch (sig.kind) {
    case 'reading':
      return onReading(c, sig, events);
    case 'compaction': {
      // `meter` is the estimate (reading + what came after it), the measure Claude Code compacted on.
      events.push({ event: 'compaction', line: sig.line, preTokens: sig.preTokens, meter: sig.estimateBefore });
      const lowestCompaction = Math.min(c.lowestCompaction ?? Infinity, sig.preTokens ?? sig.estimateBefore);
      const generation = c.policy !== null && c.generation !== null ? freshGeneration(c.policy) : c.generation;
      return { ...c, lowestCompaction, generation };
    }
    case 'overflow':
      events.push({ event: 'overflow', line: sig.line });
      return c;
    case 'session':
      events.push({ event: 'session', line: sig.line, sessionId: sig.sessionId });
      return c;
    default:
      return c; // prompts, turn ends and interrupts change no decision in a replay
  }
}

/** the window a session that compacted at `context` most likely had: Claude's are 200k or 1M */
export function windowAbove(context: number): number {
  return context < 200_000 ? 200_000 : 1_000_000;
}

/** the last event: the whole transcript's counts, the policy in force, and a compaction below its line */
export function replaySummary(c: ReplayCycle, reader: Pick<TranscriptReader, 'meter' | 'splitter'>): ReplayEvent {
  const { meter, splitter } = reader;
  const p = c.policy ?? replayPolicy(c, meter.model);
  return {
    event: 'summary',
    lines: splitter.lineNo,
    readings: meter.readings,
    peak: meter.peak,
    window: p.window,
    at: p.at,
    warnAt: p.warnAt,
    handoffs: c.handoffs,
    compactions: meter.compactions,
    overflows: meter.overflows,
    dropped: splitter.dropped,
    model: meter.model,
    windowSource: p.windowSource,
    compactedBelow:
      c.lowestCompaction !== null && c.lowestCompaction < p.at
        ? { context: c.lowestCompaction, suggest: windowAbove(c.lowestCompaction) }
        : null,
  };
}

export interface Replayer {
  /** feed raw bytes; returns the events they completed */
  push(chunk: Uint8Array): ReplayEvent[];
  /** end of input: the last line, then the summary */
  end(): ReplayEvent[];
  /** at least one line parsed as a transcript record */
  readonly sawRecord: boolean;
  readonly splitter: TranscriptReader['splitter'];
}

// The streaming replay: bytes in, events out, the dialect's rows handed in as a value.
export function createReplayer(rows: TranscriptRows, opts: { window?: number; headroom?: number }): Replayer {
  const reader = createTranscriptReader(rows);
  let cycle = startReplay(opts);
  const signals = (sigs: readonly MeterSignal[]): ReplayEvent[] => {
    const events: ReplayEvent[] = [];
    for (const sig of sigs) cycle = replaySignal(cycle, sig, events);
    return events;
  };
  return {
    push: (chunk) => signals(reader.push(chunk)),
    end() {
      const events = signals(reader.end());
      events.push(replaySummary(cycle, reader));
      return events;
    },
    get sawRecord() {
      return reader.sawRecord;
    },
    splitter: reader.splitter,
  };
}
