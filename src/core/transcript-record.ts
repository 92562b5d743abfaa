// Claude Code transcript records (one JSONL line each), narrowed from `unknown` by guards.
// Only the fields the meter needs are typed; everything else stays a generic record.

import { usageLimitOfRow, type UsageLimit } from './usage-limit.js';

export interface Usage {
  input: number;
  cacheCreation: number;
  cacheRead: number;
  output: number;
}

interface Envelope {
  /** the raw `type` field */
  type: string;
  sessionId: string | null;
  /** subagent records (inline in old versions; in subagents/ files since ~2.1) */
  isSidechain: boolean;
}

export interface AssistantRecord extends Envelope {
  kind: 'assistant';
  /** rows of one API response (one per content block) share it */
  messageId: string | null;
  model: string | null;
  usage: Usage | null;
  stopReason: string | null;
  /** synthetic error rows: `isApiErrorMessage` or model "<synthetic>" */
  isApiError: boolean;
  /** the text blocks joined, for "Prompt is too long" detection */
  text: string;
  errorDetails: string | null;
  /** a usage-limit row (HTTP 429): until when, and whether Claude Code continues by itself (usage-limit.ts) */
  usageLimit: UsageLimit | null;
  /** characters of content the model wrote (text, thinking, tool input), for token estimates */
  contentChars: number;
}

export interface UserRecord extends Envelope {
  kind: 'user';
  isMeta: boolean;
  isCompactSummary: boolean;
  hasToolResult: boolean;
  /** a string content, or its text blocks joined */
  text: string;
  /** 2.1.332: `origin.kind` ("human", "task-notification", …); null in older versions */
  origin: string | null;
  contentChars: number;
}

export interface CompactMetadata {
  trigger: string | null;
  preTokens: number | null;
  postTokens: number | null;
}

export interface SystemRecord extends Envelope {
  kind: 'system';
  subtype: string | null;
  content: string | null;
  compact: CompactMetadata | null;
}

// 2.1.332 writes `cost-state` rows: cumulative per session, restored on --resume.
export interface CostStateRecord extends Envelope {
  kind: 'cost-state';
  totalCostUsd: number | null;
}

export interface OtherRecord extends Envelope {
  kind: 'other';
}

export type TranscriptRecord = AssistantRecord | UserRecord | SystemRecord | CostStateRecord | OtherRecord;

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

function envelope(r: Obj, type: string): Envelope {
  return { type, sessionId: str(r.sessionId), isSidechain: r.isSidechain === true };
}

function toAssistant(r: Obj, env: Envelope): AssistantRecord {
  const m = isObj(r.message) ? r.message : {};
  const model = str(m.model);
  return {
    ...env,
    kind: 'assistant',
    messageId: str(m.id),
    model,
    usage: parseUsage(m.usage),
    stopReason: str(m.stop_reason),
    isApiError: r.isApiErrorMessage === true || model === '<synthetic>',
    text: joinedText(m.content),
    errorDetails: str(r.errorDetails),
    usageLimit: usageLimitOfRow(r),
    contentChars: contentChars(m.content),
  };
}

function toUser(r: Obj, env: Envelope): UserRecord {
  const m = isObj(r.message) ? r.message : {};
  const content = m.content;
  const hasToolResult = Array.isArray(content) && content.some((b) => isObj(b) && b.type === 'tool_result');
  return {
    ...env,
    kind: 'user',
    isMeta: r.isMeta === true,
    isCompactSummary: r.isCompactSummary === true,
    hasToolResult,
    text: joinedText(content),
    origin: isObj(r.origin) ? str(r.origin.kind) : null,
    contentChars: contentChars(content),
  };
}

function toSystem(r: Obj, env: Envelope): SystemRecord {
  const cm = r.compactMetadata;
  return {
    ...env,
    kind: 'system',
    subtype: str(r.subtype),
    content: str(r.content),
    compact: isObj(cm)
      ? { trigger: str(cm.trigger), preTokens: num(cm.preTokens), postTokens: num(cm.postTokens) }
      : null,
  };
}

// Narrow an already-parsed JSON value; anything that is not a typed object is null.
export function toRecord(value: unknown): TranscriptRecord | null {
  if (!isObj(value)) return null;
  const type = str(value.type);
  if (type === null) return null;
  const env = envelope(value, type);
  switch (type) {
    case 'assistant':
      return toAssistant(value, env);
    case 'user':
      return toUser(value, env);
    case 'system':
      return toSystem(value, env);
    case 'cost-state':
      return { ...env, kind: 'cost-state', totalCostUsd: num(value.totalCostUSD) };
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
