// A validated hook payload of any release (hooks.ts readHook) as the run's own HookEvent: the one
// place where Claude Code's field names meet the core's decisions. Pure.

import { readHook } from './hooks.js';
import type { HookEvent } from '../core/run/hook-event.js';
import type { SessionWhere } from '../core/lineage/session-place.js';
import { permissionSubject, questionText } from './permission-wait.js';
import { isOverflowText } from './overflow.js';

// 2.1.332's question tool: its PermissionRequest carries the questions in tool_input (sdk-tools.d.ts
// AskUserQuestionInput; recorded in test/fixtures/claude-code/2.1.332/scenarios/session-scope/question-hooks.jsonl).
const QUESTION_TOOL = 'AskUserQuestion';

// 2.1.332's notification types (walk-away fixtures), as what the run decides on.
const NOTIFICATION_ABOUT: Readonly<Record<string, 'idle' | 'permission' | 'resumed'>> = {
  idle_prompt: 'idle',
  permission_prompt: 'permission',
  quota_auto_resume_fired: 'resumed',
};

// `event` is the name the hook client was registered for, or 'statusline'.
export function toHookEvent(event: string, payload: unknown): HookEvent {
  const h = readHook(event, payload);
  if (h.event === 'statusline') {
    const where: SessionWhere = {
      transcriptPath: h.transcriptPath,
      cwd: h.cwd,
      projectDir: h.projectDir,
      permissionMode: null,
      addedDirs: h.addedDirs,
    };
    return {
      kind: 'statusline',
      sessionId: h.sessionId,
      windowSize: h.contextWindowSize && h.contextWindowSize > 0 ? h.contextWindowSize : null,
      rateLimitResetsAt: h.rateLimitResetsAt,
      where,
    };
  }
  // A subagent's payload names the main session's transcript but its own folder (an isolated worktree):
  // only the main thread's calls say where the session is.
  if (h.agentId !== null) return kindOf(h);
  return {
    ...kindOf(h),
    where: {
      transcriptPath: h.transcriptPath,
      cwd: h.cwd,
      projectDir: null,
      permissionMode: h.permissionMode,
      addedDirs: null,
    },
  };
}

function kindOf(h: Exclude<ReturnType<typeof readHook>, { event: 'statusline' }>): HookEvent {
  const sessionId = h.sessionId;
  const subagent = h.agentId !== null;
  switch (h.event) {
    case 'SessionStart':
      return { kind: 'session-start', sessionId, transcriptPath: h.transcriptPath, source: h.source ?? 'startup' };
    case 'UserPromptSubmit':
      return { kind: 'prompt-submit', sessionId, prompt: h.prompt };
    case 'PostToolUse':
      return { kind: 'post-tool', sessionId, subagent, tool: h.toolName ?? '', toolUseId: h.toolUseId ?? null };
    // A failed call's answer is read as PostToolUse's: a block reaches the model after the error result.
    case 'PostToolUseFailure':
      return {
        kind: 'post-tool',
        sessionId,
        subagent,
        tool: h.toolName ?? '',
        toolUseId: h.toolUseId ?? null,
        failed: true,
        ...(h.isInterrupt ? { interrupted: true } : {}),
      };
    case 'PermissionDenied':
      return {
        kind: 'tool-denied',
        sessionId,
        subagent,
        tool: h.toolName ?? '',
        toolUseId: h.toolUseId ?? null,
        reason: h.reason ?? '',
      };
    case 'PreToolUse':
      return { kind: 'pre-tool', sessionId, subagent, tool: h.toolName ?? '' };
    case 'PermissionRequest': {
      const tool = h.toolName ?? 'a tool';
      const question = tool === QUESTION_TOOL ? questionText(h.toolInput) : null;
      return {
        kind: 'permission-request',
        sessionId,
        tool,
        summary: permissionSubject({ tool_name: tool, tool_input: h.toolInput }),
        question,
      };
    }
    case 'Stop':
      return { kind: 'stop', sessionId, lastMessage: h.lastAssistantMessage ?? '', stopHookActive: h.stopHookActive };
    case 'StopFailure': {
      const error = h.error ?? '';
      const details = h.errorDetails ?? '';
      const lastMessage = h.lastAssistantMessage ?? '';
      // An API login's screen says "API Error"; a subscription's says it hit its limit, and it continues by itself.
      const usageLimit = error === 'rate_limit' ? { autoContinues: !/^API Error/i.test(lastMessage.trim()) } : null;
      return {
        kind: 'stop-failure',
        sessionId,
        error,
        details,
        lastMessage,
        overflow: isOverflowText(`${details} ${lastMessage}`),
        usageLimit,
      };
    }
    case 'Notification':
      return {
        kind: 'notification',
        sessionId,
        about: NOTIFICATION_ABOUT[h.notificationType ?? ''] ?? 'other',
        message: h.message ?? '',
      };
    case 'PreCompact':
      return {
        kind: 'pre-compact',
        sessionId,
        trigger: h.trigger === 'auto' || h.trigger === 'manual' ? h.trigger : 'other',
      };
    default:
      return { kind: 'other', sessionId, event: h.event === 'unknown' ? h.name : h.event };
  }
}
