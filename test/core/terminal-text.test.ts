// The one terminal boundary: every control a terminal acts on becomes a visible escape, everything else
// (CJK, emoji, accents, a path's spaces) stays exactly as it was.
import t from 'tap';
import { terminalJson, terminalText } from '../../src/core/terminal-text.js';

const ESC = '\u001b';
// Everything a terminal may act on: no output of the boundary holds one.
const ACTIVE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

t.test('C0 controls and DEL become visible escapes', async (t) => {
  t.equal(terminalText(`a${ESC}]52;c;U1RPTEVO\u0007b`), 'a\\x1b]52;c;U1RPTEVO\\x07b');
  t.equal(terminalText(`${ESC}[6n`), '\\x1b[6n');
  t.equal(terminalText('a\rb\nc\td\u0000'), 'a\\x0db\\x0ac\\x09d\\x00');
  t.equal(terminalText('x\u007fy'), 'x\\u007fy');
  for (let code = 0; code < 0x20; code++)
    t.notMatch(terminalText(`<${String.fromCharCode(code)}>`), ACTIVE, `C0 ${code}`);
});

t.test('lines keep their line feeds and tabs, nothing else', async (t) => {
  t.equal(terminalText(`one\ttwo\nthree\r${ESC}[2J`, { lines: true }), 'one\ttwo\nthree\\x0d\\x1b[2J');
});

t.test('C1 controls as code points become \\u escapes', async (t) => {
  t.equal(terminalText('\u009b31m red'), '\\u009b31m red');
  for (let code = 0x80; code <= 0x9f; code++)
    t.equal(terminalText(String.fromCharCode(code)), `\\u${code.toString(16).padStart(4, '0')}`);
});

t.test('bytes: C1 as UTF-8 and as a lone raw byte, and any malformed byte, become escapes', async (t) => {
  t.equal(
    terminalText(Buffer.from([0x61, 0x9b, 0x33, 0x31, 0x6d])),
    'a\\x9b31m',
    'the lone byte 0x9B (CSI to a terminal not in UTF-8)',
  );
  t.equal(terminalText(Buffer.from([0xc2, 0x9b, 0x33])), '\\u009b3', 'U+009B in UTF-8');
  t.equal(terminalText(Buffer.from([0x1b, 0x5d, 0x30, 0x3b, 0x07])), '\\x1b]0;\\x07');
  t.equal(terminalText(Buffer.from([0xc0, 0x9b])), '\\xc0\\x9b', 'an overlong form is no character');
  t.equal(terminalText(Buffer.from([0xed, 0xa0, 0x80])), '\\xed\\xa0\\x80', 'nor is a surrogate');
  t.equal(terminalText(Buffer.from([0xe2, 0x80])), '\\xe2\\x80', 'nor a cut sequence');
  t.equal(terminalText(Buffer.from('\u202e and 漢字 🌸', 'utf8')), '\\u202e and 漢字 🌸');
  for (let byte = 0x80; byte <= 0xff; byte++) t.notMatch(terminalText(Buffer.from([byte])), ACTIVE, `byte ${byte}`);
});

t.test('bidi controls become escapes', async (t) => {
  for (const c of [
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u200e',
    '\u200f',
    '\u061c',
    '\u2028',
    '\u2029',
  ]) {
    t.equal(terminalText(`a${c}b`), `a\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}b`);
  }
});

t.test('ordinary Unicode is untouched', async (t) => {
  for (const s of [
    '漢字かな한글',
    '🌸👩‍👩‍👧 flag 🇫🇷',
    'café naïve Ωμέγα',
    'עברית عربي',
    '/home/a b/p-x (1)/.flower',
    '\u00a0\u00ad\u200d\ufeff',
    '\\x1b as text',
  ]) {
    t.equal(terminalText(s), s, s);
    t.equal(terminalText(Buffer.from(s, 'utf8')), s, `${s} as bytes`);
  }
});

t.test('the folder name of the attack shows, inert', async (t) => {
  const name = `p-${ESC}]52;c;U1RPTEVO\u0007-${ESC}]0;TITLE-PWN\u0007-${ESC}[6n-\u009b31m-\u202e x`;
  const shown = terminalText(name);
  t.notMatch(shown, ACTIVE);
  t.equal(shown, 'p-\\x1b]52;c;U1RPTEVO\\x07-\\x1b]0;TITLE-PWN\\x07-\\x1b[6n-\\u009b31m-\\u202e x');
  t.equal(terminalText(Buffer.from(name, 'utf8')), shown, 'the same from its bytes');
});

t.test('JSON for a terminal: C1 and bidi escaped, the value read back unchanged', async (t) => {
  const value = { path: `/p-${ESC}]52;c;x\u0007-\u009b31m-\u202e-\u007f`, n: 1, nested: ['漢字 🌸'] };
  const plain = JSON.stringify(value);
  t.match(plain, /\u009b/, 'JSON.stringify leaves C1 raw');
  for (const space of [undefined, 2]) {
    const json = terminalJson(value, space);
    t.notMatch(json.replace(/\n/g, ''), ACTIVE);
    t.same(JSON.parse(json), value);
  }
});
