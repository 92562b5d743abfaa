// Claude Code's hook calls as the run decides on them: only what a decision needs, with the words a
// person reads ("Bash touch x", claude-code/permission-wait.ts). The dialect (src/claude-code/run-hook.ts) builds them from the
// validated payloads of each release. Pure.

import type { SessionWhere } from '../lineage/session-place.js';

/**
 * What the run answers a hook call, in its own words. The dialect (`src/claude-code/hook-answer.ts`) writes
 * it as the stdout the running release reads, so no hook output format is known here.
 */
export type HookAnswer =
  /** nothing: claude carries on as it would */
  | { kind: 'pass' }
  /** claude must not stop (or compact) yet, and reads `reason` as its next instruction */
  | { kind: 'block'; reason: string }
  /** text added to the prompt a person just submitted, as context claude reads with it */
  | { kind: 'add-context'; text: string }
  /** the status line's text, shown as it is */
  | { kind: 'text'; text: string };

export const PASS: HookAnswer = { kind: 'pass' };

export type HookEvent = HookKind & {
  /** absent for a subagent's call and in hand-made events: nothing to follow */
  where?: SessionWhere;
};

type HookKind =
  | { kind: 'statusline'; sessionId: string | null; windowSize: number | null; rateLimitResetsAt: number | null }
  | { kind: 'session-start'; sessionId: string | null; transcriptPath: string | null; source: string }
  | { kind: 'prompt-submit'; sessionId: string | null; prompt: string | null }
  /** a tool call ended, whether it worked or `failed` (an error result: a command's non-zero exit, a
   *  missing file, a person's interrupt); either way the boundary a cut can use mid-turn.
   *  `toolUseId`: the transcript row of the call it follows carries the same id; `interrupted`: a person
   *  stopped the call (Esc), so the turn is over and nothing in the answer reaches the model */
  | {
      kind: 'post-tool';
      sessionId: string | null;
      subagent: boolean;
      tool: string;
      toolUseId: string | null;
      failed?: boolean;
      interrupted?: boolean;
    }
  /** the CLI refused a tool call by itself (never ran it) and the turn goes on; its answer can carry
   *  nothing, so the cut waits for the next boundary that can */
  | {
      kind: 'tool-denied';
      sessionId: string | null;
      subagent: boolean;
      tool: string;
      toolUseId: string | null;
      reason: string;
    }
  | { kind: 'pre-tool'; sessionId: string | null; subagent: boolean; tool: string }
  /** `question`: claude asks its person (AskUserQuestion), "Which parser? (A / B)"; null for a tool's approval */
  | { kind: 'permission-request'; sessionId: string | null; tool: string; summary: string; question: string | null }
  | { kind: 'stop'; sessionId: string | null; lastMessage: string; stopHookActive: boolean }
  /** a turn ended on an API error: `overflow`, the prompt does not fit; `usageLimit`, a usage limit refused it
   *  (`autoContinues`: the session goes on by itself after the reset) */
  | {
      kind: 'stop-failure';
      sessionId: string | null;
      error: string;
      details: string;
      lastMessage: string;
      overflow: boolean;
      usageLimit: { autoContinues: boolean } | null;
    }
  /** what claude tells its person: it sits idle at its prompt, it waits for a permission, it went on after a usage limit */
  | {
      kind: 'notification';
      sessionId: string | null;
      about: 'idle' | 'permission' | 'resumed' | 'other';
      message: string;
    }
  | { kind: 'pre-compact'; sessionId: string | null; trigger: 'auto' | 'manual' | 'other' }
  | { kind: 'other'; sessionId: string | null; event: string };
