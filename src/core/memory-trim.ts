// When an idle run server gives back the memory it holds for nothing (adapters/memory-trim.ts does it):
// once nobody is connected and claude has written nothing for a while, and then not again until something
// happens. A person who is attached, or a page that watches, may type at any moment: their next key should
// not pay for pages mapped back. A server that works (claude writing) uses those pages anyway. Pure: the
// server (server/idle-memory.ts) brings the clock, the timer and the connections.

/** quiet this long, with nobody connected, before a trim: claude at work writes many times a second */
export const QUIET_BEFORE_TRIM_MS = 15_000;

export interface TrimState {
  /** when the run last did anything: claude wrote, a client came, spoke or went */
  readonly lastActivity: number;
  /** a trim was done since lastActivity: nothing more to give back until something happens */
  readonly trimmed: boolean;
}

/** something happened (or the server started): the next quiet stretch may end in a trim again */
export const active = (now: number): TrimState => ({ lastActivity: now, trimmed: false });

/** what to do now: trim, look again in `ms`, or nothing until the run is active again or a client leaves */
export type TrimStep = { type: 'trim' } | { type: 'wait'; ms: number } | { type: 'none' };

export function nextTrim(state: TrimState, now: number, connected: number, quietMs = QUIET_BEFORE_TRIM_MS): TrimStep {
  if (connected > 0 || state.trimmed) return { type: 'none' };
  const quiet = now - state.lastActivity;
  return quiet >= quietMs ? { type: 'trim' } : { type: 'wait', ms: quietMs - quiet };
}

/** the trim is done */
export const trimDone = (state: TrimState): TrimState => ({ ...state, trimmed: true });
