// blessed's widths made the Unicode 11 rule (core/screen/char-width.ts) the emulator, the painter and the web page
// use: every code point as wide as that rule says in every form blessed calls it with (a string, a string
// and an index, a number), and its layout's patterns (wide characters, zero-width ones) the same sets.
import t from 'tap';
import blessed from 'blessed';
import { blessedCharWidth, unicode11Widths } from '../../src/tui/blessed-char-width.js';
import { codePointWidth } from '../../src/core/screen/char-width.js';

interface BlessedUnicode {
  charWidth(s: string | number, i?: number): number;
  strWidth(s: string): number;
  combining: Record<number, boolean>;
  chars: { all: RegExp; combining: RegExp };
}
const u = () => (blessed as unknown as { unicode: BlessedUnicode }).unicode;

t.test('installed once, in the module blessed draws with', async (t) => {
  unicode11Widths();
  const installed = u().charWidth;
  t.not(installed, blessedCharWidth, 'blessed now calls ours');
  unicode11Widths();
  t.equal(u().charWidth, installed, 'a second call wraps nothing again');
});

t.test('every code point has its Unicode 11 width', async (t) => {
  unicode11Widths();
  const { charWidth, combining } = u();
  const differ: string[] = [];
  for (let code = 0; code <= 0x10ffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue; // a lone surrogate is no character
    if (code === 0x09) continue;
    const want = codePointWidth(code);
    const ch = String.fromCodePoint(code);
    if (charWidth(ch) !== want) differ.push(`U+${code.toString(16)} as a string`);
    if (charWidth(code) !== want) differ.push(`U+${code.toString(16)} as a number`);
    if (charWidth(`a${ch}`, 1) !== want) differ.push(`U+${code.toString(16)} at an index`);
    if ((combining[code] === true) !== (want === 0 && code >= 0xa0)) differ.push(`U+${code.toString(16)} combining`);
  }
  t.same(differ.slice(0, 10), [], 'no code point differs');
  t.equal(charWidth('\t'), blessedCharWidth('\t'), "a tab: blessed's tab size");
  t.equal(charWidth(''), 0, 'the empty cell');
  t.equal(u().strWidth('中👍🏽e\u0301👨\u200d👩'), 2 + 4 + 1 + 4, 'a string: the sum, zero-width ones nothing');
});

t.test("the layout's patterns: a placeholder after each wide character and what joins it", async (t) => {
  unicode11Widths();
  const { chars } = u();
  t.equal(
    'a中b👍🏽c👨\u200d👩⌚'.replace(chars.all, '$1\u0003'),
    'a中\u0003b👍\u0003🏽\u0003c👨\u200d\u0003👩\u0003⌚\u0003',
  );
  t.equal('e\u0301\u200dx\ufe0f'.replace(chars.combining, ''), 'ex', 'the zero-width ones');
});
