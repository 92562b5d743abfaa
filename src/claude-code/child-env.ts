// The environment handed to a child claude: a copy of a base env with some keys set and some removed.
// Pure: the caller passes process.env in; nothing here reads the real environment.

// Markers an outer Claude Code session leaves in its tool shells. An inherited CLAUDE_CODE_CHILD_SESSION
// silently switches transcript saving off (docs/claude-code.md §9), which would blind the meter.
export const OUTER_SESSION_MARKERS: readonly string[] = [
  'CLAUDECODE',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_CODE_CHILD_SESSION',
  'CLAUDE_CODE_SESSION_ATTENDED',
  'CLAUDE_PID',
  'CLAUDE_CODE_CHILD_NOTES_DIR',
  'CLAUDE_EFFORT',
  'AI_AGENT',
  'TRACEPARENT',
];

// The child sizes itself from the pty; inherited sizes or a tmux socket would mislead it.
export const TERMINAL_MISFITS: readonly string[] = ['TMUX', 'COLUMNS', 'LINES'];

// Copy `base` without undefined values, drop the outer-session markers, the terminal misfits and `remove`,
// then apply `set` (which wins over every removal, so a caller can deliberately keep a key).
export function buildChildEnv(
  base: Record<string, string | undefined>,
  set: Record<string, string>,
  remove: string[],
): Record<string, string> {
  const dropped = new Set<string>([...OUTER_SESSION_MARKERS, ...TERMINAL_MISFITS, ...remove]);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && !dropped.has(key)) env[key] = value;
  }
  return { ...env, ...set };
}
