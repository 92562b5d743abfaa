// The names of Claude Code's launch dialect, defined once: the argv flags flower-pty passes or refuses,
// the environment it sets for the child, and the variables the hook client reads (src/cli/hook-client.ts
// imports this file; it is pure and tiny, so the client still starts fast on every tool call).

/** the hook client's first argument when claude runs it as the status line */
export const STATUSLINE_EVENT = 'statusline';

export const CLAUDE_FLAGS = {
  sessionId: '--session-id',
  settings: '--settings',
} as const;

// Flags that would make a successor resume or fork instead of starting fresh.
export const RESUMING_FLAGS: readonly string[] = [
  '--resume',
  '-r',
  '--continue',
  '-c',
  '--fork-session',
  '--session-id',
];

/** the variables flower-pty puts in claude's environment for its hook client */
export const HOOK_ENV = {
  socket: 'FLOWER_PTY_SOCKET',
  token: 'FLOWER_PTY_TOKEN',
  timeoutMs: 'FLOWER_PTY_HOOK_TIMEOUT_MS',
  userStatusLine: 'FLOWER_PTY_USER_STATUSLINE',
} as const;

/** Claude kills a hook after this many seconds (the `timeout` flower-pty writes in its settings); the hook
 * client gives up on the run well before (src/cli/hook-limits.ts), and never waits longer than this */
export const HOOK_TIMEOUT_S = 60;

/** the prefix of every flower-pty variable: the user's own status-line script gets none of them */
export const FLOWER_ENV_PREFIX = 'FLOWER_PTY_';

/** Claude Code's own switches flower-pty sets in the child (docs/claude-code.md §2.1) */
export const CLAUDE_ENV = {
  disableAutoCompact: 'DISABLE_AUTO_COMPACT',
  blockingLimitOverride: 'CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE',
  stopHookBlockCap: 'CLAUDE_CODE_STOP_HOOK_BLOCK_CAP',
  configDir: 'CLAUDE_CONFIG_DIR',
  childSession: 'CLAUDE_CODE_CHILD_SESSION',
  forceSessionPersistence: 'CLAUDE_CODE_FORCE_SESSION_PERSISTENCE',
} as const;
