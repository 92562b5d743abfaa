// How long the runtime waits on claude's pty, decided here rather than in the loop that waits. Pure.

// A line typed into claude's prompt is sent, then Enter as its own write this long after: bytes that follow
// a burst at once can be taken as part of a paste and dropped, which would leave the line unsent
// (the same trouble other pty drivers met, e.g. generalaction/emdash#3226).
export const ENTER_AFTER_TYPING_MS = 300;

// Ending claude: SIGTERM first, then SIGKILL if it is still there this long after. Long enough for claude
// to write its last transcript rows and say goodbye; short enough that a hung one does not hold the run.
export const KILL_GRACE_MS = 5_000;

/** the moment to send Enter after a line typed at `typedAt` (ms) */
export function enterDueAt(typedAt: number): number {
  return typedAt + ENTER_AFTER_TYPING_MS;
}
