// Tests for the handoff document model: the section table, missing/complete, the canonical body,
// the degraded document and the per-section diff used to record human edits.
import t from 'tap';
import {
  DEGRADED_MARKER,
  EMPTY_MARKER,
  SECTIONS,
  complete,
  degradedDocument,
  diffSections,
  emptyDoc,
  isDegraded,
  missing,
  normalizeBody,
  type HandoffDoc,
} from '../../../src/core/document/handoff-doc.js';

const doc = (over: Partial<HandoffDoc>): HandoffDoc => ({ ...emptyDoc(), ...over });

t.test('five sections in order, only doing and next required, labels in three languages', async (t) => {
  t.same(
    SECTIONS.map((s) => s.key),
    ['doing', 'decided', 'deadends', 'next', 'scene'],
  );
  t.same(
    SECTIONS.filter((s) => s.required).map((s) => s.key),
    ['doing', 'next'],
  );
  const chinese = ['现在在做', '已定的事', '走不通的', '下一步', '场景'];
  SECTIONS.forEach((s, i) => {
    t.ok(s.labels.includes(chinese[i] ?? '?'), `${s.key} accepts the seed's label ${chinese[i]}`);
    t.ok(s.labels.includes(s.key === 'deadends' ? 'dead ends' : s.key), `${s.key} accepts its English name`);
    t.not(s.hint, '', `${s.key} has a hint for the request`);
  });
});

t.test('missing() checks only doing and next', async (t) => {
  const cases: [string, Partial<HandoffDoc>, string[]][] = [
    ['all empty', {}, ['doing', 'next']],
    ['only optional sections filled', { decided: 'a', deadends: 'b', scene: 'c' }, ['doing', 'next']],
    ['doing only', { doing: 'x' }, ['next']],
    ['next only', { next: 'y' }, ['doing']],
    ['both required, optional empty', { doing: 'x', next: 'y' }, []],
    ['whitespace is empty', { doing: '  \n\t ', next: 'y' }, ['doing']],
    ['the empty marker is empty', { doing: 'x', next: EMPTY_MARKER }, ['next']],
  ];
  for (const [name, over, want] of cases) {
    t.same(missing(doc(over)), want, name);
    t.equal(complete(doc(over)), want.length === 0, `${name}: complete()`);
  }
});

t.test('normalizeBody is the canonical text of a section', async (t) => {
  const cases: [string, string, string][] = [
    ['trims blank edges and trailing spaces', '\n\n  a  \nb\t\n\n', '  a\nb'],
    ['CRLF becomes LF', 'a\r\nb\rc', 'a\nb\nc'],
    ['control characters are stripped, tab kept', 'a\u0007b\u001b[31mc\td\u0000', 'ab[31mc\td'],
    ['C1 controls stripped', 'a\u0085b\u009bc', 'abc'],
    ['unicode line separators become newlines', 'a\u2028b', 'a\nb'],
    ['the empty marker alone is empty', ` ${EMPTY_MARKER} `, ''],
    ['an English empty alias is empty', '(empty)', ''],
    ['the marker inside text stays', `${EMPTY_MARKER} but not quite`, `${EMPTY_MARKER} but not quite`],
    ['unicode kept', '  naïve 走不通 🚀', '  naïve 走不通 🚀'],
  ];
  for (const [name, input, want] of cases) t.equal(normalizeBody(input), want, name);
});

t.test('degradedDocument carries the marker, the reason and the prompt excerpt', async (t) => {
  const prompt = `Fix the build.\n${'x'.repeat(2_000)}`;
  const d = degradedDocument({ originalPrompt: prompt, reason: 'network error\nECONNRESET' });
  t.equal(d.doing, `${DEGRADED_MARKER} network error ECONNRESET`, 'reason on the marker line, one line');
  t.ok(isDegraded(d));
  t.ok(d.scene.endsWith(prompt.slice(0, 1_200)), 'scene ends with the first 1,200 characters of the prompt');
  t.notOk(d.scene.includes(prompt.slice(0, 1_201)), 'and not one character more');
  t.not(d.next, '', 'a degraded document still tells the successor what to do first');
  t.same(missing(d), [], 'a degraded document is not rejected again for missing sections');
  t.equal(d.decided, '');
  t.equal(d.deadends, '');
});

t.test('degradedDocument keeps what parsed from a partial reply', async (t) => {
  const d = degradedDocument({
    originalPrompt: 'do it',
    reason: 'required section "next" missing',
    partial: { doing: 'wiring the shim', deadends: '-D_ANSI_SOURCE breaks other macros', scene: 'Makefile' },
  });
  t.equal(
    d.doing,
    `${DEGRADED_MARKER} required section "next" missing\n\nwiring the shim`,
    'partial doing after the marker line',
  );
  t.equal(d.deadends, '-D_ANSI_SOURCE breaks other macros');
  t.match(d.scene, /^Makefile\n\nOriginal prompt/, 'partial scene first, then the prompt excerpt');
  t.match(d.scene, /do it$/);
  const withNext = degradedDocument({ originalPrompt: '', reason: '', partial: { next: 'run make' } });
  t.equal(withNext.next, 'run make', 'partial next is kept as is');
  t.equal(withNext.doing, `${DEGRADED_MARKER} unknown reason`);
  t.equal(withNext.scene, '', 'no prompt, no excerpt');
});

t.test('degradedDocument cuts the prompt on characters, not UTF-16 units', async (t) => {
  const d = degradedDocument({ originalPrompt: '🚀'.repeat(1_300), reason: 'r' });
  const excerpt = d.scene.split('\n').pop() ?? '';
  t.equal(Array.from(excerpt).length, 1_200);
  t.notOk(/[\uD800-\uDBFF]$/.test(excerpt), 'no lone surrogate at the cut');
});

t.test('isDegraded looks only at the start of doing', async (t) => {
  t.ok(isDegraded(doc({ doing: `\n${DEGRADED_MARKER} x` })));
  t.notOk(isDegraded(doc({ doing: `see ${DEGRADED_MARKER}` })));
  t.notOk(isDegraded(doc({ scene: DEGRADED_MARKER })));
});

t.test('diffSections names the changed sections and shows the changed lines', async (t) => {
  const a = doc({ doing: 'one\ntwo\nthree', next: 'run make', scene: 'a.ts' });
  const b = doc({ doing: 'one\n2\nthree', next: 'run make', deadends: 'tried X' });
  const { changed, summary } = diffSections(a, b);
  t.same(changed, ['doing', 'deadends', 'scene']);
  t.equal(summary, 'doing:\n- two\n+ 2\ndeadends:\n+ tried X\nscene:\n- a.ts');
  t.same(diffSections(a, a), { changed: [], summary: 'no changes' });
  t.same(
    diffSections(a, { ...a, doing: 'one\ntwo\nthree  \n' }).changed,
    [],
    'normalisation differences are not edits',
  );
});

t.test('diffSections keeps the summary short', async (t) => {
  const many = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n');
  const { summary } = diffSections(doc({}), doc({ scene: many }));
  t.equal(summary.split('\n').length, 1 + 12 + 1, 'header, 12 lines, a count of the rest');
  t.match(summary, /… 28 more changed lines$/);
});
