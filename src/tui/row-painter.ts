// Claude's cells written to the terminal by our own painter, every attribute, 24-bit colour and OSC 8
// link of them kept (blessed's draw() knows 256 colours and five attributes). The session pane puts look
// numbers (pane-styles.ts) in blessed's screen buffer; blessed's record of what the terminal shows (olines)
// is kept for them exactly as its draw() keeps it for its own cells, so its diff and ours agree on what
// changed. Two uses: a frame that is claude's output alone (an echo) is drawn here for the pane's columns of
// the rows it changed, where blessed's draw compares every column of the screen's rows and costs a
// keystroke's echo three times as much; and a whole render draws claude's cells here first, then lets
// blessed draw the rest (borders, the document, the status, the help), which sees claude's cells as drawn.

import type { Widgets } from 'blessed';
import { codePointWidth } from '../core/screen/char-width.js';
import { isPaneStyle, type PaneStyles } from './pane-styles.js';
import { linkEscape, sameLink, type Link, type StyleCaps } from '../core/screen/cell-style.js';

type Cell = [number, string];
type Row = Cell[] & { dirty?: boolean };

interface ScreenInternals {
  lines: Row[];
  olines: Row[];
  dattr: number;
  /** what blessed still has to write before its next draw (rarely anything) */
  _buf?: string;
  codeAttr(attr: number): string;
  draw(start: number, end: number): void;
  program: { _write(text: string): void };
}

/** the looks of claude's cells and what this terminal shows of them */
export interface PaneInk {
  styles: PaneStyles;
  caps(): StyleCaps;
}

/** whether blessed's draw() takes `ch` for a wide character (blessed-char-width.ts gives it the Unicode 11
 * widths). Nothing is wide below U+1100: the first character's code unit answers for most text. */
export function blessedWide(ch: string): boolean {
  return ch.charCodeAt(0) >= 0x1100 && codePointWidth(ch.codePointAt(0)!) === 2;
}

function paint(
  s: ScreenInternals,
  ink: PaneInk,
  top: number,
  bottom: number,
  left: number,
  right: number,
  claudeOnly: boolean,
): string {
  const caps = ink.caps();
  let out = '';
  let attr = s.dattr;
  let link: Link | null = null;
  for (let y = top; y <= bottom; y++) {
    const line = s.lines[y];
    const shown = s.olines[y];
    if (!line || !shown || !line.dirty) continue;
    if (!claudeOnly) line.dirty = false; // else blessed's draw, which runs next, looks at the row and leaves it clean
    let at = -1; // the terminal's column after what was written on this row, while it is known
    const end = Math.min(right, line.length);
    for (let x = left; x < end; x++) {
      const cell = line[x]!;
      const data = cell[0];
      const ch = cell[1];
      const was = shown[x]!;
      const ours = isPaneStyle(data);
      if (!ours && claudeOnly) continue;
      // the right half of claude's wide character is drawn with its left half
      const next = line[x + 1];
      const half = ours && x + 1 < end && next![1] === '' && isPaneStyle(next![0]);
      if (data === was[0] && ch === was[1] && !(half && (next![0] !== shown[x + 1]![0] || shown[x + 1]![1] !== '')))
        continue;
      if (ours && ch === '') {
        // a lone right half (its left half scrolled off the pane's left edge): nothing to write there
        was[0] = data;
        was[1] = ch;
        continue;
      }
      if (at !== x) out += `\u001b[${y + 1};${x + 1}H`;
      if (data !== attr) {
        if (ours) out += ink.styles.sgr(data, caps);
        else out += data === s.dattr ? '\u001b[m' : `\u001b[m${s.codeAttr(data)}`;
        attr = data;
      }
      if (caps.hyperlinks) {
        const want = ours ? ink.styles.look(data).link : null;
        if (!sameLink(want, link)) {
          out += linkEscape(want);
          link = want;
        }
      }
      out += ch;
      was[0] = data;
      was[1] = ch;
      at = x + 1;
      if (half) {
        shown[x + 1]![0] = next![0];
        shown[x + 1]![1] = '';
        x++;
        at = x + 1;
      } else if (!ours && ch && blessedWide(ch) && x + 1 < end) {
        // A character blessed takes for wide: it marks both halves as never drawn, as draw() does.
        was[1] = '\u0000';
        shown[x + 1]![1] = '\u0000';
        x++;
        at = x + 1;
      }
    }
  }
  if (link) out += linkEscape(null);
  if (attr !== s.dattr) out += '\u001b[m';
  return out;
}

/**
 * Escapes that bring the terminal's rows top..bottom, columns left..right-1, to blessed's screen
 * buffer, or null when blessed has something of its own to write first (the caller draws through
 * blessed then). Only rows marked dirty are looked at; they are left clean, as draw() leaves them.
 */
export function paintRows(
  screen: Widgets.Screen,
  ink: PaneInk,
  top: number,
  bottom: number,
  left: number,
  right: number,
): string | null {
  const s = screen as unknown as ScreenInternals;
  if (s._buf) return null;
  return paint(s, ink, top, bottom, left, right, false);
}

/** makes every draw of `screen` write claude's cells (in the columns `area()` gives) with `ink`, then the
 * rest through blessed's own draw */
export function drawClaudeFirst(
  screen: Widgets.Screen,
  ink: PaneInk,
  area: () => { left: number; right: number } | null,
): void {
  const s = screen as unknown as ScreenInternals;
  const blessedDraw = s.draw;
  s.draw = function (start: number, end: number) {
    const cols = area();
    if (cols) {
      const cells = paint(s, ink, start, end, cols.left, cols.right, true);
      if (cells) s.program._write(cells);
    }
    blessedDraw.call(this, start, end);
  };
}

/**
 * Escapes that draw again the cells of rows top..bottom outside columns left..right-1 as the terminal
 * shows them (the borders and the document pane beside claude's), for the relay to put back after it
 * scrolled the terminal's rows to scroll claude's pane (native/echo-path.h); the pen is the default one
 * before and after. Null when one of those cells is not known exactly: blessed has not drawn it yet, or
 * it is a wide character's (blessed keeps those as never drawn), or it is claude's.
 */
export function paintBeside(
  screen: Widgets.Screen,
  top: number,
  bottom: number,
  left: number,
  right: number,
): string | null {
  const s = screen as unknown as ScreenInternals;
  if (s._buf) return null;
  let out = '';
  let attr = s.dattr;
  for (let y = top; y <= bottom; y++) {
    const line = s.lines[y];
    const shown = s.olines[y];
    if (!line || !shown) return null;
    for (const [from, to] of [
      [0, left],
      [right, shown.length],
    ] as const) {
      if (from >= to) continue;
      out += `\u001b[${y + 1};${from + 1}H`;
      for (let x = from; x < to; x++) {
        const cell = shown[x];
        const now = line[x];
        if (!cell || !now || cell[0] !== now[0] || cell[1] !== now[1] || isPaneStyle(cell[0])) return null;
        const ch = cell[1];
        if (ch === '' || ch === '\u0000' || blessedWide(ch)) return null;
        if (cell[0] !== attr) {
          out += cell[0] === s.dattr ? '\u001b[m' : `\u001b[m${s.codeAttr(cell[0])}`;
          attr = cell[0];
        }
        out += ch;
      }
    }
  }
  if (attr !== s.dattr) out += '\u001b[m';
  return out;
}
