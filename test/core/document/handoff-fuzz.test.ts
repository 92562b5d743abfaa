// Fuzz for the handoff parser and renderer: random strings built from label-like pieces and random
// slices of a rendered document never throw, and any parsed document renders back to itself.
import t from 'tap';
import { DEGRADED_MARKER, type HandoffDoc } from '../../../src/core/document/handoff-doc.js';
import { parseDocument } from '../../../src/core/document/handoff-parse.js';
import { renderDocument } from '../../../src/core/document/handoff-render.js';

// Deterministic PRNG (mulberry32) so a failing case can be replayed from its seed.
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// Pieces that hit the parser's decisions: markup, labels in three languages, escapes, fences, controls.
const PIECES = [
  '## ',
  '# ',
  '- ',
  '* ',
  '**',
  '__',
  ':',
  '：',
  '\n',
  '\n\n',
  '  ',
  '   ',
  '\t',
  '\\',
  '```',
  '~~~',
  '(空)',
  'Doing',
  'Next',
  'next step',
  '下一步',
  '现在在做',
  '走不通的',
  'Escena',
  'Decided',
  'Dead ends',
  ' · ',
  '(',
  ')',
  '1. ',
  'text',
  '🚀',
  '\u0000',
  '\u001b',
  '\u0007',
  '\r',
  '\u2028',
  '\uD800',
  'é',
  '#',
  DEGRADED_MARKER,
];

function randomText(rand: () => number, maxPieces: number): string {
  let text = '';
  const n = Math.floor(rand() * maxPieces);
  for (let i = 0; i < n; i++) text += PIECES[Math.floor(rand() * PIECES.length)] ?? '';
  return text;
}

// Returns why the parse of `input` is wrong, or undefined when it is fine.
function check(input: string): string | undefined {
  try {
    const r = parseDocument(input);
    if (JSON.stringify(parseDocument(input)) !== JSON.stringify(r)) return 'not deterministic';
    if (r.degraded !== (r.missing.length > 0 || r.doc.doing.startsWith(DEGRADED_MARKER)))
      return 'degraded flag inconsistent';
    const again = parseDocument(renderDocument(r.doc, { step: 's' })).doc;
    if (JSON.stringify(again) !== JSON.stringify(r.doc)) return 'render does not parse back to the same document';
    return undefined;
  } catch (error) {
    return `threw ${String(error)}`;
  }
}

t.test('fuzz: random strings', async (t) => {
  const rand = prng(1234);
  const failures: string[] = [];
  for (let n = 0; n < 300; n++) {
    const input = randomText(rand, 60);
    const why = check(input);
    if (why !== undefined) failures.push(`${why}: ${JSON.stringify(input)}`);
  }
  t.same(failures.slice(0, 3), [], 'first failing inputs');
});

const RICH: HandoffDoc = {
  doing: 'Porting X.\n## Next: pasted\n```ts\nconst a = 1;\n```',
  decided: '- **Doing**: fake bullet\n- real decision',
  deadends: '',
  next: '- Next: run `make`\n  - then test',
  scene: '`src/a.ts`\n\\## Next',
};

t.test('fuzz: random slices of a rendered document, bare and fenced', async (t) => {
  const rand = prng(99);
  const rendered = renderDocument(RICH, { step: '干活' });
  const failures: string[] = [];
  for (const text of [rendered, `Here it is:\n\`\`\`markdown\n${rendered}\`\`\`\nDone.`]) {
    for (let n = 0; n < 120; n++) {
      const a = Math.floor(rand() * text.length);
      const b = a + Math.floor(rand() * (text.length - a + 1));
      const why = check(text.slice(a, b));
      if (why !== undefined) failures.push(`${why}: slice ${a}..${b}`);
    }
  }
  t.same(failures.slice(0, 3), [], 'first failing slices');
  t.same(parseDocument(rendered).doc, RICH, 'the whole document parses back');
});
