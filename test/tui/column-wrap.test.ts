// Where the document pane cuts a line: by the columns it takes on the terminal, in blessed's parsed content
// (SGR escapes, a wide character and its \x03 placeholder, zero-width marks joined to the letter before).
import t from 'tap';
import { columnBreak } from '../../src/tui/column-wrap.js';

t.test('a line is cut where its columns run out', async (t) => {
  t.equal(columnBreak('abcdef', 10), 6, 'it fits');
  t.equal(columnBreak('abcdefghij', 4), 4);
  t.equal(columnBreak('e\u0301'.repeat(6), 4), 8, 'four letters, each with its mark, in four columns');
  t.equal(columnBreak('ab\u0301\u0323c', 2), 4, 'the marks stay with their letter, on its row');
  t.equal(columnBreak('\x1b[31mabcd\x1b[39me', 4), 14, 'escapes take no column');
  t.equal(columnBreak('a中\x03b', 2), 1, 'a wide character that would straddle the edge goes to the next row whole');
  t.equal(columnBreak('中\x03中\x03', 2), 2, '… and its placeholder stays with it');
  t.equal(columnBreak('one two three', 9), 8, 'after a space within the last ten characters, as blessed does');
  t.equal(columnBreak('中', 1), 1, 'never nothing: a character wider than the row still moves on');
});
