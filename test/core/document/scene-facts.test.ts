// flower-pty's facts block in the Scene: rendered and marked, replacing any older block at freeze, put back
// when a person's edit removed it, never duplicated, and it survives the document's render and parse.
import t from 'tap';
import {
  FACTS_HEADING,
  renderSceneFacts,
  restoreSceneFacts,
  sceneFactsBlock,
  withSceneFacts,
} from '../../../src/core/document/scene-facts.js';
import type { SceneFacts } from '../../../src/core/document/scene-facts.js';
import { documentToFreeze, seedSuccessor } from '../../../src/core/lineage/handoff-lineage.js';
import { parseDocument } from '../../../src/core/document/handoff-parse.js';

const HEAD = '0123456789abcdef0123456789abcdef01234567';
const FACTS: SceneFacts = {
  transcriptPath: '/home/me/.claude/projects/-home-me-proj/s1.jsonl',
  git: { head: HEAD, changedFiles: 3 },
};
const GOOD = '## Doing\nporting the tailer\n## Next\nrun the tests\n## Scene\nsrc/tail.ts\n';

t.test("the block: marked as flower-pty's, one line a fact, nothing when nothing is known", async (tt) => {
  tt.equal(
    renderSceneFacts(FACTS),
    `${FACTS_HEADING}\n- previous session's transcript (search it for what this document left out): /home/me/.claude/projects/-home-me-proj/s1.jsonl\n- git HEAD ${HEAD}, 3 files changed and not committed when the document was frozen`,
  );
  tt.match(renderSceneFacts({ transcriptPath: null, git: { head: HEAD, changedFiles: 1 } }), /, 1 file changed/);
  tt.notMatch(renderSceneFacts({ transcriptPath: '/t.jsonl', git: null }), /git/, 'outside a work tree: no git line');
  tt.equal(renderSceneFacts({ transcriptPath: null, git: null }), '');
  tt.equal(
    renderSceneFacts({ transcriptPath: '/a\nb\u001b[2J.jsonl', git: null }).split('\n').length,
    2,
    'a hostile path stays on its line',
  );
});

t.test('at freeze the block ends the Scene, and an older or forged block is replaced', async (tt) => {
  tt.equal(withSceneFacts('src/tail.ts', FACTS), `src/tail.ts\n\n${renderSceneFacts(FACTS)}`);
  tt.equal(withSceneFacts('', FACTS), renderSceneFacts(FACTS), 'an empty Scene gets just the block');
  const copiedForward = `src/a.ts\n\n${FACTS_HEADING}\n- previous session's transcript: /old.jsonl\n\nmore notes`;
  const fresh = withSceneFacts(copiedForward, FACTS);
  tt.equal(fresh, `src/a.ts\n\nmore notes\n\n${renderSceneFacts(FACTS)}`);
  tt.equal(fresh.split(FACTS_HEADING).length, 2, 'exactly one block');
  tt.notMatch(fresh, /old\.jsonl/);
  tt.equal(withSceneFacts('notes', { transcriptPath: null, git: null }), 'notes', 'nothing known: nothing added');
});

t.test('at seeding: put back if removed, kept as edited if present, never twice', async (tt) => {
  const frozenScene = withSceneFacts('src/tail.ts', FACTS);
  const removed = restoreSceneFacts('src/tail.ts\nsrc/new.ts', frozenScene);
  tt.same(removed, { scene: `src/tail.ts\nsrc/new.ts\n\n${renderSceneFacts(FACTS)}`, restored: true });
  const kept = restoreSceneFacts(frozenScene, frozenScene);
  tt.same(kept, { scene: frozenScene, restored: false });
  const edited = frozenScene.replace('3 files', 'three files');
  tt.same(
    restoreSceneFacts(edited, frozenScene),
    { scene: edited, restored: false },
    "a person's edit inside the block is theirs",
  );
  tt.same(restoreSceneFacts('', frozenScene), { scene: renderSceneFacts(FACTS), restored: true }, 'an emptied Scene');
  tt.same(restoreSceneFacts('x', 'no block'), { scene: 'x', restored: false }, 'nothing to restore');
  tt.equal(sceneFactsBlock('nothing here'), null);
});

t.test(
  "through the lineage: frozen with the facts, survives render and parse, restored into the successor's prompt",
  async (tt) => {
    const frozen = documentToFreeze({
      text: GOOD,
      degraded: false,
      seededText: null,
      originalPrompt: 'P',
      step: 'work',
      facts: FACTS,
    });
    tt.match(frozen.text, /## Scene · 场景\n\nsrc\/tail\.ts\n\n\[flower-pty facts/);
    tt.equal(parseDocument(frozen.text).doc.scene, frozen.doc.scene, 'the block parses back unchanged');
    const degraded = documentToFreeze({
      text: null,
      degraded: true,
      reason: 'timeout',
      seededText: null,
      originalPrompt: 'P',
      step: 'work',
      facts: FACTS,
    });
    tt.match(degraded.doc.scene, /Original prompt[\s\S]*\[flower-pty facts/, 'a degraded document gets them too');

    const untouched = seedSuccessor({
      onDisk: frozen.text,
      kept: frozen.text,
      frozen,
      path: '/wb/x.md',
      originalPrompt: 'P',
      step: 'work',
    });
    tt.equal(untouched.factsRestored, false);
    tt.equal(untouched.prompt.split(FACTS_HEADING).length, 2, 'the block once in the prompt');

    const block = sceneFactsBlock(frozen.doc.scene) ?? '';
    const cut = frozen.text.replace(`\n\n${block}`, '');
    tt.notMatch(cut, /flower-pty facts/, 'the person deleted the block');
    const seed = seedSuccessor({
      onDisk: cut,
      kept: frozen.text,
      frozen,
      path: '/wb/x.md',
      originalPrompt: 'P',
      step: 'work',
    });
    tt.equal(seed.factsRestored, true);
    tt.equal(seed.prompt.split(FACTS_HEADING).length, 2, 'back in the prompt, once');
    tt.match(seed.prompt, /s1\.jsonl/);
    tt.same(seed.humanEdit, { changed: ['scene'] }, "the removal is still recorded as the person's edit");
    tt.equal(seed.seededText, cut, 'the seeded text is the file as the person left it');

    const older = documentToFreeze({
      text: GOOD,
      degraded: false,
      seededText: null,
      originalPrompt: 'P',
      step: 'work',
    });
    tt.notMatch(older.text, /flower-pty facts/, 'without facts the document is as before');
  },
);
