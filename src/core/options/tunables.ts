// The run's internal tunables: the waits and limits it works by that are not options (a person has no
// reason to set them; a test may, through supervise()'s `tunables`). One row each, beside the options
// table, each with the reason for its value. The run's settings take them as they are
// (core/run/settings-from-options.ts). Pure data.

export const TUNABLES = {
  /** how long a Stop or PostToolUse hook waits for its row to reach the transcript: Claude Code writes the
   * row and calls the hook within a few ms of each other, so seconds mean the row is not coming */
  stopWaitMs: 3_000,
  /** a live session's transcript not found this long after a turn began is said once and handed off: the
   * file appears with the turn's first row, well within this on a loaded machine */
  transcriptLostAfterMs: 5_000,
  /** a claude that dies this soon, before any turn, could not start (a bad flag, no login): the run stops
   * instead of restarting it in a loop */
  earlyExitMs: 15_000,
  /** no hook at all this long after a spawn: hooks are not running (SessionStart comes within a second or
   * two; a cold start on a slow disk stays far below this) */
  hooklessAfterMs: 30_000,
  /** no Stop hook this long after the transcript showed a turn end: the hooks went missing mid-session */
  turnHooklessAfterMs: 5_000,
  /** an edit during review extends it until the document has been quiet this long: a person typing in their
   * editor saves more often than this */
  quietMs: 2_000,
} as const;

export type Tunables = { readonly [K in keyof typeof TUNABLES]: number };
