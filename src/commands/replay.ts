// `flower-pty replay <transcript.jsonl>`: streams a recorded transcript through the reader, the
// meter and the handoff cycle's crossing rule, and prints what flower-pty would have done, and where.

import { createReadStream, statSync } from 'node:fs';
import type { LineSplitter } from '../core/meter/jsonl.js';
import type { MeterSignal } from '../core/meter/context-meter.js';
import { createTranscriptReader } from '../core/meter/transcript-reader.js';
import { TRANSCRIPT_ROWS } from '../claude-code/transcript-rows.js';
import { resolvePolicy, type Policy } from '../core/run/policy.js';
import { crossing } from '../core/decide/stages/handoff.js';
import { EXIT, FlowerError } from '../core/errors.js';

export interface ReplayOptions {
  file: string;
  window?: number;
  headroom?: number;
  json: boolean;
  out: (line: string) => void;
}

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

/** how far into a file we look for one JSON line before calling it "not a transcript" */
export const SNIFF_BYTES = 64 * 1024;

export interface Replayer {
  /** feed raw bytes; returns the events they completed */
  push(chunk: Uint8Array): ReplayEvent[];
  /** end of input: the last line, then the summary */
  end(): ReplayEvent[];
  /** at least one line parsed as a transcript record */
  readonly sawRecord: boolean;
  readonly splitter: LineSplitter;
}

// The streaming core of the command, with no I/O: bytes in, events out. The benchmark drives it.
export function createReplayer(opts: { window?: number; headroom?: number }): Replayer {
  const reader = createTranscriptReader(TRANSCRIPT_ROWS);
  const { splitter, meter } = reader;
  // With --window the policy is known now (and a bad value fails before any reading);
  // otherwise it waits for the transcript's model name at the first reading.
  let policy: Policy | null = opts.window === undefined ? null : resolve(undefined);
  // the lowest context Claude Code compacted at (its own figure, else the meter's): a window above it is wrong
  let lowestCompaction: number | null = null;
  // The generation's place on its line: the notice sent, the cut marked (a replay has no boundary to cut at).
  let cycle: { nearSent: boolean; line: number; pendingCut: boolean } | null = null;
  let handoffs = 0;

  function resolve(model: string | undefined): Policy {
    // The seed's rule reads the model from ANTHROPIC_MODEL: the transcript's model plays that part.
    return resolvePolicy({
      window: opts.window,
      headroom: opts.headroom,
      env: model ? { ANTHROPIC_MODEL: model } : {},
    });
  }

  // A new generation: the start of the file, and after each compaction (Claude Code's stand-in for a handoff).
  function spawn(p: Policy): { nearSent: boolean; line: number; pendingCut: boolean } {
    return { nearSent: false, line: p.at, pendingCut: false };
  }

  function onReading(sig: Extract<MeterSignal, { kind: 'reading' }>, events: ReplayEvent[]): void {
    if (policy === null || cycle === null) {
      policy ??= resolve(sig.model ?? undefined);
      cycle = spawn(policy);
      const { window, at, warnAt, windowSource } = policy;
      events.push({ event: 'policy', line: sig.line, model: sig.model, window, at, warnAt, windowSource });
    }
    events.push({ event: 'reading', line: sig.line, context: sig.context });
    const crossed = crossing(cycle, sig.context, policy.warnAt);
    if (crossed.near) {
      cycle = { ...cycle, nearSent: true };
      events.push({ event: 'near', line: sig.line, context: sig.context, warnAt: policy.warnAt });
    }
    // The cycle marks the crossing; the real run would cut at the next tool or turn boundary.
    if (crossed.cut && !cycle.pendingCut) {
      cycle = { ...cycle, pendingCut: true };
      handoffs += 1;
      events.push({ event: 'handoff', line: sig.line, context: sig.context, at: cycle.line });
    }
  }

  function onSignal(sig: MeterSignal, events: ReplayEvent[]): void {
    switch (sig.kind) {
      case 'reading':
        onReading(sig, events);
        break;
      case 'compaction':
        // `meter` is the estimate (reading + what came after it), the measure Claude Code compacted on.
        events.push({ event: 'compaction', line: sig.line, preTokens: sig.preTokens, meter: sig.estimateBefore });
        lowestCompaction = Math.min(lowestCompaction ?? Infinity, sig.preTokens ?? sig.estimateBefore);
        if (policy !== null && cycle !== null) cycle = spawn(policy);
        break;
      case 'overflow':
        events.push({ event: 'overflow', line: sig.line });
        break;
      case 'session':
        events.push({ event: 'session', line: sig.line, sessionId: sig.sessionId });
        break;
      default:
        break; // prompts, turn ends and interrupts change no decision in a replay
    }
  }

  return {
    push(chunk) {
      const events: ReplayEvent[] = [];
      for (const sig of reader.push(chunk)) onSignal(sig, events);
      return events;
    },
    end() {
      const events: ReplayEvent[] = [];
      for (const sig of reader.end()) onSignal(sig, events);
      const p = policy ?? resolve(meter.model ?? undefined);
      events.push({
        event: 'summary',
        lines: splitter.lineNo,
        readings: meter.readings,
        peak: meter.peak,
        window: p.window,
        at: p.at,
        warnAt: p.warnAt,
        handoffs,
        compactions: meter.compactions,
        overflows: meter.overflows,
        dropped: splitter.dropped,
        model: meter.model,
        windowSource: p.windowSource,
        compactedBelow:
          lowestCompaction !== null && lowestCompaction < p.at
            ? { context: lowestCompaction, suggest: windowAbove(lowestCompaction) }
            : null,
      });
      return events;
    },
    get sawRecord() {
      return reader.sawRecord;
    },
    splitter,
  };
}

/** the window a session that compacted at `context` most likely had: Claude's are 200k or 1M */
export function windowAbove(context: number): number {
  return context < 200_000 ? 200_000 : 1_000_000;
}

// 130000 → "130.0K"; a window prints without decimals: 200000 → "200K", 1000000 → "1M".
function tokens(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(2)}M` : `${(n / 1000).toFixed(1)}K`;
}
function windowText(n: number): string {
  if (n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n % 1000 === 0) return `${n / 1000}K`;
  return tokens(n);
}
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const BAR_CELLS = 20;
function bar(context: number, window: number): string {
  const filled = Math.max(0, Math.min(BAR_CELLS, Math.round((context / window) * BAR_CELLS)));
  return '█'.repeat(filled) + '░'.repeat(BAR_CELLS - filled);
}

const WINDOW_SOURCE_TEXT: Record<Policy['windowSource'], string> = {
  flag: 'from --window',
  claude: 'reported by Claude Code',
  'model-name': "from the transcript's model name; --window N to override",
  default: 'the default; --window N to override',
};

// A readable timeline: a context bar per reading, one line per decision or event.
function formatHuman(e: ReplayEvent, window: number): string {
  const gutter = (line: number): string => String(line).padStart(7);
  const pad = ' '.repeat(7);
  switch (e.event) {
    case 'policy':
      return (
        `model ${e.model ?? '(unknown)'} · window ${windowText(e.window)} (${WINDOW_SOURCE_TEXT[e.windowSource]}) · ` +
        `near at ${tokens(e.warnAt)} · handoff at ${tokens(e.at)}\n   line  context`
      );
    case 'reading':
      return `${gutter(e.line)}  ${bar(e.context, window)}  ${tokens(e.context)}/${windowText(window)}`;
    case 'near':
      return `${pad}  → near: ${tokens(e.context)} passed the warning line ${tokens(e.warnAt)}`;
    case 'handoff':
      return `${pad}  → HANDOFF here (at ${tokens(e.at)}): the document is asked for at the next tool or turn boundary`;
    case 'compaction':
      return `${gutter(e.line)}  × compaction: Claude Code compacted at ${e.preTokens === null ? '?' : tokens(e.preTokens)} (meter ${tokens(e.meter)}); a new generation starts`;
    case 'overflow':
      return `${gutter(e.line)}  ! overflow: the prompt did not fit; flower-pty would hand off (degraded) here`;
    case 'session':
      return `${gutter(e.line)}  ◇ session ${e.sessionId}`;
    case 'summary':
      return (
        `\n${plural(e.lines, 'line')}, ${plural(e.readings, 'reading')}, peak ${tokens(e.peak)}/${windowText(e.window)} ` +
        `(window ${WINDOW_SOURCE_TEXT[e.windowSource]}): ${plural(e.handoffs, 'handoff')}, ` +
        `${plural(e.compactions, 'compaction')}, ${plural(e.overflows, 'overflow')}` +
        (e.dropped > 0 ? `, ${plural(e.dropped, 'over-long line')} skipped` : '') +
        (e.compactedBelow === null
          ? ''
          : `\nClaude Code compacted at ${tokens(e.compactedBelow.context)}, below the handoff line ${tokens(e.at)} of the ${windowText(e.window)} window assumed: ` +
            `the session's window was smaller; replay with --window ${windowText(e.compactedBelow.suggest).toLowerCase()}`)
      );
  }
}

function fail(message: string, cause?: unknown): never {
  throw new FlowerError(message, EXIT.usage, cause === undefined ? undefined : { cause });
}

function checkFile(file: string): void {
  let st;
  try {
    st = statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      fail(
        `replay: no such file ${file}: give the path of a transcript, e.g. ~/.claude/projects/<dir>/<session>.jsonl`,
      );
    fail(`replay: cannot read ${file} (${code ?? String(error)})`, error);
  }
  if (st.isDirectory()) fail(`replay: ${file} is a directory: give one transcript .jsonl file from it`);
  // a FIFO would hold the read open for ever, a device (/dev/zero) would never end
  if (!st.isFile())
    fail(`replay: ${file} is ${st.isFIFO() ? 'a FIFO' : 'not a regular file'}: give a transcript .jsonl file`);
}

// Streams the file (never read whole: transcripts reach a gigabyte) and prints the timeline.
// Returns the exit code; a person's mistake is thrown as a one-line FlowerError (exit 2).
export async function runReplay(opts: ReplayOptions): Promise<number> {
  if (opts.window !== undefined && !(Number.isFinite(opts.window) && opts.window > 0)) {
    fail(`replay: --window expects a positive token count like 200000 or 200k, got ${String(opts.window)}`);
  }
  checkFile(opts.file);
  const replayer = createReplayer({ window: opts.window, headroom: opts.headroom });
  let window = opts.window ?? 0;
  const emit = (events: ReplayEvent[]): void => {
    for (const e of events) {
      if (e.event === 'policy') window = e.window;
      opts.out(opts.json ? JSON.stringify(e) : formatHuman(e, window));
    }
  };
  const notTranscript = (): never =>
    fail(
      `replay: ${opts.file} is not a Claude Code transcript: no JSON record in its first ${SNIFF_BYTES / 1024} KB (expected a .jsonl file)`,
    );
  let firstByte: number | undefined;
  try {
    for await (const chunk of createReadStream(opts.file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      firstByte ??= chunk.find((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
      emit(replayer.push(chunk));
      // A huge first JSON line may take more than 64 KB; anything else by then is not JSONL.
      const sniffed = replayer.splitter.bytes >= SNIFF_BYTES;
      if (sniffed && !replayer.sawRecord && (firstByte !== 0x7b || replayer.splitter.lineNo > 0)) notTranscript();
    }
  } catch (error) {
    if (error instanceof FlowerError) throw error;
    fail(`replay: reading ${opts.file} failed: ${error instanceof Error ? error.message : String(error)}`, error);
  }
  const tail = replayer.end();
  if (!replayer.sawRecord) {
    if (replayer.splitter.bytes === 0) fail(`replay: ${opts.file} is empty: nothing to replay`);
    notTranscript();
  }
  emit(tail);
  return EXIT.ok;
}
