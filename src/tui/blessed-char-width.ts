// blessed's width of a character, answered at once for printable ASCII. Its draw() asks
// unicode.charWidth of every cell of every row it draws (the split view is fullUnicode), and each
// call looks the code up in a table kept as an object, runs the wide ranges, then reads
// process.env.NCURSES_CJK_WIDTH: a millisecond of a 200x60 split view's first frame in a run
// server. Below 0x7f and from 0x20 up no branch of it can answer anything but 1 (the combining
// table starts at U+0300, the ambiguous and wide ranges at U+00A1), so those codes skip it.

import { unicode } from './blessed-parts.js';

type CharWidth = (str: string | number, index?: number) => number;

/** blessed's own, for comparing */
export const blessedCharWidth: CharWidth = unicode.charWidth;

/** installs the quick answer in blessed's unicode module, the one its screen and elements call; once */
export function quickAsciiWidths(): void {
  if (unicode.charWidth !== blessedCharWidth) return;
  unicode.charWidth = function (str, index) {
    const code = typeof str === 'string' ? str.charCodeAt(index || 0) : str;
    return code >= 0x20 && code < 0x7f ? 1 : blessedCharWidth(str, index);
  };
}
