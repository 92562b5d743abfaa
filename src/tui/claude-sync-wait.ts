// Claude's own synchronized update (CSI ? 2026 h … l) waited for before a frame is drawn, so half of
// claude's frame is never painted; bounded as a terminal bounds it: past SYNC_WAIT_MS the frame is drawn
// anyway, and a frame left out while waiting is asked for again when the wait runs out.

// A terminal gives up waiting for the end of a synchronized update after a while (kitty, foot: 1 s; the
// spec suggests 150 ms-1 s); so do we.
const SYNC_WAIT_MS = 500;

export interface ClaudeSyncWait {
  /** true while claude's own frame is half written (and not for too long) */
  midFrame(synchronizing: boolean): boolean;
  dispose(): void;
}

/** `request`: a frame asked for again once the wait runs out */
export function claudeSyncWait(request: () => void): ClaudeSyncWait {
  let syncSince: number | null = null;
  let syncTimer: NodeJS.Timeout | null = null;
  return {
    midFrame(synchronizing) {
      if (!synchronizing) {
        syncSince = null;
        return false;
      }
      const now = performance.now();
      syncSince ??= now;
      if (now - syncSince >= SYNC_WAIT_MS) return false;
      if (!syncTimer) {
        syncTimer = setTimeout(
          () => {
            syncTimer = null;
            request();
          },
          SYNC_WAIT_MS - (now - syncSince) + 1,
        );
        syncTimer.unref?.();
      }
      return true;
    },
    dispose() {
      if (syncTimer) clearTimeout(syncTimer);
    },
  };
}
