// blessed's character width with the quick answer for printable ASCII: the same width as blessed's own
// for every code point and every form blessed calls it with (a string, a string and an index, a number).
import t from 'tap';
import blessed from 'blessed';
import { blessedCharWidth, quickAsciiWidths } from '../../src/tui/blessed-char-width.js';

const charWidth = () => (blessed as unknown as { unicode: { charWidth(s: string | number, i?: number): number } }).unicode.charWidth;

t.test('installed once, in the module blessed draws with', async (t) => {
  quickAsciiWidths();
  const installed = charWidth();
  t.not(installed, blessedCharWidth, 'blessed now calls the quick one');
  quickAsciiWidths();
  t.equal(charWidth(), installed, 'a second call wraps nothing again');
});

t.test('every code point has the width blessed gives it', async (t) => {
  quickAsciiWidths();
  const quick = charWidth();
  const differ: string[] = [];
  for (let code = 0; code <= 0x3ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue; // a lone surrogate is no character
    const ch = String.fromCodePoint(code);
    if (quick(ch) !== blessedCharWidth(ch)) differ.push(`U+${code.toString(16)} as a string`);
    if (quick(code) !== blessedCharWidth(code)) differ.push(`U+${code.toString(16)} as a number`);
    if (quick(`a${ch}`, 1) !== blessedCharWidth(`a${ch}`, 1)) differ.push(`U+${code.toString(16)} at an index`);
  }
  t.same(differ.slice(0, 10), [], 'no code point differs');
  t.equal(quick(''), blessedCharWidth(''), 'nor the empty cell');
  t.equal(quick('\t'), blessedCharWidth('\t'), 'nor a tab (blessed answers with its tab size)');
});
