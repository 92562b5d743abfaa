// Coalesces repaints: however many chunks arrive, never one render per chunk. When a frame is drawn is
// core/screen/frame-pacing.ts's decision (at once after a quiet moment, once a frame in a flood); this carries it
// out with the clock and the timers. Suspending (while an editor owns the terminal) keeps the request for later.
// "The next turn" is setImmediate, not setTimeout(0): Node clamps a timeout to at least 1 ms, a whole
// millisecond on every echo; an immediate still runs after the I/O phase, so chunks read together coalesce.
// A request that may be drawn where it is made (`atOnce`: the echo's parse, whose frame is a row or
// two) skips even the immediate when the pacing says now.

import {
  FIRST_PACE,
  FRAME_MS,
  frameDrawn,
  frameDue,
  keyTyped,
  requestFrame,
  type PaceState,
} from '../core/screen/frame-pacing.js';

export { FRAME_MS };

export interface FrameScheduler {
  /** `atOnce`: drawn before this returns when nothing is pending and the pacing allows it */
  request(atOnce?: boolean): void;
  /** a person typed: the next frame (the echo) is not paced as a flood */
  typed(): void;
  suspend(on: boolean): void;
  /** frames actually rendered so far (the bench reports it) */
  readonly frames: number;
  dispose(): void;
}

/** `held`: the terminal has not taken the last frame yet (in a flood, the next one waits for it) */
export function createFrameScheduler(
  render: () => void,
  frameMs = FRAME_MS,
  now: () => number = () => performance.now(),
  held: () => boolean = () => false,
): FrameScheduler {
  let timer: { cancel(): void } | null = null;
  let dirty = false;
  let suspended = false;
  let disposed = false;
  let pace: PaceState = FIRST_PACE;
  let frames = 0;
  let requests = 0;

  function run(): void {
    timer = null;
    if (!dirty || suspended || disposed) return;
    const due = frameDue(pace, held(), frameMs);
    if (!due.draw) return later(due.ms);
    dirty = false;
    pace = frameDrawn(pace, now(), requests);
    requests = 0;
    frames++;
    render();
  }

  function later(ms: number): void {
    if (ms > 0) {
      const timeout = setTimeout(run, ms);
      timer = { cancel: () => clearTimeout(timeout) };
    } else {
      const immediate = setImmediate(run);
      timer = { cancel: () => clearImmediate(immediate) };
    }
  }

  function schedule(atOnce: boolean): void {
    if (timer || suspended || disposed || !dirty) return;
    const decided = requestFrame(pace, now(), atOnce, frameMs);
    pace = decided.state;
    const { timing } = decided;
    if (timing.type === 'now') run();
    else later(timing.type === 'after' ? timing.ms : 0);
  }

  return {
    request(atOnce = false) {
      dirty = true;
      requests++;
      schedule(atOnce);
    },
    typed() {
      pace = keyTyped(pace);
    },
    suspend(on) {
      suspended = on;
      if (on && timer) {
        timer.cancel();
        timer = null;
      }
      schedule(false);
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
