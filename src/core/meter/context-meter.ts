// The context meter: folds transcript records into the main thread's context size and the
// signals a supervisor acts on (readings, turn ends, compactions, overflows, prompts). Pure.

import type { AssistantRecord, SystemRecord, TranscriptRecord, UserRecord } from './transcript-record.js';

export type MeterSignal =
  | { kind: 'reading'; line: number; context: number; messageId: string | null; model: string | null }
  /** the text of a main-thread response row: what the reply a stop hook carries is matched against */
  | { kind: 'assistant-text'; line: number; text: string; messageId: string | null }
  /** a main-thread response row's tool calls: what the call id a tool's hook carries is matched against */
  | { kind: 'tool-use'; line: number; ids: string[] }
  /** `source` names the row that ended it, in the dialect's words */
  | { kind: 'turn-end'; line: number; source: string }
  | {
      kind: 'compaction';
      line: number;
      preTokens: number | null;
      postTokens?: number;
      /** the meter's reading (in+cc+cr) when Claude Code compacted */
      meterBefore: number;
      /** the reading plus what was written since it, Claude Code's own measure (see `estimate`) */
      estimateBefore: number;
    }
  | { kind: 'overflow'; line: number; text: string }
  /** a request refused by a usage limit: parked until `resetsAtMs` (null: not said), continuing by itself or not */
  | { kind: 'usage-limit'; line: number; resetsAtMs: number | null; autoContinues: boolean }
  | { kind: 'user-prompt'; line: number; text: string }
  /** a person's own `/add-dir`, accepted: a directory a successor may be given again */
  | { kind: 'added-dir'; line: number; dir: string }
  /** the permission mode claude wrote on a main-thread row: a mode the session was in, which a successor may keep */
  | { kind: 'permission-mode'; line: number; mode: string }
  | { kind: 'interrupt'; line: number }
  /** a row's token count out of any sane range (negative, fractional, not finite, far above any window):
   *  the row moved nothing; said for the first such row of a transcript only */
  | { kind: 'usage-ignored'; line: number; field: string; value: number }
  | { kind: 'session'; line: number; sessionId: string; previous: string | null };

export interface Meter {
  feed(record: TranscriptRecord, line: number): MeterSignal[];
  /**
   * Main-thread context: input + cache_creation + cache_read of the newest main-chain response
   * (compactMetadata.postTokens right after a compaction, 0 before any response or after /clear).
   */
  readonly context: number;
  /**
   * `context` plus the newest response's own output and a chars/4 estimate of everything written
   * after it (tool results, prompts): what Claude Code itself compares with its threshold.
   */
  readonly estimate: number;
  /** highest `context` seen */
  readonly peak: number;
  /** model of the newest real response */
  readonly model: string | null;
  readonly sessionId: string | null;
  /** sum over sessions of the newest cost record; null when the transcript has none (older releases write no cost) */
  readonly costUsd: number | null;
  /** API responses on the main thread (distinct message ids), the Agent SDK's `num_turns` sense */
  readonly numTurns: number;
  /** human prompts */
  readonly prompts: number;
  /** completed turns (one or two turn-end rows after activity) */
  readonly turnEnds: number;
  readonly readings: number;
  readonly compactions: number;
  readonly overflows: number;
  readonly interrupts: number;
}

// What the rows carry, release by release, is written beside their reader (claude-code/transcript-rows.ts).
const CHARS_PER_TOKEN = 4; // Claude Code's rough estimator divides characters by 4

/** no window comes near it (the largest is 1M tokens): a count above it is a broken or hostile row */
export const MAX_SANE_TOKENS = 10_000_000;

/** a token count the meter may take: a whole number from 0 to MAX_SANE_TOKENS */
export function saneTokens(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0 && n <= MAX_SANE_TOKENS;
}

// The first field of a row's usage (or a compaction's counts) that is not sane, or null.
function insaneField(counts: Record<string, number | null | undefined>): { field: string; value: number } | null {
  for (const [field, value] of Object.entries(counts))
    if (value !== null && value !== undefined && !saneTokens(value)) return { field, value };
  return null;
}

// What the meter has folded so far: one plain record the folds below update in place (the meter reads
// transcripts of a gigabyte, so no copy a row).
interface MeterState {
  context: number;
  peak: number;
  model: string | null;
  sessionId: string | null;
  costBySession: Map<string, number>;
  numTurns: number;
  prompts: number;
  turnEnds: number;
  turnOpen: boolean;
  readings: number;
  compactions: number;
  overflows: number;
  interrupts: number;
  // The anchor is the newest response; Claude Code walks back over rows sharing its message.id.
  anchorId: string | null;
  anchorOutput: number;
  anchorChars: number;
  pendingChars: number;
  insaneSaid: boolean;
}

function freshState(): MeterState {
  return {
    context: 0,
    peak: 0,
    model: null,
    sessionId: null,
    costBySession: new Map(),
    numTurns: 0,
    prompts: 0,
    turnEnds: 0,
    turnOpen: false,
    readings: 0,
    compactions: 0,
    overflows: 0,
    interrupts: 0,
    anchorId: null,
    anchorOutput: 0,
    anchorChars: 0,
    pendingChars: 0,
    insaneSaid: false,
  };
}

// An insane count moves nothing: the row is dropped whole (said once a meter).
function insane(
  s: MeterState,
  counts: Record<string, number | null | undefined>,
  line: number,
  out: MeterSignal[],
): boolean {
  const bad = insaneField(counts);
  if (bad === null) return false;
  if (!s.insaneSaid) out.push({ kind: 'usage-ignored', line, ...bad });
  s.insaneSaid = true;
  return true;
}

function resetAnchor(s: MeterState): void {
  s.anchorId = null;
  s.anchorOutput = 0;
  s.anchorChars = 0;
  s.pendingChars = 0;
}

function estimateOf(s: MeterState): number {
  // Transcripts written while streaming keep output_tokens at 1 on every row of a response,
  // so the response's own text has to be estimated from its characters.
  const own = s.anchorId === null ? 0 : Math.max(s.anchorOutput, Math.ceil(s.anchorChars / CHARS_PER_TOKEN));
  return s.context + own + Math.ceil(s.pendingChars / CHARS_PER_TOKEN);
}

// A failed request's row: a usage limit, an overflow. It carries zero usage: it must never become the reading.
function onFailure(s: MeterState, failure: NonNullable<AssistantRecord['failure']>, line: number, out: MeterSignal[]) {
  if (failure.usageLimit)
    out.push({
      kind: 'usage-limit',
      line,
      resetsAtMs: failure.usageLimit.resetsAtMs,
      autoContinues: failure.usageLimit.autoContinues,
    });
  if (failure.overflow !== null) {
    s.overflows += 1;
    out.push({ kind: 'overflow', line, text: failure.overflow });
  }
}

function onAssistant(s: MeterState, r: AssistantRecord, line: number, out: MeterSignal[]): void {
  if (r.failure) return onFailure(s, r.failure, line, out);
  const u = r.usage;
  if (
    u !== null &&
    insane(
      s,
      {
        input_tokens: u.input,
        cache_creation_input_tokens: u.cacheCreation,
        cache_read_input_tokens: u.cacheRead,
        output_tokens: u.output,
      },
      line,
      out,
    )
  )
    return;
  // NO output tokens: the reading is what the model was sent, as Claude Code's statusline
  // `total_input_tokens` and ccstatusline count it. This response's output re-enters the
  // window only as part of the next request, and `estimate` adds it there.
  const total = u === null ? 0 : u.input + u.cacheCreation + u.cacheRead;
  if (total === 0) {
    s.pendingChars += r.contentChars;
    if (r.toolUseIds.length > 0) out.push({ kind: 'tool-use', line, ids: r.toolUseIds });
    return;
  }
  s.turnOpen = true;
  const sameResponse = r.messageId !== null && r.messageId === s.anchorId;
  if (sameResponse) {
    // Another content-block row of the same response: same input-side usage, counted once.
    s.anchorChars += r.contentChars;
    s.anchorOutput = Math.max(s.anchorOutput, u?.output ?? 0);
  } else {
    s.numTurns += 1;
    resetAnchor(s);
    s.anchorId = r.messageId;
    s.anchorOutput = u?.output ?? 0;
    s.anchorChars = r.contentChars;
  }
  if (!sameResponse || total !== s.context) {
    s.context = total;
    s.readings += 1;
    if (total > s.peak) s.peak = total;
    if (r.model !== null) s.model = r.model;
    out.push({ kind: 'reading', line, context: s.context, messageId: r.messageId, model: s.model });
  }
  if (r.text !== '') out.push({ kind: 'assistant-text', line, text: r.text, messageId: r.messageId });
  // After its reading: a PostToolUse hook waiting on this row is answered with the row counted.
  if (r.toolUseIds.length > 0) out.push({ kind: 'tool-use', line, ids: r.toolUseIds });
}

function onUser(s: MeterState, r: UserRecord, line: number, out: MeterSignal[]): void {
  if (r.said === 'summary') return; // already inside the compaction's postTokens
  s.pendingChars += r.contentChars;
  if (r.addedDir !== null) out.push({ kind: 'added-dir', line, dir: r.addedDir });
  if (r.permissionMode !== null) out.push({ kind: 'permission-mode', line, mode: r.permissionMode });
  if (r.said === 'interrupt') {
    s.interrupts += 1;
    out.push({ kind: 'interrupt', line });
    return;
  }
  if (r.said === 'prompt') {
    s.prompts += 1;
    s.turnOpen = true;
    out.push({ kind: 'user-prompt', line, text: r.text });
  }
}

function onSystem(s: MeterState, r: SystemRecord, line: number, out: MeterSignal[]): void {
  const e = r.event;
  if (e?.kind === 'compaction') {
    if (insane(s, { preTokens: e.preTokens, postTokens: e.postTokens }, line, out)) return;
    const pre = e.preTokens;
    const post = e.postTokens;
    const signal: MeterSignal = {
      kind: 'compaction',
      line,
      preTokens: pre,
      meterBefore: s.context,
      estimateBefore: estimateOf(s),
    };
    if (post !== null) signal.postTokens = post;
    out.push(signal);
    s.compactions += 1;
    s.context = post ?? 0;
    resetAnchor(s);
    return;
  }
  if (e?.kind === 'turn-end') {
    out.push({ kind: 'turn-end', line, source: e.source });
    // One turn writes both (stop hooks first): count the turn once.
    if (s.turnOpen) {
      s.turnEnds += 1;
      s.turnOpen = false;
    }
  }
}

// A row of another session than the last: said; after a first one, /clear started a new conversation
// empty in the same process.
function onSession(s: MeterState, sessionId: string, line: number, out: MeterSignal[]): void {
  const previous = s.sessionId;
  s.sessionId = sessionId;
  out.push({ kind: 'session', line, sessionId, previous });
  if (previous !== null) {
    s.context = 0;
    resetAnchor(s);
    s.turnOpen = false;
  }
}

export function createMeter(): Meter {
  const s = freshState();
  return {
    feed(record, line) {
      const out: MeterSignal[] = [];
      // Subagent rows carry the parent's session id but not its context.
      if (record.subagent) return out;
      if (record.sessionId !== null && record.sessionId !== s.sessionId) onSession(s, record.sessionId, line, out);
      switch (record.kind) {
        case 'assistant':
          onAssistant(s, record, line, out);
          break;
        case 'user':
          onUser(s, record, line, out);
          break;
        case 'system':
          onSystem(s, record, line, out);
          break;
        case 'cost':
          if (record.totalCostUsd !== null) s.costBySession.set(record.sessionId ?? '', record.totalCostUsd);
          break;
        case 'other':
          break;
      }
      return out;
    },
    get context() {
      return s.context;
    },
    get estimate() {
      return estimateOf(s);
    },
    get peak() {
      return s.peak;
    },
    get model() {
      return s.model;
    },
    get sessionId() {
      return s.sessionId;
    },
    get costUsd() {
      if (s.costBySession.size === 0) return null;
      let sum = 0;
      for (const v of s.costBySession.values()) sum += v;
      return sum;
    },
    get numTurns() {
      return s.numTurns;
    },
    get prompts() {
      return s.prompts;
    },
    get turnEnds() {
      return s.turnEnds;
    },
    get readings() {
      return s.readings;
    },
    get compactions() {
      return s.compactions;
    },
    get overflows() {
      return s.overflows;
    },
    get interrupts() {
      return s.interrupts;
    },
  };
}
