// The document pane's lines: sections highlighted, a missing required section flagged at the top.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { documentLines, previewLines } from '../../../src/core/screen/document-view.js';

const complete = [
  '# 交接 · work',
  '',
  '## Doing · 现在在做',
  'wiring the split view',
  '',
  '## Decided · 已定的事',
  '(空)',
  '',
  '## Next · 下一步',
  'write the tmux tests',
  '',
  '```',
  '## Next inside code',
  '```',
].join('\n');

t.test('a complete document: no flag, sections styled, code and empty markers recognised', async (t) => {
  const lines = documentLines(complete);
  t.notOk(lines.some((l) => l.style === 'flag'));
  t.same(
    lines.filter((l) => l.style === 'section').map((l) => l.text),
    ['## Doing · 现在在做', '## Decided · 已定的事', '## Next · 下一步'],
  );
  t.same(lines.find((l) => l.text === '# 交接 · work')?.style, 'heading');
  t.same(lines.find((l) => l.text === '(空)')?.style, 'empty');
  t.same(lines.find((l) => l.text === '## Next inside code')?.style, 'code', 'a heading inside a fence is code');
  t.same(lines.find((l) => l.text === 'wiring the split view')?.style, 'body');
});

t.test('a missing required section is flagged in the first lines', async (t) => {
  const lines = documentLines('## Doing\nsomething\n\n## Decided\nnothing');
  t.equal(lines[0]?.style, 'flag');
  t.match(lines[0]?.text, /missing required section: Next/);
  t.equal(lines.filter((l) => l.style === 'flag').length, 1);
  const none = documentLines('just some words');
  t.equal(none.filter((l) => l.style === 'flag').length, 2, 'no sections at all: both required ones flagged');
});

t.test('control characters and tabs cannot reach the terminal', async (t) => {
  const lines = documentLines('## Doing\n\u001b[31mred\u0007\tx\r\n## Next\nn');
  t.notOk(
    lines.some((l) => /[\u0000-\u001f]/.test(l.text)),
    JSON.stringify(lines),
  );
  t.ok(lines.some((l) => l.text === '[31mred    x'));
});

t.test('the degraded marker stands out', async (t) => {
  const lines = documentLines('## Doing\n[降级:交接没写成] the session did not write it\n## Next\nn');
  t.equal(lines.find((l) => l.text.includes('降级'))?.style, 'degraded');
});

t.test('a real frozen document from the golden files renders without a flag', async (t) => {
  const text = readFileSync(new URL('../../golden/handoff/hand-edited.md', import.meta.url), 'utf8');
  const lines = documentLines(text);
  t.notOk(lines.some((l) => l.style === 'flag'));
  t.ok(lines.filter((l) => l.style === 'section').length >= 2);
});

t.test('bad input never throws', async (t) => {
  for (const bad of ['', '\n\n\n', '```', '#', '\u0000'.repeat(10), 'x'.repeat(100_000)]) {
    t.doesNotThrow(() => documentLines(bad));
  }
});

t.test("the preview says what will happen, in the run's numbers", async (t) => {
  const base = {
    context: 12_000,
    window: 200_000,
    at: 150_000,
    warnAt: 130_000,
    handoff: true,
    maxGenerations: 8,
    documentPath: '/w/notes/交接-work.md',
  };
  const text = previewLines(base)
    .map((l) => l.text)
    .join('\n');
  t.match(text, /context 12\.0K of 200\.0K/);
  t.match(text, /handoff at 150\.0K/);
  t.match(text, /near at 130\.0K/);
  t.match(text, /\/w\/notes\/交接-work\.md/);
  t.match(text, /At most 8 sessions/);
  t.match(
    previewLines({ ...base, documentPath: null })
      .map((l) => l.text)
      .join('\n'),
    /No workbench/,
  );
  const off = previewLines({ ...base, handoff: false })
    .map((l) => l.text)
    .join('\n');
  t.match(off, /handoff is off/);
  t.notMatch(off, /handoff at/);
});
