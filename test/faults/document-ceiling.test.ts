// A handoff document edited past its ceiling (a person's editor pasted 100 MB into it): the notes store
// refuses to read it, in one line, and the file stays as the person left it.
import t from 'tap';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DocumentTooLarge,
  HANDOFF_DIR_NAME,
  MAX_DOCUMENT_BYTES,
  openNotesStore,
} from '../../src/adapters/notes-store.js';

t.test('over the ceiling: not read, said in one line, the file kept', async (t) => {
  const workbench = mkdtempSync(join(tmpdir(), 'flower-ceiling-'));
  t.teardown(() => rmSync(workbench, { recursive: true, force: true }));
  mkdirSync(join(workbench, 'notes'));
  const path = join(workbench, 'notes', `${HANDOFF_DIR_NAME}-work.md`);
  const notes = openNotesStore(workbench, 'work');
  writeFileSync(path, '# 交接\n\nfits\n');
  t.equal(await notes.read(), '# 交接\n\nfits\n', 'a document within the ceiling is read');
  writeFileSync(path, 'x'.repeat(MAX_DOCUMENT_BYTES + 1));
  const error = await notes.read().then(
    () => null,
    (e: unknown) => e,
  );
  t.ok(error instanceof DocumentTooLarge, 'refused');
  t.equal(String((error as Error).message).split('\n').length, 1, 'in one line');
  t.match((error as Error).message, /more than the 1 MB a handoff document may be: it was not read/);
  t.equal(statSync(path).size, MAX_DOCUMENT_BYTES + 1, 'the file is kept as it is');
  t.equal(readFileSync(path, 'utf8').length, MAX_DOCUMENT_BYTES + 1);
});
