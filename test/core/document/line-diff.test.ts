// diffLines: the model's draft against a person's version, line by line, bounded.
import t from 'tap';
import { diffLines } from '../../../src/core/document/line-diff.js';

t.test('an edited line shows as removed then added, the rest unchanged', async (t) => {
  const d = diffLines('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
  t.same(d.lines, [
    { op: 'same', text: 'a' },
    { op: 'del', text: 'b' },
    { op: 'add', text: 'B' },
    { op: 'same', text: 'c' },
    { op: 'same', text: 'd' },
    { op: 'add', text: 'e' },
  ]);
  t.equal(d.added, 2);
  t.equal(d.removed, 1);
  t.equal(d.coarse, false);
});

t.test('the LCS keeps the longest common run: a moved block is one removal and one addition', async (t) => {
  const d = diffLines('x\n1\n2\n3\ny\n', '1\n2\n3\nx\ny\n');
  t.equal(d.lines.filter((l) => l.op === 'same').length, 4, 'four lines kept');
  t.equal(d.removed, 1);
  t.equal(d.added, 1);
});

t.test('equal texts, empty texts, CRLF', async (t) => {
  t.same(diffLines('same\n', 'same\n').lines, [{ op: 'same', text: 'same' }]);
  t.same(diffLines('', 'new').lines, [
    { op: 'del', text: '' },
    { op: 'add', text: 'new' },
  ]);
  t.same(
    diffLines('a\r\nb\r\n', 'a\nb\n').lines.map((l) => l.op),
    ['same', 'same'],
  );
});

t.test('past the cell limit the middle is shown whole, and the size stays bounded', async (t) => {
  const before = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
  const after = Array.from({ length: 3000 }, (_, i) => `LINE ${i}`).join('\n');
  const d = diffLines(`head\n${before}\ntail`, `head\n${after}\ntail`, 1_000_000);
  t.equal(d.coarse, true);
  t.equal(d.removed, 3000);
  t.equal(d.added, 3000);
  t.same(d.lines[0], { op: 'same', text: 'head' });
  t.same(d.lines.at(-1), { op: 'same', text: 'tail' });
});
