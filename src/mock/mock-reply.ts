// What a scripted mock of the Anthropic Messages API can answer, and helpers to script it.
// Shared by the HTTP server (messages-api.ts) and the wire encoder (sse.ts).

// Token counts the reply reports; Claude Code copies them into the transcript's assistant records.
export interface MockUsage {
  input: number;
  cacheCreation?: number;
  cacheRead?: number;
  output?: number;
}

export type MockReply =
  | { kind: 'text'; text: string; usage?: MockUsage; delayMs?: number }
  // `also`: more tool calls in the same response, after the first (parallel calls, as a model makes them);
  // their ids are the first's with a letter added (2.1.332 answered a sibling id ending in `_<digit>` with "[Tool result missing due to internal error]")
  | {
      kind: 'tool';
      name: string;
      input: Record<string, unknown>;
      text?: string;
      usage?: MockUsage;
      delayMs?: number;
      also?: Array<{ name: string; input: Record<string, unknown> }>;
    }
  // `retry: false` sends `x-should-retry: false`, so the SDK inside claude gives up at once on a 5xx;
  // `headers` go out with the error (e.g. the unified rate-limit headers of a usage limit).
  | { kind: 'error'; status: number; type: string; message: string; retry?: boolean; headers?: Record<string, string> }
  // Stream half of `afterText`'s reply, then destroy the socket mid-stream.
  | { kind: 'cut'; afterText: string }
  // Never answer; the socket stays open until the mock closes.
  | { kind: 'hang' };

// One request as the mock received it, with the texts tests usually assert on already extracted.
export interface MockRequest {
  index: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  sessionId: string | undefined;
  model: string;
  body: unknown;
  messages: unknown[];
  // The newest user message: its text blocks and tool_result texts (system-reminders included), joined by '\n'.
  lastUserText: string;
  // Every message's text (user and assistant), joined by '\n'; the system prompt is not included.
  allText: string;
  // True for the conversation call of the session (it offers tools); false for side calls such as titles.
  isMain: boolean;
  receivedAt: number;
}

export type Respond = (req: MockRequest) => MockReply | Promise<MockReply>;

// Usage whose input side (input + cache creation + cache read) adds up to exactly `contextTokens`,
// mostly as cache reads like a warm real session; output is reported on top.
export function usageFor(contextTokens: number, output = 20): MockUsage {
  const context = Math.max(0, Math.floor(contextTokens));
  const input = Math.min(context, 100);
  return { input, cacheCreation: 0, cacheRead: context - input, output };
}

export const text = (body: string, usage?: MockUsage): MockReply =>
  usage === undefined ? { kind: 'text', text: body } : { kind: 'text', text: body, usage };

export const bash = (command: string, usage?: MockUsage): MockReply =>
  usage === undefined
    ? { kind: 'tool', name: 'Bash', input: { command, description: 'mock step' } }
    : { kind: 'tool', name: 'Bash', input: { command, description: 'mock step' }, usage };

// The 400 that a real API gives when the context is over the window.
export function promptTooLong(tokens = 210000, maximum = 200000): MockReply {
  return {
    kind: 'error',
    status: 400,
    type: 'invalid_request_error',
    message: `prompt is too long: ${tokens} tokens > ${maximum} maximum`,
  };
}

export interface ScriptOptions {
  // Answer once the steps run out (default: a short text saying so, so a runaway test is visible on screen).
  fallback?: MockReply;
  // Answer for side calls (isMain false), which never consume a step (default: a short text).
  others?: (req: MockRequest) => MockReply;
}

// A respond function that plays `steps` in order for main calls, or asks `steps(req, mainIndex)` each time.
export function scripted(
  steps: MockReply[] | ((req: MockRequest, mainIndex: number) => MockReply | Promise<MockReply>),
  options: ScriptOptions = {},
): Respond {
  let mainIndex = 0;
  const fallback = options.fallback ?? text('mock: script exhausted');
  return (req) => {
    if (!req.isMain) return options.others?.(req) ?? text('Mock side reply');
    const index = mainIndex++;
    if (typeof steps === 'function') return steps(req, index);
    return steps[index] ?? fallback;
  };
}
