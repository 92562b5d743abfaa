// A writer SIGKILLed between writing its temp and the rename leaves `.<name>.<pid>.<hex>.tmp` beside a
// whole target: the next run removes the temps of dead writers and leaves live writers' alone.
import t from 'tap';
import { writeFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { removeStaleTemps, writeFileAtomic } from '../../src/adapters/atomic-file.js';
import { createManifestWriter } from '../../src/adapters/manifest-store.js';
import { openNotesStore } from '../../src/adapters/notes-store.js';

// A pid that surely belongs to no process now: a child that has already exited.
const deadPid = spawnSync(process.execPath, ['-e', '0']).pid!;

t.test("removeStaleTemps takes only dead writers' temps", async (t) => {
  const dir = t.testdir({ 'manifest.json': '{"whole":true}\n', 'notes.md': 'keep' });
  const stale = `.manifest.json.${deadPid}.0badc0de.tmp`;
  const live = `.manifest.json.${process.pid}.12345678.tmp`;
  writeFileSync(join(dir, stale), '{"half');
  writeFileSync(join(dir, live), '{"writing');
  writeFileSync(join(dir, 'other.tmp'), 'not ours');
  t.same(await removeStaleTemps(dir), [stale]);
  t.same(readdirSync(dir).sort(), [live, 'manifest.json', 'notes.md', 'other.tmp'].sort());
  t.same(await removeStaleTemps(join(dir, 'missing')), [], 'a missing folder is nothing to sweep');
});

t.test('the manifest writer and the notes store sweep before they write', async (t) => {
  const wb = t.testdir({ notes: {} });
  writeFileSync(join(wb, `.manifest.json.${deadPid}.aaaaaaaa.tmp`), '{');
  writeFileSync(join(wb, 'notes', `.交接-work.md.${deadPid}.bbbbbbbb.tmp`), '## Doi');
  const writer = createManifestWriter(wb, (e) => t.fail(String(e)));
  await writer.write({ version: 1 } as never);
  t.same(
    readdirSync(wb).filter((n) => n.endsWith('.tmp')),
    [],
  );
  t.same(JSON.parse(readFileSync(join(wb, 'manifest.json'), 'utf8')), { version: 1 });
  const notes = openNotesStore(wb, 'work');
  t.equal(await notes.read(), null);
  t.same(readdirSync(join(wb, 'notes')), [], 'the half-written document temp is gone');
  await writeFileAtomic(notes.currentPath, 'x');
  t.equal(await notes.read(), 'x');
});

t.test(
  'a write syncs the file before its rename and the folder after it (the rename outlives a machine killed then)',
  async (t) => {
    const dir = t.testdir({});
    const real = await import('node:fs/promises');
    const steps: string[] = [];
    const { writeFileAtomic: write } = await t.mockImport<typeof import('../../src/adapters/atomic-file.js')>(
      '../../src/adapters/atomic-file.js',
      {
        'node:fs/promises': {
          ...real,
          open: async (
            path: string,
            ...rest: Parameters<typeof real.open> extends [unknown, ...infer R] ? R : never
          ) => {
            const handle = await real.open(path, ...rest);
            const what = path === dir ? 'folder' : 'temp';
            const sync = handle.sync.bind(handle);
            handle.sync = async () => {
              steps.push(`sync ${what}`);
              return sync();
            };
            return handle;
          },
          rename: async (from: string, to: string) => {
            steps.push('rename');
            return real.rename(from, to);
          },
        },
      },
    );
    await write(join(dir, 'doc.md'), 'whole');
    t.same(steps, ['sync temp', 'rename', 'sync folder']);
    t.equal(readFileSync(join(dir, 'doc.md'), 'utf8'), 'whole');
  },
);
