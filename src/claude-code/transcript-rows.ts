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

import type {
  AssistantRecord,
  SystemRecord,
  TranscriptRecord,
  TranscriptRows,
  Usage,
  UserRecord,
} from '../core/meter/transcript-record.js';
import { isOverflowText } from './overflow.js';
import { usageLimitOfRow } from './usage-limit.js';

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

// Every record starts with the row's session and whether a subagent wrote it. Written out in each record
// rather than spread from one object: a spread costs a copy per row, and rows are read by the million.
const sessionOf = (r: Obj): string | null => str(r.sessionId);
const bySubagent = (r: Obj): boolean => r.isSidechain === true;

const INTERRUPT_PREFIX = '[Request interrupted by user'; // also "… for tool use]"
const SYNTHETIC_OVERFLOW_PREFIX = 'Prompt is too long'; // 2.1.332's client-side block and API 400 rows
// Typed-looking user rows that are the harness, not a person: slash-command echoes, bash mode, notifications.
const HARNESS_PREFIXES = ['<command-', '<local-command-', '<task-notification>', '<bash-', '<user-memory-input>'];

// A failed request's synthetic row (`isApiErrorMessage` or model "<synthetic>"): what it says, with no usage.
function failureOf(r: Obj, model: string | null, text: string): AssistantRecord['failure'] {
  if (r.isApiErrorMessage !== true && model !== '<synthetic>') return null;
  const details = str(r.errorDetails);
  const overflow =
    text.startsWith(SYNTHETIC_OVERFLOW_PREFIX) || isOverflowText(text) || (details !== null && isOverflowText(details));
  return { overflow: overflow ? text || (details ?? '') : null, usageLimit: usageLimitOfRow(r) };
}

// Who wrote a user row: 2.1.332 says so (`origin.kind`: "human", "task-notification", …); older releases do not.
function originOf(r: Obj): string | null {
  return isObj(r.origin) ? str(r.origin.kind) : null;
}

// `typed` is the row's text without its leading blanks; `origin` as above.
function saidBy(
  r: Obj,
  text: string,
  typed: string,
  origin: string | null,
  hasToolResult: boolean,
): UserRecord['said'] {
  if (r.isCompactSummary === true) return 'summary';
  if (text.startsWith(INTERRUPT_PREFIX)) return 'interrupt';
  if (r.isMeta === true || hasToolResult) return 'other';
  if (origin !== null && origin !== 'human') return 'other';
  if (typed.length === 0 || HARNESS_PREFIXES.some((p) => typed.startsWith(p))) return 'other';
  return 'prompt';
}

// A person's `/add-dir DIR` at claude's prompt writes two rows once the person has answered claude's dialog:
// the command's row (`<command-name>/add-dir</command-name>` … `<command-args>DIR</command-args>`, DIR as
// typed: `~/x`, a relative path) and its output's. Only the output says whether the directory was added, and
// only an accepted one names it as claude resolved it: `<local-command-stdout>Added /abs/DIR as a working
// directory for this session · …` (a refusal: `Did not add DIR as a working directory.`). Seen on 2.1.332
// (docs/claude-code.md §4). The output row has no `origin`, where a prompt a person types has one: the
// same words typed at the prompt are not the command's output.
const ADD_DIR_ACCEPTED_START = '<local-command-stdout>Added ';
const ADD_DIR_ACCEPTED_ROW = /^<local-command-stdout>Added (\/.*?) as a working directory\b/;
function addedDirOf(r: Obj, typed: string, origin: string | null): string | null {
  if (!typed.startsWith(ADD_DIR_ACCEPTED_START)) return null; // every user row comes here: the pattern only for these
  if (r.isMeta === true || r.isSidechain === true || origin !== null) return null;
  const dir = ADD_DIR_ACCEPTED_ROW.exec(typed)?.[1]?.trim();
  return dir ? dir : null;
}

// 2.1.332 writes the session's permission mode on the main thread's user rows (`"permissionMode":"acceptEdits"`),
// the mode as it was when the row was written: after a shift+tab, the mode the person picked. Read from the
// rows a person wrote only.
function permissionModeOf(r: Obj, origin: string | null): string | null {
  if (r.isMeta === true || r.isSidechain === true || (origin !== null && origin !== 'human')) return null;
  const mode = str(r.permissionMode);
  return mode ? mode : null;
}

function toAssistant(r: Obj): AssistantRecord {
  const m = isObj(r.message) ? r.message : {};
  const model = str(m.model);
  const text = joinedText(m.content);
  return {
    sessionId: sessionOf(r),
    subagent: bySubagent(r),
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
  for (const block of content)
    if (isObj(block) && block.type === 'tool_use' && typeof block.id === 'string') ids.push(block.id);
  return ids;
}

// A user row's content, its text and who wrote it: what every reader of user rows starts from.
function readUser(r: Obj): {
  content: unknown;
  text: string;
  typed: string;
  origin: string | null;
  said: UserRecord['said'];
} {
  const m = isObj(r.message) ? r.message : {};
  const content = m.content;
  let hasToolResult = false;
  if (Array.isArray(content)) {
    for (const b of content) {
      if (isObj(b) && b.type === 'tool_result') {
        hasToolResult = true;
        break;
      }
    }
  }
  const text = joinedText(content);
  const typed = text.trimStart();
  const origin = originOf(r);
  return { content, text, typed, origin, said: saidBy(r, text, typed, origin, hasToolResult) };
}

/** what a user row says and who said it, without the rest of its record (the coverage scorer's reader) */
export function userSaid(r: Obj): { said: UserRecord['said']; text: string } {
  const u = readUser(r);
  return { said: u.said, text: u.text };
}

/** an assistant row's text when it is a real response (not a failed request's synthetic row) */
export function responseText(r: Obj): string | null {
  const m = isObj(r.message) ? r.message : {};
  const text = joinedText(m.content);
  return failureOf(r, str(m.model), text) === null ? text : null;
}

function toUser(r: Obj): UserRecord {
  const { content, text, typed, origin, said } = readUser(r);
  return {
    sessionId: sessionOf(r),
    subagent: bySubagent(r),
    kind: 'user',
    said,
    text,
    contentChars: contentChars(content),
    addedDir: addedDirOf(r, typed, origin),
    permissionMode: permissionModeOf(r, origin),
  };
}

// The system rows the meter reads: a compaction's boundary, and the two rows that end a completed turn.
function toSystem(r: Obj): SystemRecord {
  const subtype = str(r.subtype);
  let event: SystemRecord['event'] = null;
  if (subtype === 'compact_boundary') {
    const cm = isObj(r.compactMetadata) ? r.compactMetadata : {};
    event = { kind: 'compaction', preTokens: num(cm.preTokens), postTokens: num(cm.postTokens) };
  } else if (subtype === 'turn_duration' || subtype === 'stop_hook_summary') {
    event = { kind: 'turn-end', source: subtype };
  }
  return { sessionId: sessionOf(r), subagent: bySubagent(r), kind: 'system', event };
}

// Narrow an already-parsed JSON value; anything that is not a typed object is null.
export function toRecord(value: unknown): TranscriptRecord | null {
  if (!isObj(value)) return null;
  const type = str(value.type);
  if (type === null) return null;
  switch (type) {
    case 'assistant':
      return toAssistant(value);
    case 'user':
      return toUser(value);
    case 'system':
      return toSystem(value);
    case 'cost-state':
      // 2.1.332 writes `cost-state` rows: cumulative per session, restored on --resume.
      return {
        sessionId: sessionOf(value),
        subagent: bySubagent(value),
        kind: 'cost',
        totalCostUsd: num(value.totalCostUSD),
      };
    default:
      return { sessionId: sessionOf(value), subagent: bySubagent(value), kind: 'other' };
  }
}

// Only these record types move the meter; a cheap substring test spares JSON.parse for the rest
// (progress, api-request-blob, …), which are most of a transcript's bytes. False positives only cost
// a parse. Claude Code writes compact JSON; the optional space covers pretty-printed copies.
const METER_TYPES = /"type": ?"(?:assistant|user|system|cost-state)"/;
// A `progress` row (a subagent's or a hook's progress) carries whole messages of the subagent inside it,
// `"type":"user"` and all, yet moves nothing: it is the one big row the test above would let through
// (about a tenth of a long session's bytes). Its own type is the first `"type":` key of the line, as 2.1.332
// and 2.1.39 write it (a user row's type comes before its message, an assistant row's message starts with
// its own `"type":"message"`); checked on every fixture by test/claude-code/fixtures-meter.test.ts.
const FIRST_TYPE = /"type": ?"([^"]*)"/;

/** the line is a progress row, by its first `"type":` key; asked only of lines a test already let through */
export function isProgressRow(line: string): boolean {
  return FIRST_TYPE.exec(line)?.[1] === 'progress';
}

export function mayMoveMeter(line: string): boolean {
  return METER_TYPES.test(line) && !isProgressRow(line);
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
    for (
      let j = i + PATTERN.length;
      j < bytes.length && j < i + PATTERN.length + MAX_STAMP && bytes[j] !== QUOTE;
      j++
    ) {
      s += String.fromCharCode(bytes[j] as number);
    }
    const t = Date.parse(s);
    return Number.isFinite(t) ? t : null;
  }
  return null;
}

// The rows as the core's transcript reader (and the report's scanner) takes them: a value, never an import from core.
export const TRANSCRIPT_ROWS: TranscriptRows = { mayMoveMeter, toRecord, timestampIn };
