// The document decisions around a handoff: what is frozen, what the successor is seeded with,
// and the note a running successor gets after a person's edit.
import t from 'tap';
import { documentToFreeze, seedSuccessor, editNote } from '../../../src/core/lineage/handoff-lineage.js';
import { DEGRADED_MARKER } from '../../../src/core/document/handoff-doc.js';

const GOOD = '## Doing\nporting the tailer\n## Decided\nchokidar 5\n## Next\nrun the tests\n';

t.test('documentToFreeze: the model text, a degraded one, or the seed after a crash', async (t) => {
  const good = documentToFreeze({
    text: `chat first\n${GOOD}`,
    degraded: false,
    seededText: null,
    originalPrompt: 'P',
    step: 'work',
  });
  t.match(good.text, /^# 交接 · work/);
  t.equal(good.doc.doing, 'porting the tailer');
  t.notMatch(good.text, /chat first/);
  const garbage = documentToFreeze({
    text: 'no sections',
    degraded: true,
    reason: 'missing doing',
    seededText: null,
    originalPrompt: 'ORIGINAL',
    step: 'work',
  });
  t.ok(garbage.doc.doing.includes(DEGRADED_MARKER));
  t.match(garbage.doc.scene, /ORIGINAL/);
  const crash = documentToFreeze({
    text: null,
    degraded: true,
    reason: 'claude exited',
    seededText: GOOD,
    originalPrompt: 'P',
    step: 'work',
  });
  t.match(crash.doc.next, /run the tests/, 'a successor that died at once keeps the document it started from');
  const none = documentToFreeze({ text: null, degraded: false, seededText: null, originalPrompt: 'P', step: 'work' });
  t.ok(none.doc.doing.includes(DEGRADED_MARKER), 'no text at all is never an empty document');
});

t.test('seedSuccessor: the file on disk wins; the kept copy when it is gone; never empty', async (t) => {
  const frozen = documentToFreeze({ text: GOOD, degraded: false, seededText: null, originalPrompt: 'P', step: 'work' });
  const edited = frozen.text.replace('run the tests', 'HUMAN: run the tests twice');
  const seed = seedSuccessor({
    onDisk: edited,
    kept: frozen.text,
    frozen,
    path: '/wb/notes/交接-work.md',
    originalPrompt: 'P',
    step: 'work',
  });
  t.match(seed.prompt, /You are TAKING OVER/);
  t.match(seed.prompt, /HUMAN: run the tests twice/);
  t.match(seed.prompt, /\/wb\/notes\/交接-work\.md/);
  t.same(seed.humanEdit, { changed: ['next'] });
  t.equal(seed.seededText, edited);
  const untouched = seedSuccessor({
    onDisk: frozen.text,
    kept: frozen.text,
    frozen,
    path: '/wb/x.md',
    originalPrompt: 'P',
    step: 'work',
  });
  t.equal(untouched.humanEdit, null);
  const gone = seedSuccessor({
    onDisk: null,
    kept: frozen.text,
    frozen,
    path: '/wb/x.md',
    originalPrompt: 'P',
    step: 'work',
  });
  t.match(gone.prompt, /was missing at spawn time; this is the copy flower-pty kept/);
  t.match(gone.prompt, /run the tests/);
  const nothing = seedSuccessor({
    onDisk: null,
    kept: null,
    frozen: null,
    path: null,
    originalPrompt: 'THE TASK',
    step: 'work',
  });
  t.match(nothing.prompt, /THE TASK/);
  t.match(nothing.prompt, /DEGRADED/);
  const broken = seedSuccessor({
    onDisk: '## Doing\nsomething\n',
    kept: null,
    frozen: null,
    path: null,
    originalPrompt: 'P',
    step: 'work',
  });
  t.same(broken.missing, ['next'], 'a person who deleted a required section is reported');
});

t.test('editNote: the changed sections and the diff, or nothing', async (t) => {
  const note = editNote('/wb/d.md', GOOD, GOOD.replace('chokidar 5', 'chokidar 4 after all'));
  t.same(note?.changed, ['decided']);
  t.match(note?.note, /A person edited the handoff document you started from \(\/wb\/d\.md\)\. Changed: decided/);
  t.match(note?.note, /chokidar 4 after all/);
  t.equal(editNote('/wb/d.md', GOOD, `${GOOD}\n`), null, 'whitespace only: no note');
});
