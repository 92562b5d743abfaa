// The context meter: folds transcript records into the main thread's context size and the
// signals a supervisor acts on (readings, turn ends, compactions, overflows, prompts). Pure.

import { isOverflowText } from './overflow.js';
import type { AssistantRecord, SystemRecord, TranscriptRecord, UserRecord } from './transcript-record.js';

export type MeterSignal =
  | { kind: 'reading'; line: number; context: number; messageId: string | null; model: string | null }
  /** the text of a main-thread response row: what a Stop hook's `last_assistant_message` is matched against */
  | { kind: 'assistant-text'; line: number; text: string; messageId: string | null }
  | { kind: 'turn-end'; line: number; source: 'turn_duration' | 'stop_hook_summary' }
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
  | { kind: 'interrupt'; line: number }
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
  /** sum over sessions of the newest `cost-state.totalCostUSD`; null when the transcript has none (before 2.1.3xx) */
  readonly costUsd: number | null;
  /** API responses on the main thread (distinct message ids), the Agent SDK's `num_turns` sense */
  readonly numTurns: number;
  /** human prompts */
  readonly prompts: number;
  /** completed turns (a turn_duration and/or stop_hook_summary after activity) */
  readonly turnEnds: number;
  readonly readings: number;
  readonly compactions: number;
  readonly overflows: number;
  readonly interrupts: number;
}

// What the transcripts carry for the counters (checked on the fixtures):
// - cost: 2.1.332 writes `cost-state` rows, cumulative per session (restored on --resume, reset by
//   /clear: the new session's file starts its own); 2.1.39 writes no cost at all, hence `null`.
// - turns: `system/turn_duration` ends a completed turn in 2.1.332, preceded by `stop_hook_summary`
//   only when Stop hooks are configured; neither is written after an interrupt or a client-side
//   "Prompt is too long" block, and 2.1.39 wrote turn_duration for only a few turns. So turn ends are
//   a signal, not a count to trust: `numTurns` counts API responses instead, which every version has.
// - the meter vs Claude Code's own compaction trigger (compactMetadata.preTokens, spotter 2.1.39):
//   the reading (in+cc+cr) is 96.8%, 99.6%, 99.9% of it; adding output_tokens gives 96.8%, 99.98%,
//   99.9%: neither choice holds 3% on 4d5611e5, whose last rows were written mid-stream (output_tokens 1)
//   before an 8 KB tool call and a 28 KB tool result. `estimate` (below) is 99.3%, 100.0%, 99.9%.
const CHARS_PER_TOKEN = 4; // Claude Code's rough estimator divides characters by 4
const INTERRUPT_PREFIX = '[Request interrupted by user'; // also "… for tool use]"
const SYNTHETIC_OVERFLOW_PREFIX = 'Prompt is too long'; // 2.1.332's client-side block and API 400 rows
// Typed-looking user rows that are the harness, not a person: slash-command echoes, bash mode, notifications.
const HARNESS_PREFIXES = ['<command-', '<local-command-', '<task-notification>', '<bash-', '<user-memory-input>'];

function isHumanPrompt(r: UserRecord): boolean {
  if (r.isMeta || r.isCompactSummary || r.hasToolResult) return false;
  if (r.origin !== null && r.origin !== 'human') return false; // 2.1.332 says so itself
  const text = r.text.trimStart();
  if (text.length === 0) return false;
  return !HARNESS_PREFIXES.some((p) => text.startsWith(p));
}

export function createMeter(): Meter {
  let context = 0;
  let peak = 0;
  let model: string | null = null;
  let sessionId: string | null = null;
  const costBySession = new Map<string, number>();
  let numTurns = 0;
  let prompts = 0;
  let turnEnds = 0;
  let turnOpen = false;
  let readings = 0;
  let compactions = 0;
  let overflows = 0;
  let interrupts = 0;
  // The anchor is the newest response; Claude Code walks back over rows sharing its message.id.
  let anchorId: string | null = null;
  let anchorOutput = 0;
  let anchorChars = 0;
  let pendingChars = 0;

  function resetAnchor(): void {
    anchorId = null;
    anchorOutput = 0;
    anchorChars = 0;
    pendingChars = 0;
  }

  function estimate(): number {
    // Transcripts written while streaming (2.1.39) keep output_tokens at 1 on every row of a
    // response, so the response's own text has to be estimated from its characters.
    const own = anchorId === null ? 0 : Math.max(anchorOutput, Math.ceil(anchorChars / CHARS_PER_TOKEN));
    return context + own + Math.ceil(pendingChars / CHARS_PER_TOKEN);
  }

  function onAssistant(r: AssistantRecord, line: number, out: MeterSignal[]): void {
    if (r.isApiError) {
      if (r.usageLimit) out.push({ kind: 'usage-limit', line, resetsAtMs: r.usageLimit.resetsAtMs, autoContinues: r.usageLimit.autoContinues });
      // A synthetic row carries zero usage: it must never become the reading.
      const overflow =
        r.text.startsWith(SYNTHETIC_OVERFLOW_PREFIX) ||
        isOverflowText(r.text) ||
        (r.errorDetails !== null && isOverflowText(r.errorDetails));
      if (overflow) {
        overflows += 1;
        out.push({ kind: 'overflow', line, text: r.text || (r.errorDetails ?? '') });
      }
      return;
    }
    const u = r.usage;
    // NO output tokens: the reading is what the model was sent, as Claude Code's statusline
    // `total_input_tokens` and ccstatusline count it. This response's output re-enters the
    // window only as part of the next request, and `estimate` adds it there.
    const total = u === null ? 0 : u.input + u.cacheCreation + u.cacheRead;
    if (total === 0) {
      pendingChars += r.contentChars;
      return;
    }
    turnOpen = true;
    const sameResponse = r.messageId !== null && r.messageId === anchorId;
    if (sameResponse) {
      // Another content-block row of the same response: same input-side usage, counted once.
      anchorChars += r.contentChars;
      anchorOutput = Math.max(anchorOutput, u?.output ?? 0);
    } else {
      numTurns += 1;
      resetAnchor();
      anchorId = r.messageId;
      anchorOutput = u?.output ?? 0;
      anchorChars = r.contentChars;
    }
    if (!sameResponse || total !== context) {
      context = total;
      readings += 1;
      if (total > peak) peak = total;
      if (r.model !== null) model = r.model;
      out.push({ kind: 'reading', line, context, messageId: r.messageId, model });
    }
    if (r.text !== '') out.push({ kind: 'assistant-text', line, text: r.text, messageId: r.messageId });
  }

  function onUser(r: UserRecord, line: number, out: MeterSignal[]): void {
    if (r.isCompactSummary) return; // already inside compactMetadata.postTokens
    pendingChars += r.contentChars;
    if (r.text.startsWith(INTERRUPT_PREFIX)) {
      interrupts += 1;
      out.push({ kind: 'interrupt', line });
      return;
    }
    if (isHumanPrompt(r)) {
      prompts += 1;
      turnOpen = true;
      out.push({ kind: 'user-prompt', line, text: r.text });
    }
  }

  function onSystem(r: SystemRecord, line: number, out: MeterSignal[]): void {
    if (r.subtype === 'compact_boundary') {
      const pre = r.compact?.preTokens ?? null;
      const post = r.compact?.postTokens ?? null;
      const signal: MeterSignal = { kind: 'compaction', line, preTokens: pre, meterBefore: context, estimateBefore: estimate() };
      if (post !== null) signal.postTokens = post;
      out.push(signal);
      compactions += 1;
      context = post ?? 0;
      resetAnchor();
      return;
    }
    if (r.subtype === 'turn_duration' || r.subtype === 'stop_hook_summary') {
      out.push({ kind: 'turn-end', line, source: r.subtype });
      // One turn writes both (stop hooks first): count the turn once.
      if (turnOpen) {
        turnEnds += 1;
        turnOpen = false;
      }
    }
  }

  return {
    feed(record, line) {
      const out: MeterSignal[] = [];
      // Subagent rows (inline in old versions) carry the parent's session id but not its context.
      if (record.isSidechain) return out;
      if (record.sessionId !== null && record.sessionId !== sessionId) {
        const previous = sessionId;
        sessionId = record.sessionId;
        out.push({ kind: 'session', line, sessionId: record.sessionId, previous });
        if (previous !== null) {
          // /clear: a new conversation starts empty in the same process.
          context = 0;
          resetAnchor();
          turnOpen = false;
        }
      }
      switch (record.kind) {
        case 'assistant':
          onAssistant(record, line, out);
          break;
        case 'user':
          onUser(record, line, out);
          break;
        case 'system':
          onSystem(record, line, out);
          break;
        case 'cost-state':
          if (record.totalCostUsd !== null) costBySession.set(record.sessionId ?? '', record.totalCostUsd);
          break;
        case 'other':
          break;
      }
      return out;
    },
    get context() {
      return context;
    },
    get estimate() {
      return estimate();
    },
    get peak() {
      return peak;
    },
    get model() {
      return model;
    },
    get sessionId() {
      return sessionId;
    },
    get costUsd() {
      if (costBySession.size === 0) return null;
      let sum = 0;
      for (const v of costBySession.values()) sum += v;
      return sum;
    },
    get numTurns() {
      return numTurns;
    },
    get prompts() {
      return prompts;
    },
    get turnEnds() {
      return turnEnds;
    },
    get readings() {
      return readings;
    },
    get compactions() {
      return compactions;
    },
    get overflows() {
      return overflows;
    },
    get interrupts() {
      return interrupts;
    },
  };
}
