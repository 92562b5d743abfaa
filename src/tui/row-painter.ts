// The session pane's changed cells written straight to the terminal, as blessed's draw() would
// write them, for a frame that is claude's output alone (an echo): only the pane's own columns of
// the rows it changed are compared, where blessed's draw compares every column of the screen's rows
// and costs a keystroke's echo three times as much. blessed's record of what the terminal shows
// (olines) is kept as its draw() keeps it, so its next whole render draws only what changed since.

import type { Widgets } from 'blessed';
import { unicode } from './blessed-parts.js';

type Cell = [number, string];
type Row = Cell[] & { dirty?: boolean };

interface ScreenInternals {
  lines: Row[];
  olines: Row[];
  dattr: number;
  /** what blessed still has to write before its next draw (rarely anything) */
  _buf?: string;
  codeAttr(attr: number): string;
}

const blessedWidth = unicode.charWidth;

/** whether blessed's draw() takes `ch` for a wide character. Its table has nothing wide below U+1100, and
 * every call reads process.env (NCURSES_CJK_WIDTH): the first character's code unit answers for most text,
 * a fifth of a flood's paint before. */
export function blessedWide(ch: string): boolean {
  return ch.charCodeAt(0) >= 0x1100 && blessedWidth(ch) === 2;
}

/**
 * Escapes that bring the terminal's rows top..bottom, columns left..right-1, to blessed's screen
 * buffer, or null when blessed has something of its own to write first (the caller draws through
 * blessed then). Only rows marked dirty are looked at; they are left clean, as draw() leaves them.
 */
export function paintRows(screen: Widgets.Screen, top: number, bottom: number, left: number, right: number): string | null {
  const s = screen as unknown as ScreenInternals;
  if (s._buf) return null;
  let out = '';
  let attr = s.dattr;
  for (let y = top; y <= bottom; y++) {
    const line = s.lines[y];
    const shown = s.olines[y];
    if (!line || !shown || !line.dirty) continue;
    line.dirty = false;
    let at = -1; // the terminal's column after what was written on this row, while it is known
    const end = Math.min(right, line.length);
    for (let x = left; x < end; x++) {
      const [data, ch] = line[x]!;
      const was = shown[x]!;
      if (data === was[0] && ch === was[1]) continue;
      if (at !== x) out += `\u001b[${y + 1};${x + 1}H`;
      if (data !== attr) {
        out += data === s.dattr ? '\u001b[m' : `\u001b[m${s.codeAttr(data)}`;
        attr = data;
      }
      out += ch;
      was[0] = data;
      was[1] = ch;
      at = x + 1;
      // A character blessed takes for wide: it marks both halves as never drawn, as draw() does.
      if (ch && blessedWide(ch) && x + 1 < end) {
        was[1] = '\u0000';
        shown[x + 1]![1] = '\u0000';
        x++;
        at = x + 1;
      }
    }
  }
  if (attr !== s.dattr) out += '\u001b[m';
  return out;
}
