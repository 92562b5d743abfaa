// How long the runtime waits on claude's pty, decided here rather than in the loop that waits. Pure.

import type { SessionPlace } from '../lineage/session-place.js';

// A line typed into claude's prompt is sent, then Enter as its own write this long after: bytes that follow
// a burst at once can be taken as part of a paste and dropped, which would leave the line unsent
// (the same trouble other pty drivers met, e.g. generalaction/emdash#3226).
export const ENTER_AFTER_TYPING_MS = 300;

// Ending claude: SIGTERM first, then SIGKILL if it is still there this long after. Long enough for claude
// to write its last transcript rows and say goodbye; short enough that a hung one does not hold the run.
export const KILL_GRACE_MS = 5_000;

// A successor does not wait for the old claude's exit (its SIGTERM takes claude a quarter of a second and
// more): the document is frozen and the manifest flushed before either starts, the old claude's output and
// its transcript are no longer followed, and its hooks carry a retired session id. Only a session that moved
// to another folder (a worktree it made) is waited for: claude's own exit may tidy that folder away, and
// the successor must start after it, where the folder still is (or in the run's own, said).
export function successorAwaitsExit(place: SessionPlace, runFolder: string): boolean {
  return place.folder !== null && place.folder !== runFolder;
}

/** the moment to send Enter after a line typed at `typedAt` (ms) */
export function enterDueAt(typedAt: number): number {
  return typedAt + ENTER_AFTER_TYPING_MS;
}
