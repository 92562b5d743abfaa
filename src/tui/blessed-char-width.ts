// blessed's widths, made the Unicode 11 rule every other screen of flower-pty uses (core/screen/char-width.ts: the
// emulator's, the painter's and the web page's): blessed's own tables predate most emoji, so a document
// with 👍🏽 or ⌚ in it would be drawn a column or two wider than blessed thinks, pushing the pane's right
// border along. Installed once in blessed's unicode module, which its element layout and draw() read
// afresh at each call: the width of a character (charWidth, strWidth), which characters are wide (the
// pattern its layout follows each with a placeholder cell, draw() eating that cell), and which take no
// column (joined to the cell before, as xterm joins them). Printable ASCII is answered at once: draw() asks
// the width of every cell of every row it draws (the split view is fullUnicode).

import { codePointWidth, rangesOfWidth } from '../core/screen/char-width.js';
import { unicode } from './blessed-parts.js';

type CharWidth = (str: string | number, index?: number) => number;

interface BlessedUnicode {
  charWidth: CharWidth;
  combining: Record<number, boolean>;
  chars: { all: RegExp; combining: RegExp };
}

/** blessed's own, for comparing (and for a tab, whose width is blessed's tab size) */
export const blessedCharWidth: CharWidth = unicode.charWidth;

const characterSet = (ranges: Array<[number, number]>): string =>
  `[${ranges.map(([from, to]) => (from === to ? `\\u{${from.toString(16)}}` : `\\u{${from.toString(16)}}-\\u{${to.toString(16)}}`)).join('')}]`;

/** installs the Unicode 11 widths in blessed's unicode module, the one its screen and elements call; once */
export function unicode11Widths(): void {
  const u = unicode as unknown as BlessedUnicode;
  if (u.charWidth !== blessedCharWidth) return;
  u.charWidth = (str, index) => {
    const code = typeof str === 'string' ? (str.codePointAt(index || 0) ?? 0) : str;
    if (code >= 0x20 && code < 0x7f) return 1;
    return code === 0x09 ? blessedCharWidth(code) : codePointWidth(code);
  };
  const zero = rangesOfWidth(0);
  const combining: Record<number, boolean> = {};
  for (const [from, to] of zero) for (let code = from; code <= to; code++) combining[code] = true;
  u.combining = combining;
  // A wide character with the zero-width ones joined to it (a ZWJ, a variation selector): the placeholder
  // cell goes after them all, so they stay in the wide character's cell rather than in the one draw() eats.
  u.chars.all = new RegExp(`(${characterSet(rangesOfWidth(2))}${characterSet(zero)}*)`, 'gu');
  u.chars.combining = new RegExp(characterSet(zero), 'gu');
}
