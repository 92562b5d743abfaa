// Tests for the byte-level line splitter: chunking, UTF-8 splits, over-long lines, CRLF, junk lines.
import t from 'tap';
import { createLineSplitter } from '../../../src/core/meter/jsonl.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

t.test('splits lines, carries the tail, flushes the last unterminated line', async (t) => {
  const s = createLineSplitter();
  t.same(s.push('a\nb'), ['a']);
  t.same(s.push('c\n\nd'), ['bc', '']);
  t.equal(s.lineNo, 3);
  t.same(s.end(), ['d']);
  t.equal(s.lineNo, 4);
  t.same(s.end(), [], 'a second end has nothing left');
});

t.test('a multi-byte character split across chunks survives', async (t) => {
  const text = '{"t":"交接 😀 ñ"}\n';
  const b = bytes(text);
  for (let cut = 1; cut < b.length; cut++) {
    const s = createLineSplitter();
    const lines = [...s.push(b.subarray(0, cut)), ...s.push(b.subarray(cut)), ...s.end()];
    t.same(lines, ['{"t":"交接 😀 ñ"}'], `cut at byte ${cut}`);
  }
});

t.test('one byte at a time gives the same lines as one chunk', async (t) => {
  const text = 'first\nsecond ✓\r\nthird';
  const whole = createLineSplitter();
  const expected = [...whole.push(text), ...whole.end()];
  const s = createLineSplitter();
  const got: string[] = [];
  for (const byte of bytes(text)) got.push(...s.push(new Uint8Array([byte])));
  got.push(...s.end());
  t.same(got, expected);
  t.same(got, ['first', 'second ✓', 'third'], 'CR of CRLF is stripped');
});

t.test('over-long lines are dropped and counted, with their line numbers', async (t) => {
  const s = createLineSplitter({ maxLineBytes: 10 });
  const got = [
    ...s.push('short\n0123456'),
    ...s.push('789abcdef'), // line 2 passes the limit here, before its end
    ...s.push('ghi\nok\n'),
    ...s.push('0123456789A\nlast'), // line 4 is too long within one chunk
    ...s.end(),
  ];
  t.same(got, ['short', 'ok', 'last']);
  t.equal(s.dropped, 2);
  t.same(s.droppedLines, [2, 4]);
  t.equal(s.lineNo, 5, 'dropped lines still count for numbering');
});

t.test('lineNumber() numbers each returned line, dropped lines included', async (t) => {
  const s = createLineSplitter({ maxLineBytes: 3 });
  const lines = s.push('a\ntoolong\nb\nc\nlonger\nxx\nd');
  t.same(lines, ['a', 'b', 'c', 'xx']);
  t.same(
    lines.map((_, i) => s.lineNumber(i)),
    [1, 3, 4, 6],
  );
  t.same(s.end(), ['d']);
  t.equal(s.lineNumber(0), 7);
});

t.test('an over-long unterminated last line is dropped at end()', async (t) => {
  const s = createLineSplitter({ maxLineBytes: 4 });
  t.same(s.push('abcdefgh'), []);
  t.same(s.end(), []);
  t.equal(s.dropped, 1);
});

t.test('a line exactly at the limit is kept', async (t) => {
  const s = createLineSplitter({ maxLineBytes: 4 });
  t.same([...s.push('ab'), ...s.push('cd\n')], ['abcd']);
  t.equal(s.dropped, 0);
  t.equal(s.bytes, 5);
});
