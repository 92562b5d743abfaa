// Tests for the handoff parser on what models and people really write: headings, bold labels,
// lists, the seed's indented Chinese list, three languages, fences, chat around it. Fuzz: handoff-fuzz.test.ts.
import t from 'tap';
import { DEGRADED_MARKER, emptyDoc, type HandoffDoc } from '../../../src/core/document/handoff-doc.js';
import { matchLabel, parseDocument, sectionStart } from '../../../src/core/document/handoff-parse.js';

const doc = (over: Partial<HandoffDoc>): HandoffDoc => ({ ...emptyDoc(), ...over });

// [name, input, expected document]
const FORMS: [string, string, Partial<HandoffDoc>][] = [
  ['h2 headings in English', '## Doing\nwiring\n\n## Next\nrun make\n', { doing: 'wiring', next: 'run make' }],
  ['any heading level, trailing colon and closing hashes', '# Doing:\na\n###### Next ##\nb', { doing: 'a', next: 'b' }],
  ['heading with inline text after a colon', '## Doing: a\nmore\n## Next: b', { doing: 'a\nmore', next: 'b' }],
  ['numbered and annotated headings', '## 1. Doing (required)\na\n## 4. Next step\nb', { doing: 'a', next: 'b' }],
  ['bold label with inline text', '**Doing:** a\n**Next**: b', { doing: 'a', next: 'b' }],
  ['bold label alone on its line', '**Doing**\na\nmore\n\n__Next__\nb', { doing: 'a\nmore', next: 'b' }],
  ['list items with colons', '- doing: a\n- decided: c\n- next: b', { doing: 'a', decided: 'c', next: 'b' }],
  ['list items with bold labels', '- **Doing**: a\n* **Next:** b', { doing: 'a', next: 'b' }],
  ['bold list label alone, body below', '- **Doing**\n\nparagraph\n\n- **Next**\nb', { doing: 'paragraph', next: 'b' }],
  [
    'case-insensitive English variants',
    '## CURRENTLY DOING\na\n## What Failed\nf\n## Next Steps\nb\n## Key paths\np',
    { doing: 'a', deadends: 'f', next: 'b', scene: 'p' },
  ],
  [
    'dead ends spellings',
    '## Dead-ends\nx\n## deadends\ny\n## Doing\na\n## Next\nb',
    { deadends: 'x\n\ny', doing: 'a', next: 'b' },
  ],
  [
    'Chinese headings',
    '## 现在在做\n甲\n## 已定的事\n乙\n## 走不通的\n丙\n## 下一步\n丁\n## 场景\n戊',
    { doing: '甲', decided: '乙', deadends: '丙', next: '丁', scene: '戊' },
  ],
  ['Chinese full-width colon', '- 现在在做：甲\n- 下一步：丁', { doing: '甲', next: '丁' }],
  [
    'Spanish labels, accents optional',
    '## Lo que estoy haciendo\na\n## Decidido\nd\n## Lo que no funcionó\nf\n## Próximo paso\nb\n## Contexto\ns',
    { doing: 'a', decided: 'd', deadends: 'f', next: 'b', scene: 's' },
  ],
  [
    'Spanish without accents and other variants',
    '**Haciendo:** a\n**Callejones sin salida:** f\n**Proximo paso:** b\n**Escena:** s',
    { doing: 'a', deadends: 'f', next: 'b', scene: 's' },
  ],
  ['the rendered bilingual titles', '## Doing · 现在在做\na\n## Next · 下一步\nb', { doing: 'a', next: 'b' }],
  [
    'slash-joined labels of one section',
    '## Scene / key paths\ns\n## doing\na\n## next\nb',
    { scene: 's', doing: 'a', next: 'b' },
  ],
  ['plain "Label:" lines', 'Doing: a\nNext: b', { doing: 'a', next: 'b' }],
  [
    'multi-line bodies with lists and code',
    '## Doing\n- one\n- two\n\n```sh\nmake\n```\n## Next\nb',
    { doing: '- one\n- two\n\n```sh\nmake\n```', next: 'b' },
  ],
  [
    'empty marker body is empty',
    '## Doing\na\n## Decided\n(空)\n## Next\nb\n## Scene\n(empty)',
    { doing: 'a', next: 'b' },
  ],
  [
    'text before the document is ignored',
    'Sure! Here is the handoff:\n\n# 交接 · 干活\n\n## Doing\na\n## Next\nb',
    { doing: 'a', next: 'b' },
  ],
  [
    'a fenced document drops the chat after the fence',
    'Here:\n```markdown\n## Doing\na\n```js\nx()\n```\n## Next\nb\n```\nHope this helps!',
    { doing: 'a\n```js\nx()\n```', next: 'b' },
  ],
  [
    'a longer wrapper fence keeps inner fences',
    '````\n## Doing\n```\ncode\n```\n## Next\nb\n````\nbye',
    { doing: '```\ncode\n```', next: 'b' },
  ],
  ['an unclosed wrapper fence runs to the end', '```\n## Doing\na\n## Next\nb', { doing: 'a', next: 'b' }],
  [
    'a closed fence before the document is not a wrapper',
    '```\nx\n```\n## Doing\na\n## Next\nb\n```\nc\n```',
    { doing: 'a', next: 'b\n```\nc\n```' },
  ],
  [
    'unknown headings stay in the body',
    '## Doing\na\n### Sub-notes\nb\n## Appendix\nc\n## Next\nd',
    { doing: 'a\n### Sub-notes\nb\n## Appendix\nc', next: 'd' },
  ],
  ['CRLF input and control characters', '## Doing\r\na\u0007b\r\n## Next\r\nc\r\n', { doing: 'ab', next: 'c' }],
  [
    'body headings indented 4 spaces are code, not sections',
    '## Doing\n    ## Next\n## Next\nb',
    { doing: '    ## Next', next: 'b' },
  ],
  [
    'escaped label lines are unescaped body text',
    '## Doing\n\\## Next: fake\n\\\\## Next\n\\\\server\\share\n## Next\nb',
    { doing: '## Next: fake\n\\## Next\n\\\\server\\share', next: 'b' },
  ],
  [
    'a bullet that merely starts with a label word is body',
    '## Decided\n- next time use X\n- doing it this way because Y\n## Doing\na\n## Next\nb',
    { decided: '- next time use X\n- doing it this way because Y', doing: 'a', next: 'b' },
  ],
];

t.test('accepted forms', async (t) => {
  for (const [name, input, want] of FORMS) t.same(parseDocument(input).doc, doc(want), name);
});

// The seed's own example, copied: an indented list with labels padded by spaces, chat around it.
const SEED = `# 上下文 130.0K/200K · 还有约 20K 到换代

# 上下文 152.0K/200K —— 写交接准备换代
  - 现在在做  在给 Makefile 加 macOS 垫片头,让 sigemptyset 宏不再展开成语法错误。
  - 已定的事  不改业务源码 —— 用户明确说过边界,所以走 Makefile 生成 shim 这条路。
  - 走不通的  -D_ANSI_SOURCE 会把别的宏一起关掉;改 include 顺序无效。
  - 下一步    在干净 clone 上跑一次 make 验证 shim 成立。
<- 交接写在 ~/proj/.flower/notes/交接-干活.md
<- 新会话接手,上下文从 152.0K 重新开始
`;

t.test("the seed's indented Chinese list", async (t) => {
  const r = parseDocument(SEED);
  t.same(
    r.doc,
    doc({
      doing: '在给 Makefile 加 macOS 垫片头,让 sigemptyset 宏不再展开成语法错误。',
      decided: '不改业务源码 —— 用户明确说过边界,所以走 Makefile 生成 shim 这条路。',
      deadends: '-D_ANSI_SOURCE 会把别的宏一起关掉;改 include 顺序无效。',
      next: '在干净 clone 上跑一次 make 验证 shim 成立。',
    }),
  );
  t.same(r.missing, []);
  t.equal(r.degraded, false);
  t.match(
    r.problems,
    [/ignored 2 line\(s\) outside any section, from line 8/],
    'the dedented trailer is reported, not swallowed',
  );
});

t.test('list-item sections: continuation lines, lazy lines and the end of the item', async (t) => {
  const cases: [string, string, Partial<HandoffDoc>, number][] = [
    [
      'indented continuation is dedented',
      '- Doing: a\n  - sub 1\n    - sub 2\n- Next: b',
      { doing: 'a\n- sub 1\n  - sub 2', next: 'b' },
      0,
    ],
    [
      'lazy continuation without a blank line stays',
      '- Doing: a\nstill a\n- Next: b',
      { doing: 'a\nstill a', next: 'b' },
      0,
    ],
    [
      'a blank line then a flush paragraph ends the item',
      '- Doing: a\n- Next: b\n\nLet me know!',
      { doing: 'a', next: 'b' },
      1,
    ],
    [
      'a blank line then an indented paragraph continues',
      '- Doing: a\n\n  more\n- Next: b',
      { doing: 'a\n\nmore', next: 'b' },
      0,
    ],
  ];
  for (const [name, input, want, ignored] of cases) {
    const r = parseDocument(input);
    t.same(r.doc, doc(want), name);
    t.equal(r.problems.filter((p) => p.startsWith('ignored')).length, ignored, `${name}: ignored-lines problem`);
  }
});

t.test('missing sections are named, in words that say how to fix them', async (t) => {
  const r = parseDocument('## Doing\na\n## Decided\nd');
  t.same(r.missing, ['next']);
  t.equal(r.degraded, true);
  t.match(r.problems, [/required section "next" is missing or empty: add a "## Next · 下一步" section/]);
  const empty = parseDocument('## Doing\n(空)\n## Next\n\n');
  t.same(empty.missing, ['doing', 'next'], 'empty marker and blank bodies count as missing');
});

t.test('no sections at all', async (t) => {
  for (const input of ['', 'just some chat', '# 交接 · 干活\n\nnothing here']) {
    const r = parseDocument(input);
    t.same(r.doc, emptyDoc(), JSON.stringify(input));
    t.same(r.missing, ['doing', 'next']);
    t.equal(r.degraded, true);
    t.match(r.problems, [/^no handoff sections found/]);
  }
});

t.test('duplicate sections are joined and reported', async (t) => {
  const r = parseDocument('## Next\nb1\n## Doing\na\n## Next\nb2');
  t.equal(r.doc.next, 'b1\n\nb2');
  t.match(r.problems, [/section "next" appears more than once/]);
  const emptyFirst = parseDocument('## Next\n(空)\n## Doing\na\n## Next\nb');
  t.equal(emptyFirst.doc.next, 'b');
  t.same(emptyFirst.problems, [], 'an empty first copy is not a duplicate worth reporting');
});

t.test('a degraded document read back from disk says so', async (t) => {
  const r = parseDocument(`## Doing\n${DEGRADED_MARKER} network\n## Next\nlook around`);
  t.equal(r.degraded, true);
  t.same(r.missing, []);
  t.match(r.problems, [/degraded marker/]);
});

t.test('parseDocument never throws on non-strings', async (t) => {
  for (const bad of [undefined, null, 42, {}, ['## Doing']]) {
    t.same(parseDocument(bad as unknown as string).doc, emptyDoc(), String(bad));
  }
});

t.test('label matching', async (t) => {
  const cases: [string, string | undefined][] = [
    ['Doing', 'doing'],
    ['**doing**', 'doing'],
    ['🔧 Doing:', 'doing'],
    ['¿Qué se está haciendo?', 'doing'],
    ['Next (tomorrow)', 'next'],
    ['Doing · 现在在做', 'doing'],
    ['Doing / Next', undefined],
    ['交接 · Next', undefined],
    ['Siguiente', 'next'],
    ['Escena', 'scene'],
    ['callejones sin salida', 'deadends'],
    ['LO QUE NO FUNCIONÓ', 'deadends'],
    ['Dead ends', 'deadends'],
    ['已定的事', 'decided'],
    ['next time', undefined],
    ['Context', undefined],
    ['x'.repeat(100), undefined],
    ['', undefined],
    ['/', undefined],
  ];
  for (const [input, want] of cases) t.equal(matchLabel(input), want, JSON.stringify(input));
});

t.test('section starts are decided per line', async (t) => {
  const cases: [string, boolean][] = [
    ['## Next', true],
    ['   ## Next', true],
    ['    ## Next', false],
    ['#Next', false],
    ['####### Next', false],
    ['- Next: x', true],
    ['1) Next: x', true],
    ['- Next', true],
    ['- next step is x', false],
    ['  - 下一步  x', true],
    ['Next', false],
    ['Next: x', true],
    ['\\## Next', false],
    ['**Note**: Next: x', false],
    ['## **Next**', true],
  ];
  for (const [line, want] of cases) t.equal(sectionStart(line) !== undefined, want, JSON.stringify(line));
});

t.test('a very long line is handled in linear time (no regex blow-up)', async (t) => {
  const line = `- ${'a '.repeat(50_000)}: ${'*'.repeat(50_000)}`;
  const r = parseDocument(`## Doing\n${line}\n## Next\nb`);
  t.equal(r.doc.doing, line.trimEnd());
  t.equal(r.doc.next, 'b');
});
