// What `claude -p --output-format json` prints (2.1.332, docs/eval-fork.md): one JSON object, the result of
// the whole call: `result` (the reply's text), `is_error`, `session_id` (a fork's new id), `duration_ms`,
// `total_cost_usd` and `usage` {input_tokens, cache_creation_input_tokens, cache_read_input_tokens,
// output_tokens}. A refusal (a session id with no conversation) prints no JSON but a line on stderr and
// exits 1. And whether a claude can fork a session at all: `--fork-session` in its --help. Pure.

import { toRecord } from './transcript-rows.js';

export interface PrintResult {
  text: string;
  isError: boolean;
  sessionId: string | null;
  /** input (with the cache's) and output tokens */
  tokens: number;
  costUsd: number;
  ms: number;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) ? x : 0);

/** the result a print-mode call printed, or null when its output holds none */
export function readPrintResult(stdout: string): PrintResult | null {
  // The last line that parses as a result object: a warning printed before it is not the result.
  for (const line of stdout.trim().split('\n').reverse()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObj(value) || value.type !== 'result') continue;
    const u = isObj(value.usage) ? value.usage : {};
    // A local command (/compact) reports zero usage; its model calls are in `modelUsage`, per model.
    let models = 0;
    if (isObj(value.modelUsage))
      for (const m of Object.values(value.modelUsage))
        if (isObj(m))
          models +=
            num(m.inputTokens) + num(m.cacheReadInputTokens) + num(m.cacheCreationInputTokens) + num(m.outputTokens);
    return {
      text: typeof value.result === 'string' ? value.result : '',
      isError: value.is_error === true,
      sessionId: typeof value.session_id === 'string' ? value.session_id : null,
      tokens: Math.max(
        models,
        num(u.input_tokens) +
          num(u.cache_creation_input_tokens) +
          num(u.cache_read_input_tokens) +
          num(u.output_tokens),
      ),
      costUsd: num(value.total_cost_usd),
      ms: num(value.duration_ms),
    };
  }
  return null;
}

/** whether this claude's --help offers `--fork-session` */
export function canForkSession(help: string): boolean {
  return /(^|\s)--fork-session\b/m.test(help);
}

/** the arguments that fork session `id` and send it `prompt` in print mode */
export function forkArgs(id: string, prompt: string): string[] {
  return ['--resume', id, '--fork-session', '-p', prompt, '--output-format', 'json'];
}

/** the arguments of a fresh print-mode session asked `prompt` */
export function freshArgs(prompt: string): string[] {
  return ['-p', prompt, '--output-format', 'json'];
}

// A PreToolUse hook, given with --settings for this call only, on the tools that change a file: it answers
// `continue: false` and denies the call, so Claude Code stops the session before the call runs. The call is in the transcript
// (its response row is written before its hooks run) and nothing in the folder changes.
const STOP_AT_FIRST_CHANGE = JSON.stringify({
  hooks: {
    PreToolUse: [
      {
        matcher: 'Write|Edit|MultiEdit|NotebookEdit',
        hooks: [
          {
            type: 'command',
            command: `echo '{"continue":false,"stopReason":"eval fork: stopped at the first change to a file","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"eval fork: stopped at the first change to a file"}}'`,
          },
        ],
      },
    ],
  },
});

/** the arguments of a fresh print-mode session seeded with `prompt` that may use its tools, stopped at its
 *  first call that would change a file */
export function successorArgs(prompt: string): string[] {
  return ['-p', prompt, '--output-format', 'json', '--settings', STOP_AT_FIRST_CHANGE];
}

/** the command that makes Claude Code compact a session, sent as a print-mode prompt */
export const COMPACT_COMMAND = '/compact';

/** the newest compaction summary in a transcript's text (a fork compacted by `/compact`), or null */
export function compactSummaryOf(transcript: string): string | null {
  let summary: string | null = null;
  for (const line of transcript.split('\n')) {
    if (!line.includes('isCompactSummary')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const record = toRecord(value);
    if (record?.kind === 'user' && record.said === 'summary') summary = record.text;
  }
  return summary;
}
