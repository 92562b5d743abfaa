// The check at the freeze through the real run loop on fake ports: the runtime asks its scorer off the effects'
// queue, the amendment request is typed into claude (its line flower-pty's own), the amended document frozen;
// the events fit their schema (the fake events port checks every line); a run with no scorer freezes unchecked
// and says so.
import t from 'tap';
import { ENTER_AFTER_TYPING_MS } from '../../src/core/run/child-timing.js';
import { startWorld, settle, response, block, started, COMPLETE_DOC } from './fake-ports.js';
import type { CoverageScore } from '../../src/core/coverage/coverage-score.js';

const AMENDED = COMPLETE_DOC.replace('## Scene\n', '## Scene\nsrc/parser.ts\n');
const none = { found: 0, total: 0, missing: [] };
const score = (text: string): CoverageScore => ({
  files: text.includes('parser.ts')
    ? { found: 1, total: 1, missing: [] }
    : { found: 0, total: 1, missing: ['/p/src/parser.ts'] },
  dead_ends: none,
  instructions: none,
  tasks: none,
  identifiers: none,
});

async function crossAndWrite(w: ReturnType<typeof startWorld>): Promise<string> {
  const sid = await started(w);
  await w.hook('UserPromptSubmit', { session_id: sid, prompt: 'more' });
  w.append(sid, [response(155_000, 'crossed')]);
  t.equal(block(await w.hook('Stop', { session_id: sid, last_assistant_message: 'crossed' }))?.decision, 'block');
  w.append(sid, [response(160_000, COMPLETE_DOC)]);
  await w.hook('Stop', { session_id: sid, last_assistant_message: COMPLETE_DOC });
  await settle();
  return sid;
}

t.test('below the share: the amendment is typed, and the amended document is the one frozen', async (t) => {
  const asked: string[] = [];
  const w = startWorld({ coverageCheck: 0.5 }, { coverage: async (_path, text) => (asked.push(text), score(text)) });
  const sid = await crossAndWrite(w);
  await w.clock.advance(ENTER_AFTER_TYPING_MS + 100);
  await settle();
  t.match(
    w.child().written.join(''),
    /flower-pty: your handoff document leaves things out\. Read the file \S+ now/,
    'typed into claude',
  );
  t.same(
    w.events.filter((e) => e.name === 'coverage' || e.name === 'amendment').map((e) => e.name),
    ['coverage', 'amendment'],
  );
  t.notOk(w.documents.get('/p/.flower/notes/doc.md'), 'nothing frozen yet');
  await w.hook('UserPromptSubmit', { session_id: sid, prompt: 'flower-pty: your handoff document leaves things out.' });
  w.append(sid, [response(162_000, AMENDED)]);
  await w.hook('Stop', { session_id: sid, last_assistant_message: AMENDED });
  await settle();
  t.same(asked, [COMPLETE_DOC, AMENDED], 'both documents scored');
  t.match(w.documents.get('/p/.flower/notes/doc.md'), /src\/parser\.ts/, 'the amended document is frozen');
  t.match(w.events.filter((e) => e.name === 'coverage').at(-1)?.fields, { document: 'amended', files_found: 1 });
  t.equal(w.views.at(-1)?.coverage, 'amended, covers files 1/1', 'the review shows its score');
});

t.test('a run with no scorer freezes the document unchecked, and says so', async (t) => {
  const w = startWorld({ coverageCheck: 0.5 });
  await crossAndWrite(w);
  t.match(w.events.find((e) => e.name === 'coverage-skipped')?.fields, {
    reason: 'the document could not be scored: this run has no scorer',
  });
  t.match(w.documents.get('/p/.flower/notes/doc.md'), /building the thing/);
});
