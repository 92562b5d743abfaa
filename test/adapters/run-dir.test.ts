// The run folder names its owner, and a run that starts removes only the folders of runs that are gone:
// never one whose owner lives, one with no owner file, one that is not a folder, or a symlink's target;
// the hook channel's folders (fp-*) as well, and only the person's own.
import t from 'tap';
import {
  chownSync,
  mkdtempSync,
  mkdirSync,
  writeFileSync,
  existsSync,
  readFileSync,
  symlinkSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeRunDir, sweepStaleRunDirs } from '../../src/adapters/run-dir.js';
import { openHookChannel } from '../../src/adapters/hook-channel.js';

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

t.test("a hook channel's folder names its owner, and is swept once its run is gone", async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'run-dir-test-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const channel = await openHookChannel({ handler: () => '', dir: root });
  t.teardown(() => channel.close());
  t.match(channel.dir, /\/fp-[^/]+$/);
  t.equal(
    readFileSync(join(channel.dir, 'owner.pid'), 'utf8').trim(),
    String(process.pid),
    'the folder names this process',
  );
  t.same(await sweepStaleRunDirs(root, () => false), [], "a living run's hook folder is never swept");
  // what a run server killed with SIGKILL leaves: its hook folder, socket and all, naming a pid that is gone
  const dead = join(root, 'fp-deadrun');
  mkdirSync(dead, { mode: 0o700 });
  writeFileSync(join(dead, 'owner.pid'), `${DEAD}\n`);
  writeFileSync(join(dead, 'h.sock'), '');
  const living = join(root, 'fp-living');
  mkdirSync(living, { mode: 0o700 });
  writeFileSync(join(living, 'owner.pid'), `${LIVING}\n`);
  t.same(await sweepStaleRunDirs(root, alive), [dead]);
  t.notOk(existsSync(dead), "the dead run's hook folder is gone");
  t.ok(existsSync(living), "a living run's hook folder stays");
  t.ok(existsSync(channel.dir), "this run's own hook folder stays");
});

t.test(
  "another user's hook folder is never swept, though its run is dead",
  { skip: process.getuid?.() !== 0 ? 'needs root to give a folder to another user (CI runs as root)' : false },
  async (t) => {
    const root = mkdtempSync(join(tmpdir(), 'run-dir-test-'));
    t.teardown(() => rmSync(root, { recursive: true, force: true }));
    const theirs = join(root, 'fp-theirs');
    mkdirSync(theirs, { mode: 0o700 });
    writeFileSync(join(theirs, 'owner.pid'), `${DEAD}\n`);
    chownSync(theirs, 65534, 65534);
    t.same(await sweepStaleRunDirs(root, alive), []);
    t.ok(existsSync(theirs));
  },
);
