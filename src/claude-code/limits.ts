// Claude Code's numeric limits that shape a handoff (docs/claude-code.md §2.2, §2.4, §10), in one place.
// The decisions get the refusal line as a value (run-dialect.ts), never by an import. Pure.
import { CLAUDE_ENV } from './launch.js';

// Claude Code 2.1.332 with auto-compact off refuses a prompt locally at
// window − min(maxOutput, 20k) − 3k (docs/claude-code.md §2.4): the handoff must fire below it.
// `override` is the CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE the child was launched with, which replaces that line.
export function clientBlockLimit(window: number, override?: number): number {
  if (override !== undefined && override > 0) return override;
  return window - 20_000 - 3_000;
}

// flower-pty sets CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE to the window itself: the writing turn may then climb
// to whatever the API accepts, and only the API's own "prompt is too long" refuses it (verified on 2.1.332
// by test/claude-code/blocking-limit.test.ts: a 178k prompt on a 200k window is sent instead of refused).
export function blockingLimitOverride(window: number): number {
  return window;
}

// Claude Code honours this many consecutive Stop blocks and overrides the next one with a warning
// (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, default 8); the count resets at each new user prompt.
export const STOP_BLOCK_CAP_DEFAULT = 8;

export function stopBlockCap(env: Readonly<Record<string, string | undefined>>): number {
  const n = Number(env[CLAUDE_ENV.stopHookBlockCap]);
  return Number.isSafeInteger(n) && n > 0 ? n : STOP_BLOCK_CAP_DEFAULT;
}

// A hook's additionalContext reaches the model whole only up to 10,000 characters: a longer one is saved to
// a file and the model gets its path and a 2 KB preview (seen on 2.1.332: 9,000 characters arrive whole,
// 10,100 do not). A successor's first prompt is carried by its UserPromptSubmit hook only below this,
// with room to spare; a longer one goes through a private file the short positional prompt names.
export const HOOK_CONTEXT_MAX_CHARS = 9_500;
