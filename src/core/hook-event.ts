// Claude Code's hook payloads as the run sees them: a discriminated union with only the fields the
// run decides on, each checked. Anything malformed becomes `other` (never a throw, never a guess).

export type HookEvent =
  | { kind: 'statusline'; sessionId: string | null; windowSize: number | null; rateLimitResetsAt: number | null }
  | { kind: 'session-start'; sessionId: string | null; transcriptPath: string | null; source: string }
  | { kind: 'prompt-submit'; sessionId: string | null; prompt: string | null }
  | { kind: 'post-tool'; sessionId: string | null; subagent: boolean; tool: string }
  | { kind: 'pre-tool'; sessionId: string | null; subagent: boolean; tool: string }
  | { kind: 'permission-request'; sessionId: string | null; tool: string; summary: string }
  | { kind: 'stop'; sessionId: string | null; lastMessage: string; stopHookActive: boolean }
  | { kind: 'stop-failure'; sessionId: string | null; error: string; details: string; lastMessage: string }
  | { kind: 'notification'; sessionId: string | null; type: string; message: string }
  | { kind: 'pre-compact'; sessionId: string | null; trigger: 'auto' | 'manual' | 'other' }
  | { kind: 'other'; sessionId: string | null; event: string };

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

// What a tool call was, in a few words a person reads in a status bar ("Bash touch x").
function toolSummary(tool: string, input: unknown): string {
  if (typeof input !== 'object' || input === null) return tool;
  const o = input as Record<string, unknown>;
  const detail = str(o.command) ?? str(o.file_path) ?? str(o.path) ?? str(o.url) ?? str(o.pattern) ?? str(o.description) ?? '';
  const oneLine = detail.replace(/\s+/g, ' ').trim();
  return oneLine === '' ? tool : `${tool} ${oneLine.length > 60 ? `${oneLine.slice(0, 59)}…` : oneLine}`;
}

// `event` is the hook_event_name the hook client was registered for, or 'statusline'.
export function toHookEvent(event: string, payload: Record<string, unknown>): HookEvent {
  const sessionId = str(payload.session_id);
  const subagent = typeof payload.agent_id === 'string' && payload.agent_id !== '';
  switch (event) {
    case 'statusline': {
      const cw = payload.context_window as { context_window_size?: unknown } | undefined;
      const size = typeof cw?.context_window_size === 'number' && cw.context_window_size > 0 ? cw.context_window_size : null;
      const limits = payload.rate_limits as Record<string, { used_percentage?: unknown; resets_at?: unknown } | undefined> | undefined;
      let resetsAt: number | null = null;
      for (const limit of Object.values(limits ?? {})) {
        if (limit && limit.used_percentage === 100 && typeof limit.resets_at === 'number') resetsAt = Math.max(resetsAt ?? 0, limit.resets_at);
      }
      return { kind: 'statusline', sessionId, windowSize: size, rateLimitResetsAt: resetsAt };
    }
    case 'SessionStart':
      return { kind: 'session-start', sessionId, transcriptPath: str(payload.transcript_path), source: str(payload.source) ?? 'startup' };
    case 'UserPromptSubmit':
      return { kind: 'prompt-submit', sessionId, prompt: str(payload.prompt) };
    case 'PostToolUse':
      return { kind: 'post-tool', sessionId, subagent, tool: str(payload.tool_name) ?? '' };
    case 'PreToolUse':
      return { kind: 'pre-tool', sessionId, subagent, tool: str(payload.tool_name) ?? '' };
    case 'PermissionRequest': {
      const tool = str(payload.tool_name) ?? 'a tool';
      return { kind: 'permission-request', sessionId, tool, summary: toolSummary(tool, payload.tool_input) };
    }
    case 'Stop':
      return { kind: 'stop', sessionId, lastMessage: str(payload.last_assistant_message) ?? '', stopHookActive: payload.stop_hook_active === true };
    case 'StopFailure':
      return {
        kind: 'stop-failure',
        sessionId,
        error: str(payload.error) ?? '',
        details: str(payload.error_details) ?? '',
        lastMessage: str(payload.last_assistant_message) ?? '',
      };
    case 'Notification':
      return { kind: 'notification', sessionId, type: str(payload.notification_type) ?? '', message: str(payload.message) ?? '' };
    case 'PreCompact': {
      const trigger = str(payload.trigger);
      return { kind: 'pre-compact', sessionId, trigger: trigger === 'auto' || trigger === 'manual' ? trigger : 'other' };
    }
    default:
      return { kind: 'other', sessionId, event };
  }
}
