// When a terminal the run server draws (a split view) gets its next frame. An echo after a quiet moment is
// drawn at once: a person waits for it. Output that keeps coming with no key typed since (a flood: claude
// printing a long file) is drawn once a frame, whatever the chunks: tmux does not draw every byte either,
// and a frame per chunk cost a run with three split views attached three paints of the whole pane per
// chunk read. A terminal
// that has not taken its last frame yet (a slow one) waits a frame more while the flood goes on, so it
// costs the others nothing. Pure: the runtime (tui/frame-scheduler.ts) brings the clock and the timers.

export const FRAME_MS = 16;
/** a request this soon after a frame waits for the next turn of the event loop, with whatever else comes,
 * unless a key was typed since that frame: its echo is what the person waits for */
export const QUICK_GAP_MS = 2;
/** this many requests in a row, each under a frame after the last frame, make a flood */
export const FLOOD_STREAK = 4;

export interface PaceState {
  /** when the last frame was drawn (-Infinity before the first) */
  readonly last: number;
  /** the requests in a row that came under a frame after the last frame */
  readonly streak: number;
  /** the last frame drew more than one request: output came faster than frames */
  readonly busy: boolean;
  /** a key was typed since the last frame: the next request, its echo, is drawn at once, however soon */
  readonly typed: boolean;
}

export const FIRST_PACE: PaceState = { last: -Infinity, streak: 0, busy: false, typed: false };

/** what to do with a request when no frame is pending: draw it `now` (only when the caller may draw
 * where it is: `atOnce`), on the `next-turn` of the event loop, or `after` that many ms */
export type FrameTiming = { type: 'now' } | { type: 'next-turn' } | { type: 'after'; ms: number };

/** the first request since the last frame; `state` then goes on with the returned one */
export function requestFrame(
  state: PaceState,
  now: number,
  atOnce: boolean,
  frameMs = FRAME_MS,
): { state: PaceState; timing: FrameTiming } {
  const since = now - state.last;
  const streak = since < frameMs ? state.streak + 1 : 0;
  const next = { ...state, streak };
  if (state.busy || streak >= FLOOD_STREAK) {
    const wait = frameMs - since;
    return {
      state: next,
      timing: wait > 0 ? { type: 'after', ms: wait } : atOnce ? { type: 'now' } : { type: 'next-turn' },
    };
  }
  // A person typing fast (or a key held down) puts keys under QUICK_GAP_MS after the last echo: each key's
  // echo is still drawn where it is parsed, a turn of the event loop sooner.
  return {
    state: next,
    timing: atOnce && (since >= QUICK_GAP_MS || state.typed) ? { type: 'now' } : { type: 'next-turn' },
  };
}

/** a person typed: what comes next is an echo they wait for, drawn at once, whatever came before */
export function keyTyped(state: PaceState): PaceState {
  return { ...state, streak: 0, busy: false, typed: true };
}

/** a frame is due: draw it, or (a flood, and the terminal still has the last frame to take) wait a frame more */
export function frameDue(
  state: PaceState,
  held: boolean,
  frameMs = FRAME_MS,
): { draw: true } | { draw: false; ms: number } {
  const flooding = state.busy || state.streak >= FLOOD_STREAK;
  return flooding && held ? { draw: false, ms: frameMs } : { draw: true };
}

/** the frame was drawn at `now`, with `requests` requests since the last one */
export function frameDrawn(state: PaceState, now: number, requests: number): PaceState {
  return { last: now, streak: state.streak, busy: requests > 1, typed: false };
}
