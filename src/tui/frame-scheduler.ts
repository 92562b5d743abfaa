// Coalesces repaints: however many chunks arrive, at most one frame per FRAME_MS, and never one
// render per chunk. Suspending (while an editor owns the terminal) keeps the request for later.
// Typing is not a flood: when the last frame drew a single request (a keystroke's echo), the next
// is drawn at once (QUICK_MS), so an echo does not wait out a whole frame (split-view keystroke latency).
// "At once" is setImmediate, not setTimeout(0): Node clamps a timeout to at least 1 ms, a whole
// millisecond on every echo; an immediate still runs after the I/O phase, so chunks read together coalesce.
// A request that may be drawn where it is made (`atOnce`: the echo's parse, whose frame is a row or
// two) skips even the immediate, unless a frame is pending or was drawn under QUICK_GAP_MS ago: then
// it joins the next frame, so output arriving chunk after chunk still coalesces.

export const FRAME_MS = 16;
export const QUICK_MS = 0;
export const QUICK_GAP_MS = 2;

export interface FrameScheduler {
  /** `atOnce`: drawn before this returns when nothing is pending and the last frame is not that recent */
  request(atOnce?: boolean): void;
  suspend(on: boolean): void;
  /** frames actually rendered so far (the bench reports it) */
  readonly frames: number;
  dispose(): void;
}

export function createFrameScheduler(render: () => void, frameMs = FRAME_MS, now: () => number = () => performance.now()): FrameScheduler {
  let timer: { cancel(): void } | null = null;
  let dirty = false;
  let suspended = false;
  let disposed = false;
  let last = -Infinity;
  let frames = 0;
  let requests = 0;
  let busy = false;

  function run(): void {
    timer = null;
    if (!dirty || suspended || disposed) return;
    dirty = false;
    busy = requests > 1;
    requests = 0;
    last = now();
    frames++;
    render();
  }

  function schedule(): void {
    if (timer || suspended || disposed || !dirty) return;
    const wait = last + (busy ? frameMs : Math.min(QUICK_MS, frameMs)) - now();
    if (wait <= 0) {
      const immediate = setImmediate(run);
      timer = { cancel: () => clearImmediate(immediate) };
    } else {
      const timeout = setTimeout(run, wait);
      timer = { cancel: () => clearTimeout(timeout) };
    }
  }

  return {
    request(atOnce = false) {
      dirty = true;
      requests++;
      if (atOnce && !timer && !busy && !suspended && !disposed && now() - last >= QUICK_GAP_MS) run();
      else schedule();
    },
    suspend(on) {
      suspended = on;
      if (on && timer) {
        timer.cancel();
        timer = null;
      }
      schedule();
    },
    get frames() {
      return frames;
    },
    dispose() {
      disposed = true;
      timer?.cancel();
      timer = null;
    },
  };
}
