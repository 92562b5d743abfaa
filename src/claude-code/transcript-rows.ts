// Claude Code's transcript rows (one JSONL line each), as 2.1.332 and the releases before it write them
// (docs/claude-code.md), narrowed from `unknown` into the core's records (core/meter/transcript-record.ts):
// the row's fields read, the row classified (a person's prompt, an interrupt, a failed request), so the
// meter in core knows no field name or prefix. Pure.
//
// What the transcripts carry for the meter (checked on the fixtures, test/claude-code/fixtures-meter.test.ts):
// - cost: 2.1.332 writes `cost-state` rows, cumulative per session (restored on --resume, reset by
//   /clear: the new session's file starts its own); 2.1.39 writes no cost at all, hence `null`.
// - turns: `system/turn_duration` ends a completed turn in 2.1.332, preceded by `stop_hook_summary`
//   only when Stop hooks are configured; neither is written after an interrupt or a client-side
//   "Prompt is too long" block, and 2.1.39 wrote turn_duration for only a few turns. So turn ends are
//   a signal, not a count to trust: the meter's `numTurns` counts API responses instead, which every version has.
// - the meter vs Claude Code's own compaction trigger (compactMetadata.preTokens, spotter 2.1.39):
//   the reading (in+cc+cr) is 96.8%, 99.6%, 99.9% of it; adding output_tokens gives 96.8%, 99.98%,
//   99.9%: neither choice holds 3% on 4d5611e5, whose last rows were written mid-stream (output_tokens 1)
//   before an 8 KB tool call and a 28 KB tool result. The meter's `estimate` is 99.3%, 100.0%, 99.9%.
// - subagent rows: inline (`isSidechain`) in old versions; in subagents/ files since ~2.1.
// - streaming: 2.1.39 keeps output_tokens at 1 on every row of a response written mid-stream.

import type { AssistantRecord, SystemRecord, TranscriptRecord, TranscriptRows, Usage, UserRecord } from '../core/meter/transcript-record.js';
import { isOverflowText } from './overflow.js';
import { usageLimitOfRow } from './usage-limit.js';

interface Envelope {
  sessionId: string | null;
  subagent: boolean;
}

type Obj = Record<string, unknown>;

function isObj(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function str(x: unknown): string | null {
  return typeof x === 'string' ? x : null;
}

function num(x: unknown): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? x : null;
}

// Claude Code's own estimate charges an image about 2000 tokens whatever its size.
const IMAGE_CHARS = 2_000 * 4;

// Characters a block puts into the next request; tool input counts as its JSON text.
function blockChars(block: unknown): number {
  if (!isObj(block)) return 0;
  switch (block.type) {
    case 'text':
      return str(block.text)?.length ?? 0;
    case 'thinking':
      return str(block.thinking)?.length ?? 0;
    case 'tool_use':
      return (str(block.name)?.length ?? 0) + (block.input === undefined ? 0 : JSON.stringify(block.input).length);
    case 'image':
      return IMAGE_CHARS;
    case 'tool_result':
      return contentChars(block.content);
    default:
      return 0;
  }
}

function contentChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const b of content) n += blockChars(b);
  return n;
}

function joinedText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const b of content) if (isObj(b) && b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
  return texts.join('\n');
}

function parseUsage(x: unknown): Usage | null {
  if (!isObj(x)) return null;
  return {
    input: num(x.input_tokens) ?? 0,
    cacheCreation: num(x.cache_creation_input_tokens) ?? 0,
    cacheRead: num(x.cache_read_input_tokens) ?? 0,
    output: num(x.output_tokens) ?? 0,
  };
}

function envelope(r: Obj): Envelope {
  return { sessionId: str(r.sessionId), subagent: r.isSidechain === true };
}

const INTERRUPT_PREFIX = '[Request interrupted by user'; // also "… for tool use]"
const SYNTHETIC_OVERFLOW_PREFIX = 'Prompt is too long'; // 2.1.332's client-side block and API 400 rows
// Typed-looking user rows that are the harness, not a person: slash-command echoes, bash mode, notifications.
const HARNESS_PREFIXES = ['<command-', '<local-command-', '<task-notification>', '<bash-', '<user-memory-input>'];

// A failed request's synthetic row (`isApiErrorMessage` or model "<synthetic>"): what it says, with no usage.
function failureOf(r: Obj, model: string | null, text: string): AssistantRecord['failure'] {
  if (r.isApiErrorMessage !== true && model !== '<synthetic>') return null;
  const details = str(r.errorDetails);
  const overflow = text.startsWith(SYNTHETIC_OVERFLOW_PREFIX) || isOverflowText(text) || (details !== null && isOverflowText(details));
  return { overflow: overflow ? text || (details ?? '') : null, usageLimit: usageLimitOfRow(r) };
}

// 2.1.332 says who wrote a user row (`origin.kind`: "human", "task-notification", …); older releases do not.
function saidBy(r: Obj, text: string, hasToolResult: boolean): UserRecord['said'] {
  if (r.isCompactSummary === true) return 'summary';
  if (text.startsWith(INTERRUPT_PREFIX)) return 'interrupt';
  if (r.isMeta === true || hasToolResult) return 'other';
  const origin = isObj(r.origin) ? str(r.origin.kind) : null;
  if (origin !== null && origin !== 'human') return 'other';
  const typed = text.trimStart();
  if (typed.length === 0 || HARNESS_PREFIXES.some((p) => typed.startsWith(p))) return 'other';
  return 'prompt';
}

// A person's `/add-dir DIR` at claude's prompt is written as the row of any slash command a person types:
// `<command-name>/add-dir</command-name>` … `<command-args>DIR</command-args>`, from a human origin.
const ADD_DIR_ROW = /^<command-name>\/add-dir<\/command-name>[\s\S]*?<command-args>([^<\n]+)<\/command-args>/;
function addedDirOf(r: Obj, text: string): string | null {
  const origin = isObj(r.origin) ? str(r.origin.kind) : null;
  if (r.isMeta === true || (origin !== null && origin !== 'human')) return null;
  const dir = ADD_DIR_ROW.exec(text.trimStart())?.[1]?.trim();
  return dir ? dir : null;
}

// That row is written before the person answers claude's dialog, and is the same when they say no: the
// refusal follows as a row of the command's output, `<local-command-stdout>Did not add DIR as a working
// directory.</local-command-stdout>` (seen on 2.1.332, docs/claude-code.md §4), which takes it back.
const ADD_DIR_REFUSED_ROW = /^<local-command-stdout>Did not add (.+?) as a working directory\.<\/local-command-stdout>/;
function refusedDirOf(r: Obj, text: string): string | null {
  if (r.isMeta === true || r.isSidechain === true) return null;
  const dir = ADD_DIR_REFUSED_ROW.exec(text.trimStart())?.[1]?.trim();
  return dir ? dir : null;
}

// 2.1.332 writes the session's permission mode on the main thread's user rows (`"permissionMode":"acceptEdits"`),
// the mode as it was when the row was written: after a shift+tab, the mode the person picked. Read from the
// rows a person wrote only, as the /add-dir rows are.
function permissionModeOf(r: Obj): string | null {
  const origin = isObj(r.origin) ? str(r.origin.kind) : null;
  if (r.isMeta === true || r.isSidechain === true || (origin !== null && origin !== 'human')) return null;
  const mode = str(r.permissionMode);
  return mode ? mode : null;
}

function toAssistant(r: Obj, env: Envelope): AssistantRecord {
  const m = isObj(r.message) ? r.message : {};
  const model = str(m.model);
  const text = joinedText(m.content);
  return {
    ...env,
    kind: 'assistant',
    messageId: str(m.id),
    model,
    usage: parseUsage(m.usage),
    text,
    toolUseIds: toolUseIdsOf(m.content),
    contentChars: contentChars(m.content),
    failure: failureOf(r, model, text),
  };
}

// `{"type":"tool_use","id":"toolu_…"}` blocks: the id a PostToolUse payload's tool_use_id names.
function toolUseIdsOf(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  const ids: string[] = [];
  for (const block of content) if (isObj(block) && block.type === 'tool_use' && typeof block.id === 'string') ids.push(block.id);
  return ids;
}

function toUser(r: Obj, env: Envelope): UserRecord {
  const m = isObj(r.message) ? r.message : {};
  const content = m.content;
  const hasToolResult = Array.isArray(content) && content.some((b) => isObj(b) && b.type === 'tool_result');
  const text = joinedText(content);
  return { ...env, kind: 'user', said: saidBy(r, text, hasToolResult), text, contentChars: contentChars(content), addedDir: addedDirOf(r, text), refusedDir: refusedDirOf(r, text), permissionMode: permissionModeOf(r) };
}

// The system rows the meter reads: a compaction's boundary, and the two rows that end a completed turn.
function toSystem(r: Obj, env: Envelope): SystemRecord {
  const subtype = str(r.subtype);
  if (subtype === 'compact_boundary') {
    const cm = isObj(r.compactMetadata) ? r.compactMetadata : {};
    return { ...env, kind: 'system', event: { kind: 'compaction', preTokens: num(cm.preTokens), postTokens: num(cm.postTokens) } };
  }
  if (subtype === 'turn_duration' || subtype === 'stop_hook_summary') return { ...env, kind: 'system', event: { kind: 'turn-end', source: subtype } };
  return { ...env, kind: 'system', event: null };
}

// Narrow an already-parsed JSON value; anything that is not a typed object is null.
export function toRecord(value: unknown): TranscriptRecord | null {
  if (!isObj(value)) return null;
  const type = str(value.type);
  if (type === null) return null;
  const env = envelope(value);
  switch (type) {
    case 'assistant':
      return toAssistant(value, env);
    case 'user':
      return toUser(value, env);
    case 'system':
      return toSystem(value, env);
    case 'cost-state':
      // 2.1.332 writes `cost-state` rows: cumulative per session, restored on --resume.
      return { ...env, kind: 'cost', totalCostUsd: num(value.totalCostUSD) };
    default:
      return { ...env, kind: 'other' };
  }
}

// Only these record types move the meter; a cheap substring test spares JSON.parse for the rest
// (progress, api-request-blob, …), which are most of a transcript's bytes. False positives only cost
// a parse. Claude Code writes compact JSON; the optional space covers pretty-printed copies.
const METER_TYPES = /"type": ?"(?:assistant|user|system|cost-state)"/;

export function mayMoveMeter(line: string): boolean {
  return METER_TYPES.test(line);
}

// One JSONL line → a record, or null for junk (torn line, not JSON, no `type`). Never throws.
export function parseRecord(line: string): TranscriptRecord | null {
  if (line.length === 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null; // a torn or foreign line: skipping it is the whole policy
  }
  return toRecord(value);
}

const QUOTE = 0x22;
const PATTERN = Array.from('"timestamp":"', (c) => c.charCodeAt(0));
const MAX_STAMP = 40;

// The record's own timestamp: the LAST top-level `"timestamp":"…"` (Claude Code writes it after the
// message, and a string inside the message would have its quotes escaped). Searched from the end.
export function timestampIn(bytes: Uint8Array): number | null {
  for (let i = bytes.length - PATTERN.length; i >= 0; i--) {
    if (bytes[i] !== QUOTE) continue;
    let k = 1;
    while (k < PATTERN.length && bytes[i + k] === PATTERN[k]) k++;
    if (k < PATTERN.length) continue;
    let s = '';
    for (let j = i + PATTERN.length; j < bytes.length && j < i + PATTERN.length + MAX_STAMP && bytes[j] !== QUOTE; j++) {
      s += String.fromCharCode(bytes[j] as number);
    }
    const t = Date.parse(s);
    return Number.isFinite(t) ? t : null;
  }
  return null;
}

// The rows as the core's transcript reader (and the report's scanner) takes them: a value, never an import from core.
export const TRANSCRIPT_ROWS: TranscriptRows = { mayMoveMeter, toRecord, timestampIn };
