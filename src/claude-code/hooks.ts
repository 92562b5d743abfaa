// Claude Code's hook payloads (docs/claude-code.md §5, §10) as one discriminated union of
// validated fields: readHook() takes the event name and the untrusted stdin JSON and keeps only fields of
// the expected type, so callers never take a Record<string, unknown> apart inline. Pure.
// Where the session is (`transcript_path`, `cwd`, `permission_mode`, the status line's `workspace`) as
// 2.1.332 reports it before and after a move into a worktree: test/fixtures/claude-code/2.1.332/scenarios/session-moves/
// (docs/claude-code-session-moves.md).

/** the fields every hook payload carries; null when absent or of the wrong type */
export interface HookBase {
  sessionId: string | null;
  transcriptPath: string | null;
  cwd: string | null;
  /** the session's permission mode when the hook ran (`permission_mode`: "default", "acceptEdits", "plan", ...) */
  permissionMode: string | null;
  /** set only inside a subagent: its calls are not the main thread's boundaries */
  agentId: string | null;
}

export interface StatusLineInput {
  event: 'statusline';
  sessionId: string | null;
  transcriptPath: string | null;
  cwd: string | null;
  /** workspace.project_dir: the folder the session works in (a worktree's, once claude entered one) */
  projectDir: string | null;
  /** workspace.added_dirs: directories added with --add-dir or /add-dir */
  addedDirs: string[] | null;
  modelId: string | null;
  /** context_window.context_window_size, from 2.0.65 */
  contextWindowSize: number | null;
  /** context_window.used_percentage; null before the first reply */
  usedPercentage: number | null;
  /** the release that built the payload, e.g. "2.1.332" */
  version: string | null;
  /** a subscription session at 100% of a usage limit: when the latest such limit resets (unix seconds), docs/claude-code.md §10 */
  rateLimitResetsAt: number | null;
}

export type HookEvent =
  | (HookBase & { event: 'SessionStart'; source: string | null; model: string | null })
  | (HookBase & { event: 'UserPromptSubmit'; prompt: string | null })
  | (HookBase & {
      event: 'PreToolUse';
      toolName: string | null;
      toolUseId: string | null;
      toolInput: Record<string, unknown> | null;
    })
  | (HookBase & { event: 'PostToolUse'; toolName: string | null; toolUseId: string | null })
  /** a tool call that failed (2.1.332 runs this instead of PostToolUse): `error` as the model reads it,
   *  `isInterrupt` when a person interrupted the call */
  | (HookBase & {
      event: 'PostToolUseFailure';
      toolName: string | null;
      toolUseId: string | null;
      error: string | null;
      isInterrupt: boolean;
    })
  /** auto mode's classifier refused a call (2.1.332): the call never ran; the turn goes on */
  | (HookBase & { event: 'PermissionDenied'; toolName: string | null; toolUseId: string | null; reason: string | null })
  | (HookBase & { event: 'PermissionRequest'; toolName: string | null; toolInput: Record<string, unknown> | null })
  | (HookBase & { event: 'Stop'; stopHookActive: boolean; lastAssistantMessage: string | null })
  | (HookBase & {
      event: 'StopFailure';
      error: string | null;
      errorDetails: string | null;
      lastAssistantMessage: string | null;
    })
  | (HookBase & { event: 'Notification'; message: string | null; notificationType: string | null })
  | (HookBase & { event: 'PreCompact'; trigger: string | null; customInstructions: string | null })
  | (HookBase & { event: 'PostCompact'; trigger: string | null; compactSummary: string | null })
  | (HookBase & { event: 'SessionEnd'; reason: string | null })
  | StatusLineInput
  | (HookBase & { event: 'unknown'; name: string });

export type HookEventName = Exclude<HookEvent['event'], 'unknown' | 'statusline'>;

/** every hook flower-pty can handle, in the order the settings file lists them */
export const HANDLED_HOOKS: readonly HookEventName[] = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
  'Stop',
  'StopFailure',
  'Notification',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
];

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(p: Fields, key: string): string | null {
  const value = p[key];
  return typeof value === 'string' ? value : null;
}

function num(p: Fields, key: string): number | null {
  const value = p[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function strings(p: Fields, key: string): string[] | null {
  const value = p[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;
}

function obj(p: Fields, key: string): Fields | null {
  const value = p[key];
  return isObject(value) ? value : null;
}

// rate_limits.{five_hour,seven_day}: the latest reset among the limits that are used up.
function exhaustedLimitReset(limits: Fields | null): number | null {
  let reset: number | null = null;
  for (const value of Object.values(limits ?? {})) {
    if (!isObject(value) || num(value, 'used_percentage') === null || (num(value, 'used_percentage') as number) < 100)
      continue;
    const at = num(value, 'resets_at');
    if (at !== null) reset = Math.max(reset ?? 0, at);
  }
  return reset;
}

// The event name the hook client was started with wins over hook_event_name: it is what the settings
// file registered. A payload that is not an object reads as one with no fields.
export function readHook(event: string, payload: unknown): HookEvent {
  const p: Fields = isObject(payload) ? payload : {};
  if (event === 'statusline') {
    const window = obj(p, 'context_window') ?? {};
    const workspace = obj(p, 'workspace') ?? {};
    return {
      event: 'statusline',
      sessionId: str(p, 'session_id'),
      transcriptPath: str(p, 'transcript_path'),
      cwd: str(p, 'cwd'),
      projectDir: str(workspace, 'project_dir'),
      addedDirs: strings(workspace, 'added_dirs'),
      modelId: str(obj(p, 'model') ?? {}, 'id'),
      contextWindowSize: num(window, 'context_window_size'),
      usedPercentage: num(window, 'used_percentage'),
      version: str(p, 'version'),
      rateLimitResetsAt: exhaustedLimitReset(obj(p, 'rate_limits')),
    };
  }
  const base: HookBase = {
    sessionId: str(p, 'session_id'),
    transcriptPath: str(p, 'transcript_path'),
    cwd: str(p, 'cwd'),
    permissionMode: str(p, 'permission_mode'),
    agentId: str(p, 'agent_id') || null,
  };
  switch (event) {
    case 'SessionStart':
      return { ...base, event, source: str(p, 'source'), model: str(p, 'model') };
    case 'UserPromptSubmit':
      return { ...base, event, prompt: str(p, 'prompt') };
    case 'PreToolUse':
      return {
        ...base,
        event,
        toolName: str(p, 'tool_name'),
        toolUseId: str(p, 'tool_use_id'),
        toolInput: obj(p, 'tool_input'),
      };
    case 'PostToolUse':
      return { ...base, event, toolName: str(p, 'tool_name'), toolUseId: str(p, 'tool_use_id') };
    case 'PostToolUseFailure':
      return {
        ...base,
        event,
        toolName: str(p, 'tool_name'),
        toolUseId: str(p, 'tool_use_id'),
        error: str(p, 'error'),
        isInterrupt: p['is_interrupt'] === true,
      };
    case 'PermissionDenied':
      return {
        ...base,
        event,
        toolName: str(p, 'tool_name'),
        toolUseId: str(p, 'tool_use_id'),
        reason: str(p, 'reason'),
      };
    case 'PermissionRequest':
      return { ...base, event, toolName: str(p, 'tool_name'), toolInput: obj(p, 'tool_input') };
    case 'Stop':
      return {
        ...base,
        event,
        stopHookActive: p['stop_hook_active'] === true,
        lastAssistantMessage: str(p, 'last_assistant_message'),
      };
    case 'StopFailure':
      return {
        ...base,
        event,
        error: str(p, 'error'),
        errorDetails: str(p, 'error_details'),
        lastAssistantMessage: str(p, 'last_assistant_message'),
      };
    case 'Notification':
      return { ...base, event, message: str(p, 'message'), notificationType: str(p, 'notification_type') };
    case 'PreCompact':
      return { ...base, event, trigger: str(p, 'trigger'), customInstructions: str(p, 'custom_instructions') };
    case 'PostCompact':
      return { ...base, event, trigger: str(p, 'trigger'), compactSummary: str(p, 'compact_summary') };
    case 'SessionEnd':
      return { ...base, event, reason: str(p, 'reason') };
    default:
      return { ...base, event: 'unknown', name: event };
  }
}
