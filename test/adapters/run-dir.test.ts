// The run folder names its owner, and a run that starts removes only the folders of runs that are gone:
// never one whose owner lives, one with no owner file, one that is not a folder, or a symlink's target.
import t from 'tap';
import { mkdtempSync, mkdirSync, writeFileSync, existsSync, readFileSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRunDir, sweepStaleRunDirs } from '../../src/adapters/run-dir.js';

const DEAD = 999_999_001;
const LIVING = 999_999_002;
const alive = (pid: number): boolean => pid === LIVING;

function owned(root: string, name: string, pid: number | null): string {
  const dir = join(root, `flower-pty-run-${name}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'settings.json'), '{}');
  if (pid !== null) writeFileSync(join(dir, 'owner.pid'), `${pid}\n`);
  return dir;
}

t.test('a new run folder names this process', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'run-dir-test-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const dir = await makeRunDir(root);
  t.match(dir, /flower-pty-run-/);
  t.equal(readFileSync(join(dir, 'owner.pid'), 'utf8').trim(), String(process.pid));
  t.same(await sweepStaleRunDirs(root, () => false), [], "this process's own folder is never swept");
  t.ok(existsSync(dir));
});

t.test('only the folders of runs that are gone are removed', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'run-dir-test-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const dead = owned(root, 'dead', DEAD);
  const living = owned(root, 'living', LIVING);
  const unowned = owned(root, 'unowned', null);
  const garbled = join(root, 'flower-pty-run-garbled');
  mkdirSync(garbled);
  writeFileSync(join(garbled, 'owner.pid'), 'not a pid');
  const other = join(root, 'someone-else-dead');
  mkdirSync(other);
  writeFileSync(join(other, 'owner.pid'), `${DEAD}\n`);
  // a symlink under the run folders' name, to a folder that claims a dead owner: not followed
  const target = mkdtempSync(join(tmpdir(), 'run-dir-target-'));
  t.teardown(() => rmSync(target, { recursive: true, force: true }));
  writeFileSync(join(target, 'owner.pid'), `${DEAD}\n`);
  symlinkSync(target, join(root, 'flower-pty-run-link'));
  writeFileSync(join(root, 'flower-pty-run-file'), `${DEAD}\n`);

  t.same(await sweepStaleRunDirs(root, alive), [dead]);
  t.notOk(existsSync(dead), 'the dead run’s folder is gone');
  t.ok(existsSync(living), 'a living run’s folder stays');
  t.ok(existsSync(unowned), 'a folder with no owner file stays');
  t.ok(existsSync(garbled), 'a folder whose owner file is not a pid stays');
  t.ok(existsSync(other), 'a folder not named as a run’s stays');
  t.ok(existsSync(join(target, 'owner.pid')), 'a symlink’s target is never touched');
  t.ok(existsSync(join(root, 'flower-pty-run-file')), 'a file under the name stays');
});

t.test('a temp folder that cannot be read sweeps nothing and does not throw', async (t) => {
  t.same(await sweepStaleRunDirs(join(tmpdir(), 'no-such-folder-for-run-dir-test'), alive), []);
});
