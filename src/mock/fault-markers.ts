// A mock respond function driven by markers in the prompt, for the walk-away faults a real claude must meet
// in tests (docs/claude-code.md §10): a usage limit (429 with the unified rate-limit headers), a tool call
// that needs a person's permission, usage high enough for an automatic compaction, and the answer to the
// compaction request itself. A test types or passes a prompt holding a marker; nothing else is scripted.
//
//   MOCK_USAGE=<tokens>      answer with a text whose usage puts the context at <tokens>
//   MOCK_RATE_LIMIT=<s>      a usage limit that resets <s> seconds from the first request that carries it;
//                            every main call before the reset gets the 429, the first after it a text
//   MOCK_TOUCH=<name>        a Bash tool call `touch <name>` (a file write: needs approval outside bypass
//                            mode); the tool result is answered with a text
//
// Like the real API, the mock refuses a conversation larger than its window (400 "prompt is too long"): the
// context of the last reply it gave plus the new user text. That 400 is what makes a claude with auto-compact
// on compact (2.1.332 routes its automatic compaction through this reactive path, docs/claude-code.md §2.3); the compaction
// request is answered with a summary, after which the context is small again.
import type { MockReply, MockRequest, Respond } from './mock-reply.js';
import { promptTooLong, text, usageFor } from './mock-reply.js';

export const MARKER_USAGE = 'MOCK_USAGE';
export const MARKER_RATE_LIMIT = 'MOCK_RATE_LIMIT';
export const MARKER_TOUCH = 'MOCK_TOUCH';

// Claude Code's compaction prompts all open their task this way (2.1.332: full, partial and session-memory).
const COMPACTION_PROMPT = /Your task is to create a detailed summary of/;

// The summary shape the compaction parser looks for; without a <summary> block Claude Code asks again.
export const MOCK_SUMMARY =
  '<analysis>mock analysis</analysis>\n<summary>MOCK-SUMMARY: the conversation so far, compacted by the mock.</summary>';

// The text a real API sends with a rejected usage limit.
export const RATE_LIMIT_MESSAGE = "This request would exceed your account's rate limit. Please try again later.";

// The value of `<marker>=<value>` in `text`, or undefined. Values are a word: digits, letters, '.', '_' or '-'.
export function markerValue(source: string, marker: string): string | undefined {
  const match = new RegExp(`${marker}=([\\w.-]+)`).exec(source);
  return match?.[1];
}

export function isCompactionRequest(req: MockRequest): boolean {
  return COMPACTION_PROMPT.test(req.lastUserText);
}

// A 5-hour usage limit rejected until `resetsAt` (unix seconds): the headers Claude Code reads to say
// "You've hit your 5-hour limit · resets …" and, for a subscription login, to continue by itself after it.
// `x-should-retry: false` as the real service sends it for a rejected limit: without it an API-key or token
// login retries for minutes ("5-hour limit reached · retrying in 15s · attempt 7/10"); a subscription login
// never retries a rejected unified limit.
export function usageLimitReply(resetsAt: number): MockReply {
  const reset = String(resetsAt);
  return {
    kind: 'error',
    status: 429,
    type: 'rate_limit_error',
    message: RATE_LIMIT_MESSAGE,
    headers: {
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': reset,
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
      'anthropic-ratelimit-unified-5h-status': 'rejected',
      'anthropic-ratelimit-unified-5h-reset': reset,
      'anthropic-ratelimit-unified-5h-utilization': '1.0',
      'anthropic-ratelimit-unified-overage-status': 'rejected',
      'anthropic-ratelimit-unified-overage-disabled-reason': 'org_level_disabled',
      'anthropic-ratelimit-unified-fallback': 'unavailable',
      'x-should-retry': 'false',
    },
  };
}

// True when the newest user message is (only) tool results: the turn goes on after a tool ran.
function answersToolResult(req: MockRequest): boolean {
  const last = req.messages.at(-1) as { role?: unknown; content?: unknown } | undefined;
  return (
    last?.role === 'user' &&
    Array.isArray(last.content) &&
    last.content.some((b) => (b as { type?: unknown }).type === 'tool_result')
  );
}

export interface MarkerOptions {
  // The clock, in ms (tests of this module pass a fake one).
  now?: () => number;
  // The API's context window (default 200000, a claude-sonnet-4-5's).
  windowTokens?: number;
}

export const MOCK_WINDOW_TOKENS = 200_000;
const SUMMARY_CONTEXT = 2_000;
const DEFAULT_CONTEXT = 5_000;

// The respond function: compaction requests get a summary, markers in the newest user message pick the
// fault, anything else gets a short numbered text reply (usage from MOCK_USAGE if given, else 5000).
export function markerReplies(options: MarkerOptions = {}): Respond {
  const now = options.now ?? Date.now;
  const windowTokens = options.windowTokens ?? MOCK_WINDOW_TOKENS;
  let limitResetsAt: number | undefined;
  let replies = 0;
  // The context the last main reply reported: what the next request carries, plus its new text.
  let context = 0;
  return (req) => {
    if (isCompactionRequest(req)) {
      context = SUMMARY_CONTEXT;
      return text(MOCK_SUMMARY, usageFor(SUMMARY_CONTEXT, 60));
    }
    if (!req.isMain) return text('Mock side reply');
    const asked = context + Math.ceil(req.lastUserText.length / 4);
    if (asked > windowTokens) return promptTooLong(asked, windowTokens);
    const limit = markerValue(req.lastUserText, MARKER_RATE_LIMIT);
    if (limit !== undefined && limitResetsAt === undefined) limitResetsAt = Math.ceil(now() / 1000) + Number(limit);
    // The limit is the account's, not the prompt's: every call before the reset is refused.
    if (limitResetsAt !== undefined && now() < limitResetsAt * 1000) return usageLimitReply(limitResetsAt);
    const touch = markerValue(req.lastUserText, MARKER_TOUCH);
    if (touch !== undefined && !answersToolResult(req)) {
      context = 6_000;
      return {
        kind: 'tool',
        name: 'Bash',
        input: { command: `touch ${touch}`, description: `Create file ${touch}` },
        usage: usageFor(context),
      };
    }
    const usage = Number(markerValue(req.lastUserText, MARKER_USAGE) ?? DEFAULT_CONTEXT);
    context = Number.isFinite(usage) ? usage : DEFAULT_CONTEXT;
    replies += 1;
    return text(`Mock reply ${replies} (ctx ${context}).`, usageFor(context));
  };
}
