// When an idle run server gives back the memory it holds for nothing (adapters/memory-trim.ts does it):
// once no terminal is attached and claude has written nothing for a while, and then not again until
// something happens. A person at an attached terminal may type at any moment, and their next key should not
// pay for pages mapped back; the web face's watchers do not count (its server follows every run, whether or
// not a page is open, and a page's first key after a trim costs a few page faults, no more). A server that
// works (claude writing) uses those pages anyway. Pure: the server (server/idle-memory.ts) brings the clock,
// the timer and the count of attached terminals.

/** quiet this long, with no terminal attached, before a trim: claude at work writes many times a second */
export const QUIET_BEFORE_TRIM_MS = 15_000;

export interface TrimState {
  /** when the run last did anything: claude wrote, a client came, spoke or went */
  readonly lastActivity: number;
  /** a trim was done since lastActivity: nothing more to give back until something happens */
  readonly trimmed: boolean;
}

/** something happened (or the server started): the next quiet stretch may end in a trim again */
export const active = (now: number): TrimState => ({ lastActivity: now, trimmed: false });

/** what to do now: trim, look again in `ms`, or nothing until the run is active again or a terminal leaves */
export type TrimStep = { type: 'trim' } | { type: 'wait'; ms: number } | { type: 'none' };

export function nextTrim(state: TrimState, now: number, attached: number, quietMs = QUIET_BEFORE_TRIM_MS): TrimStep {
  if (attached > 0 || state.trimmed) return { type: 'none' };
  const quiet = now - state.lastActivity;
  return quiet >= quietMs ? { type: 'trim' } : { type: 'wait', ms: quietMs - quiet };
}

/** the trim is done */
export const trimDone = (state: TrimState): TrimState => ({ ...state, trimmed: true });
