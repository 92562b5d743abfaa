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

/** the web face's ssh to the person's other machines (docs/hosts.md): not options either, each with its reason */
export const HOST_TUNABLES = {
  /** how often each host is asked for its runs, on its own clock: a dashboard row a few seconds old is fine,
   * and each ask is one ssh session on the host */
  askEveryMs: 10_000,
  /** the ssh forwards one host may have open at once: one per remote run a page shows, and a person looks at
   * a few runs at a time, not a host's hundred */
  forwardsPerHost: 4,
  /** the forwards of every host together: each is an ssh process here and a session there */
  forwardsInAll: 12,
  /** a forward no page shows any more is kept this long: a page reloaded, or a phone's socket that came
   * back, finds it still open */
  forwardLingerMs: 15_000,
  /** a page waits this long for its run's forward to connect (ssh's own connect timeout is 5 s) */
  forwardReadyMs: 15_000,
} as const;
