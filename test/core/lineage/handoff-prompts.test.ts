// Tests for the prompts around a handoff: token formatting, the request that makes the session
// write the document, and the successor's first prompt (taking over, path, degraded warning).
import t from 'tap';
import {
  DEGRADED_MARKER,
  EMPTY_MARKER,
  SECTIONS,
  degradedDocument,
  emptyDoc,
  type HandoffDoc,
} from '../../../src/core/document/handoff-doc.js';
import { parseDocument } from '../../../src/core/document/handoff-parse.js';
import { handoffRequest, successorPrompt } from '../../../src/core/lineage/handoff-prompts.js';
import { formatTokens } from '../../../src/core/meter/token-format.js';

const doc = (over: Partial<HandoffDoc>): HandoffDoc => ({ ...emptyDoc(), ...over });

t.test('formatTokens', async (t) => {
  const cases: [number, string][] = [
    [0, '0'],
    [999, '999'],
    [999.6, '1000'],
    [1_000, '1.0K'],
    [34_567, '34.6K'],
    [130_000, '130.0K'],
    [152_049, '152.0K'],
    [200_000, '200.0K'],
    [999_949, '999.9K'],
    [999_950, '1.0M'],
    [1_000_000, '1.0M'],
    [1_250_000, '1.3M'],
    [-5_000, '-5.0K'],
    [Number.NaN, '?'],
    [Number.POSITIVE_INFINITY, '?'],
  ];
  for (const [n, want] of cases) t.equal(formatTokens(n), want, String(n));
});

t.test('handoffRequest carries the numbers and asks for the document now, without tools', async (t) => {
  const text = handoffRequest({ used: 152_000, window: 200_000 });
  t.match(text, /152\.0K of 200\.0K tokens used/);
  t.notMatch(text, /\{\w+\}/, 'no placeholder left unfilled');
  t.match(text, /NOW/);
  t.match(text, /document only/);
  t.match(text, /no tools/);
  t.match(handoffRequest({ used: 950_000, window: 1_000_000 }), /950\.0K of 1\.0M tokens used/);
});

t.test('handoffRequest lists the five rendered headings in order and marks the required ones', async (t) => {
  const text = handoffRequest({ used: 1, window: 2 });
  const positions = SECTIONS.map((s) => text.indexOf(`## ${s.title}\n`));
  t.ok(
    positions.every((p) => p >= 0),
    'every heading is there, exactly as rendered',
  );
  t.same(
    [...positions].sort((a, b) => a - b),
    positions,
    'in the rendered order',
  );
  for (const s of SECTIONS) {
    const line = text.slice(text.indexOf(`## ${s.title}\n`)).split('\n')[1] ?? '';
    t.equal(line.includes('REQUIRED'), s.required, `${s.key}: REQUIRED only on required sections`);
  }
  t.ok(text.includes(EMPTY_MARKER), 'tells how to write an empty section');
});

t.test('handoffRequest spends a full paragraph on dead ends', async (t) => {
  const text = handoffRequest({ used: 1, window: 2 });
  const paragraph = text.split('\n\n').find((p) => p.startsWith('Dead ends')) ?? '';
  t.match(paragraph, /forget what failed/);
  t.match(paragraph, /what exactly you tried/);
  t.match(paragraph, /why/);
  t.ok(paragraph.length > 300, 'a paragraph, not a line');
});

t.test('a reply that follows the request parses completely', async (t) => {
  // What a model answering the request writes: the requested headings, with text under each.
  const reply = SECTIONS.map((s) => `## ${s.title}\n${s.key} text`).join('\n\n');
  t.same(
    parseDocument(reply).doc,
    doc({
      doing: 'doing text',
      decided: 'decided text',
      deadends: 'deadends text',
      next: 'next text',
      scene: 'scene text',
    }),
  );
});

t.test('successorPrompt opens by saying it is taking over and embeds the document', async (t) => {
  const d = doc({ doing: 'wiring the shim', next: 'run make' });
  const text = successorPrompt(d, { degraded: false });
  t.match(text, /^You are TAKING OVER an ongoing task from a previous session/);
  t.match(text, /Do not ask anyone for context/);
  t.notMatch(text, /DEGRADED/);
  t.notMatch(text, /saved at/, 'no path sentence without a path');
  t.same(parseDocument(text).doc, d, 'the document inside parses back unchanged');
  const fenced = doc({ doing: 'a\n````\ncode\n````', next: 'b' });
  const withFences = successorPrompt(fenced, { degraded: false });
  t.match(withFences, /\n`````markdown\n/, 'the wrapping fence is longer than any fence in a body');
  t.same(parseDocument(withFences).doc, fenced, 'and bodies with fences still parse back');
  t.notMatch(text, /交接 ·/, 'no step heading: the step name belongs only to the file');
});

t.test('successorPrompt names the file so the successor can re-read it', async (t) => {
  const text = successorPrompt(doc({ doing: 'a', next: 'b' }), { path: '/w/notes/交接-干活.md', degraded: false });
  t.match(text, /saved at \/w\/notes\/交接-干活\.md\. Re-read that file/);
  t.match(
    successorPrompt(doc({}), { path: '/a\nb\u0007', degraded: false }),
    /saved at \/a b\./,
    'path kept on one clean line',
  );
});

t.test('successorPrompt says plainly when the document is degraded and where to look', async (t) => {
  const d = degradedDocument({ originalPrompt: 'Fix the build', reason: 'prompt is too long' });
  const text = successorPrompt(d, { degraded: true, problems: ['required section "next" is missing or empty'] });
  t.match(text, /DEGRADED and INCOMPLETE/);
  t.match(text, /manifest\.json/);
  t.match(text, /transcript/);
  t.match(text, /Problems found in the document:\n- required section "next" is missing or empty/);
  t.ok(text.indexOf('TAKING OVER') < text.indexOf('DEGRADED'), 'taking over comes first');
  t.match(text, new RegExp(`${DEGRADED_MARKER.replace(/[[\]]/g, '\\$&')} prompt is too long`));
  t.match(text, /Fix the build/, 'the original prompt excerpt reaches the successor');
});

t.test("the amendment request is flower-pty's own prompt, never counted as the person's instruction", async (t) => {
  const { amendmentRequest, isFlowerPrompt } = await import('../../../src/core/lineage/handoff-prompts.js');
  t.ok(isFlowerPrompt(amendmentRequest({ files: ['src/a.ts'] })));
  t.notOk(isFlowerPrompt('never push to main; only open a pull request'));
});
