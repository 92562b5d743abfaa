// End to end against the REAL claude: a person edits the frozen document. During the review window
// the successor starts from the edited file (the model's draft is kept, the manifest says what
// changed); after the successor started, the change reaches it as a note at its next boundary.
import t from 'tap';
import { readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { text, usageFor, type MockRequest, type MockReply } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, HANDOFF_ASK, TAKING_OVER } from '../helpers/flower-run.js';

t.test('edits in the review window and after the successor started', async (t) => {
  let firstSession: string | undefined;
  let successorTurns = 0;
  const respond = (req: MockRequest): MockReply => {
    if (!req.isMain) return text('side');
    firstSession ??= req.sessionId;
    if (req.sessionId === firstSession) {
      return HANDOFF_ASK.test(req.lastUserText)
        ? text(handoffDoc('MODEL-DRAFT'), usageFor(56_000))
        : text('worked', usageFor(55_000));
    }
    successorTurns++;
    // The successor's first turn is slow, so the test can edit the file while it runs.
    if (successorTurns === 1)
      return { kind: 'text', text: 'successor working', usage: usageFor(12_000), delayMs: 4_000 };
    return text('noted the edit', usageFor(13_000));
  };
  const f = await startFlower({ t, respond, prompt: 'go', flowerArgs: ['--window', '100k', '--review', '3'] });
  await f.waitForEvent('done', 90_000);
  // An editor that saves by rename, in the review window: it extends the window and wins.
  const draft = readFileSync(f.documentPath, 'utf8');
  const edited = draft.replace(
    /Run the final count and report it \(MODEL-DRAFT\)\./,
    'HUMAN-NEXT: check the totals twice.',
  );
  t.not(edited, draft, 'the edit changes the next step');
  writeFileSync(`${f.documentPath}.swp`, edited);
  renameSync(`${f.documentPath}.swp`, f.documentPath);

  const start2 = await f.waitForEvent('generation-start', 30_000, (e) => e.generation === 2);
  const first2 = await f.api.waitForRequest((r) => r.sessionId === start2.session_id, 60_000);
  t.match(first2.lastUserText, TAKING_OVER);
  t.match(
    first2.lastUserText,
    /HUMAN-NEXT: check the totals twice/,
    'the successor read the file as it is on disk, with the edit',
  );
  t.notMatch(first2.lastUserText, /report it \(MODEL-DRAFT\)/);
  const editEvent = await f.waitForEvent('human-edit', 5_000);
  t.same(editEvent.changed, ['next']);
  t.ok(existsSync(String(editEvent.draft)), 'the model draft is kept beside the archive');
  t.match(readFileSync(String(editEvent.draft), 'utf8'), /report it \(MODEL-DRAFT\)/);
  await f.run.waitFor(() => f.manifest().generations[0]?.human_edit !== null, 5_000, 'manifest lineage of edits');
  t.same(f.manifest().generations[0].human_edit.changed_sections, ['next']);

  // After the successor started: edit in place (truncate and write) while its first turn runs.
  writeFileSync(
    f.documentPath,
    readFileSync(f.documentPath, 'utf8').replace(
      'Use plain bash; no new dependencies.',
      'HUMAN-DECIDED: python is fine too.',
    ),
  );
  await f.waitForEvent('edit-pending', 10_000);
  const noted = await f.api.waitForRequest(
    (r) => r.sessionId === start2.session_id && /A person edited the handoff document/.test(r.lastUserText),
    60_000,
  );
  t.match(noted.lastUserText, /Changed: decided/);
  t.match(noted.lastUserText, /HUMAN-DECIDED/, 'the note carries the diff');
  await f.waitForEvent('edit-sent', 5_000);
});
