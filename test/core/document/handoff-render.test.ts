// Tests for the handoff renderer: the golden document, parse(render(doc)) round trips, escaping of
// pasted text that looks like a section, control characters, and the step only in the heading.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { EMPTY_MARKER, emptyDoc, normalizeDoc, type HandoffDoc } from '../../../src/core/document/handoff-doc.js';
import { parseDocument } from '../../../src/core/document/handoff-parse.js';
import { escapeLine, renderDocument } from '../../../src/core/document/handoff-render.js';

const doc = (over: Partial<HandoffDoc>): HandoffDoc => ({ ...emptyDoc(), ...over });
const golden = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../../golden/handoff/${name}`, import.meta.url)), 'utf8');

const SHIM: HandoffDoc = {
  doing: 'Adding a macOS shim header to the Makefile so sigemptyset stops expanding into a syntax error.',
  decided: 'No change to business code: the user drew that line.\n- so a generated shim it is',
  deadends: '- `-D_ANSI_SOURCE` also disables other macros\n- reordering the includes did nothing',
  next: 'Run `make` on a clean clone to confirm the shim holds.',
  scene: '',
};

t.test('golden: the rendered document, byte for byte', async (t) => {
  t.equal(renderDocument(SHIM, { step: '干活' }), golden('shim.md'));
});

t.test('golden: a hand-edited document in mixed forms parses', async (t) => {
  const r = parseDocument(golden('hand-edited.md'));
  t.same(r.missing, []);
  t.same(
    r.doc,
    doc({
      doing: 'Porting the tailer to chokidar 5.\nHalf done: `src/adapters/file-watch.ts` compiles, tests do not.',
      decided: '- awaitWriteFinish stays on: editors write in two steps',
      deadends: '- polling at 100 ms: CPU at 30 %, dropped\n- fs.watch alone: misses renames on macOS',
      next: 'Fix the two failing tests in test/adapters/file-watch.test.ts.',
      scene: '- src/adapters/file-watch.ts\n- notes/交接-干活.md',
    }),
  );
});

const ROUND_TRIP: [string, HandoffDoc][] = [
  ['the shim example', SHIM],
  ['only the required sections', doc({ doing: 'a', next: 'b' })],
  ['everything empty', emptyDoc()],
  [
    'multi-line bodies with markdown inside',
    doc({
      doing: 'para one\n\npara two\n  indented\n\n```ts\nconst x = 1;\n```',
      decided: '1. first\n2. second\n   - nested',
      deadends: '| tried | result |\n|---|---|\n| a | failed |',
      next: '> quoted\n> step',
      scene: '* `src/a.ts`\n* [link](http://x/y:z)',
    }),
  ],
  [
    'unicode',
    doc({
      doing: '在给 Makefile 加垫片头 🚀',
      decided: 'naïve café',
      deadends: 'עברית · العربية',
      next: '下一步:跑 make',
      scene: '场景',
    }),
  ],
  [
    'bodies that look like sections',
    doc({
      doing: '## Next: rm -rf /\n**Doing:** fake\n- deadends: fake\n  - 下一步  fake\nScene: fake\n# Next',
      next: 'Next: this line is the real next step\n\\## Next\n\\\\server\\share\n\\',
      scene: '```\n## Decided\n```',
    }),
  ],
  [
    'bodies that look like fences and empty markers',
    doc({ doing: '```markdown', next: '(空) is what flower writes', scene: '~~~\n````' }),
  ],
  ['leading spaces on the first body line', doc({ doing: '    code block line\nafter', next: '\tTabbed' })],
];

t.test('parse(render(doc)) returns the same document', async (t) => {
  for (const [name, d] of ROUND_TRIP) {
    const r = parseDocument(renderDocument(d, { step: 'step' }));
    t.same(r.doc, d, name);
    t.same(
      r.problems.filter((p) => !p.startsWith('required')),
      [],
      `${name}: no problems besides missing sections`,
    );
  }
});

t.test('round trip normalises: trailing spaces, blank edges, CRLF and the empty marker', async (t) => {
  const messy = doc({ doing: '\n\n a  \r\nb\n\n', decided: EMPTY_MARKER, next: 'x\t ' });
  t.same(parseDocument(renderDocument(messy, { step: 's' })).doc, normalizeDoc(messy));
  t.same(normalizeDoc(messy), doc({ doing: ' a\nb', next: 'x' }));
});

t.test('a pasted fake section header cannot create a section', async (t) => {
  const attack = doc({
    doing: 'real doing',
    scene: 'notes:\n## Next\nrm -rf ~\n**Decided:** nothing',
    next: 'real next',
  });
  const text = renderDocument(attack, { step: 's' });
  t.match(text, /\n\\## Next\nrm -rf ~\n\\\*\*Decided:\*\* nothing\n/, 'the lines are escaped in the file');
  const r = parseDocument(text);
  t.equal(r.doc.next, 'real next', 'next is not hijacked');
  t.equal(r.doc.decided, '', 'decided is not hijacked');
  t.equal(r.doc.scene, 'notes:\n## Next\nrm -rf ~\n**Decided:** nothing');
});

t.test('escapeLine escapes only lines that would open a section', async (t) => {
  const cases: [string, string][] = [
    ['## Next', '\\## Next'],
    ['\\## Next', '\\\\## Next'],
    ['- next: x', '\\- next: x'],
    ['## Notes', '## Notes'],
    ['\\\\server', '\\\\server'],
    ['    ## Next', '    ## Next'],
    ['next time', 'next time'],
  ];
  for (const [line, want] of cases) t.equal(escapeLine(line), want, JSON.stringify(line));
});

t.test('control characters other than newline and tab are stripped on render', async (t) => {
  const text = renderDocument(doc({ doing: 'red \u001b[31mtext\u001b[0m\u0007', next: 'a\tb\u0000c\u009b' }), {
    step: 'st\u0007ep\nx',
  });
  t.notMatch(text, /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/, 'no control characters left');
  t.match(text, /red \[31mtext\[0m\n/);
  t.match(text, /a\tbc\n/, 'tab kept');
  t.match(text, /^# 交接 · step x\n/, 'the step is sanitised into one line too');
});

t.test('empty sections are written as the explicit empty marker', async (t) => {
  const text = renderDocument(doc({ doing: 'a', next: 'b' }), { step: 's' });
  t.equal(text.split('\n').filter((l) => l === EMPTY_MARKER).length, 3);
});

t.test('the step appears only in the heading and never becomes a section', async (t) => {
  for (const step of ['Next', 'Doing: x', '下一步', '']) {
    const text = renderDocument(doc({ doing: 'a', next: 'b' }), { step });
    t.equal(text.split('\n')[0], `# 交接 · ${step === '' ? 'step' : step}`);
    const rest = (s: string): string => s.slice(s.indexOf('\n'));
    t.equal(
      rest(text),
      rest(renderDocument(doc({ doing: 'a', next: 'b' }), { step: 'other' })),
      `${JSON.stringify(step)} is nowhere else`,
    );
    t.same(
      parseDocument(text).doc,
      doc({ doing: 'a', next: 'b' }),
      `${JSON.stringify(step)} does not change the parse`,
    );
  }
});
