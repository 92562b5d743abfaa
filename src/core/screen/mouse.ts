// Mouse in the split view: the outer terminal reports SGR mouse events for the whole screen; an
// event over the session pane goes to claude in its own coordinates and encoding, the wheel over
// the document pane scrolls it, anything else is dropped.

import type { Layout } from './layout.js';

export type MouseTracking = 'none' | 'x10' | 'vt200' | 'drag' | 'any';

export interface MouseEvent {
  /** the SGR button code: 0-2 buttons, +4 shift, +8 alt, +16 ctrl, +32 motion, 64/65 wheel */
  button: number;
  /** 1-based cell on the outer screen */
  x: number;
  y: number;
  release: boolean;
}

const SGR_MOUSE = /\u001b\[<(\d+);(\d+);(\d+)([Mm])/g;

// Takes the complete SGR mouse reports out of a chunk of input; the rest is keyboard input.
export function extractMouse(text: string): { events: MouseEvent[]; rest: string } {
  const events: MouseEvent[] = [];
  const rest = text.replace(SGR_MOUSE, (_all, b: string, x: string, y: string, kind: string) => {
    events.push({ button: Number(b), x: Number(x), y: Number(y), release: kind === 'm' });
    return '';
  });
  return { events, rest };
}

// What the child's tracking mode lets through (xterm's rules for 9 / 1000 / 1002 / 1003).
function wanted(ev: MouseEvent, tracking: MouseTracking): boolean {
  const motion = (ev.button & 32) !== 0;
  switch (tracking) {
    case 'none':
      return false;
    case 'x10':
      return !ev.release && !motion;
    case 'vt200':
      return !motion;
    case 'drag':
      return !motion || (ev.button & 3) !== 3;
    case 'any':
      return true;
  }
}

export function encodeMouse(ev: MouseEvent, x: number, y: number, sgr: boolean): string {
  if (sgr) return `\u001b[<${ev.button};${x};${y}${ev.release ? 'm' : 'M'}`;
  // The legacy encoding has no release button and no room past column 223.
  const button = ev.release ? 3 | (ev.button & ~3 & ~64) : ev.button;
  const byte = (n: number) => String.fromCharCode(32 + Math.min(n, 223));
  return `\u001b[M${byte(button)}${byte(x)}${byte(y)}`;
}

export type MouseRoute = { to: 'child'; data: string } | { to: 'document'; scroll: 'up' | 'down' } | null;

export function routeMouse(
  ev: MouseEvent,
  layout: Layout,
  child: { tracking: MouseTracking; sgr: boolean },
): MouseRoute {
  const col = ev.x - 1;
  const row = ev.y - 1;
  // The pane's content starts inside its one-cell border.
  const left = layout.session.left + 1;
  const top = layout.session.top + 1;
  if (col >= left && col < left + layout.inner.cols && row >= top && row < top + layout.inner.rows) {
    if (!wanted(ev, child.tracking)) return null;
    return { to: 'child', data: encodeMouse(ev, col - left + 1, row - top + 1, child.sgr) };
  }
  const d = layout.document;
  if (
    d &&
    col >= d.left &&
    col < d.left + d.width &&
    row >= d.top &&
    row < d.top + d.height &&
    (ev.button === 64 || ev.button === 65)
  ) {
    return { to: 'document', scroll: ev.button === 64 ? 'up' : 'down' };
  }
  return null;
}
