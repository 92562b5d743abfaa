// The title filter: claude's OSC titles come out of the stream, whole or split across chunks.
import t from 'tap';
import { createTitleFilter, composeTitle, titleSequence } from '../../../src/core/screen/title-filter.js';

t.test('removes titles and reports the newest', async (t) => {
  const f = createTitleFilter();
  const r = f.push('a\u001b]0;✳ Claude Code\u0007b\u001b[31mred\u001b]2;second\u001b\\c');
  t.equal(r.output, 'ab\u001b[31mredc');
  t.equal(r.title, 'second');
});

t.test('a title split at every possible point comes out the same', async (t) => {
  const stream = 'x\u001b]0;◐ Claude Code\u0007y\u001b]8;;http://e\u0007link\u001b]8;;\u0007z\u001b';
  for (let cut = 0; cut <= stream.length; cut++) {
    const f = createTitleFilter();
    const a = f.push(stream.slice(0, cut));
    const b = f.push(stream.slice(cut));
    const c = f.push('[0m');
    t.equal(
      a.output + b.output + c.output,
      'xy\u001b]8;;http://e\u0007link\u001b]8;;\u0007z\u001b[0m',
      `cut at ${cut}`,
    );
    t.equal(a.title ?? b.title, '◐ Claude Code', `title at cut ${cut}`);
  }
});

t.test('an endless unterminated OSC is let through, not held forever', async (t) => {
  const f = createTitleFilter();
  const big = '\u001b]0;' + 'x'.repeat(5000);
  t.equal(f.push(big).output, big);
});

t.test('compose and sequence', async (t) => {
  t.equal(composeTitle('✳ Claude Code', 'flower 1/8'), '✳ Claude Code · flower 1/8');
  t.equal(composeTitle('', 'flower'), 'flower');
  t.equal(titleSequence('a\u0007b'), '\u001b]0;a\\x07b\u0007', 'a control in the title is shown, not obeyed');
  t.equal(titleSequence('p-\u009b31m-\u202ex'), '\u001b]0;p-\\u009b31m-\\u202ex\u0007', 'nor is C1 or a bidi control');
});
