// The transcript as the meter reads it: one record per row, already classified by the dialect that
// knows the rows (src/claude-code/transcript-rows.ts). The core owns these shapes and knows no field
// name, prefix or release of the CLI that writes the rows.

export interface Usage {
  input: number;
  cacheCreation: number;
  cacheRead: number;
  output: number;
}

/** a request refused by a usage limit, as the refusal's row says */
export interface UsageLimit {
  /** when the limit lifts, in ms; null when the row did not say (an API-key login's row) */
  resetsAtMs: number | null;
  /** "five_hour", "seven_day", …; null when unknown */
  limitType: string | null;
  /** a subscription's limit: the session continues by itself after the reset; otherwise (an API-key or
   *  token login) nothing continues unless someone types */
  autoContinues: boolean;
}

interface Envelope {
  sessionId: string | null;
  /** a subagent's row: it carries the parent's session id but not its context */
  subagent: boolean;
}

export interface AssistantRecord extends Envelope {
  kind: 'assistant';
  /** rows of one API response (one per content block) share it */
  messageId: string | null;
  model: string | null;
  usage: Usage | null;
  /** the text blocks joined */
  text: string;
  /** the ids of its tool calls: the hook that follows a call names one of them */
  toolUseIds: string[];
  /** characters of content the model wrote (text, thinking, tool input), for token estimates */
  contentChars: number;
  /** a row the client wrote for a request that failed (it carries no usage); null for a real response */
  failure: { overflow: string | null; usageLimit: UsageLimit | null } | null;
}

export interface UserRecord extends Envelope {
  kind: 'user';
  /** what the row is: a person's prompt, an interrupt, a compaction's summary, or anything else (tool
   *  results, the harness's own rows) */
  said: 'prompt' | 'interrupt' | 'summary' | 'other';
  /** a string content, or its text blocks joined */
  text: string;
  contentChars: number;
  /** the directory a person's own `/add-dir` added to the session (accepted at claude's dialog), as claude
   *  resolved it */
  addedDir: string | null;
  /** the permission mode the session was in when claude wrote the row (shift+tab changes it), on a person's rows */
  permissionMode: string | null;
}

export interface SystemRecord extends Envelope {
  kind: 'system';
  /** a compaction's boundary, or a row that ends a completed turn (`source` names the row) */
  event:
    | { kind: 'compaction'; preTokens: number | null; postTokens: number | null }
    | { kind: 'turn-end'; source: string }
    | null;
}

/** a session's cumulative cost so far */
export interface CostRecord extends Envelope {
  kind: 'cost';
  totalCostUsd: number | null;
}

export interface OtherRecord extends Envelope {
  kind: 'other';
}

export type TranscriptRecord = AssistantRecord | UserRecord | SystemRecord | CostRecord | OtherRecord;

/** the dialect's reader of rows, handed to the transcript reader as a value */
export interface TranscriptRows {
  /** a cheap test on a raw line: false only for a line that cannot be a record the meter reads */
  mayMoveMeter(line: string): boolean;
  /** an already-parsed JSON value as a record; null for anything that is not a row */
  toRecord(value: unknown): TranscriptRecord | null;
  /** when a raw line was written, in ms; null when it does not say */
  timestampIn(bytes: Uint8Array): number | null;
}
