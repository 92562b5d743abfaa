// A workbench the run cannot write: a read-only mount, a mode 0555 folder, notes/ that
// cannot be written, a file where a folder should be. Each is one line naming the path and the fix,
// exit 2, before claude is even asked its version. The suite runs as root in CI, where mode bits do not
// stop a write: there a read-only tmpfs mount is the real case, as a person's user meets mode 0555.
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, chmodSync, mkdirSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';

const root = mkdtempSync(join(tmpdir(), 'flower-wbcheck-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const claude = join(root, 'claude');
const ran = join(root, 'claude-ran');
writeFileSync(claude, `#!/bin/sh\necho ran >> ${ran}\nexit 0\n`);
chmodSync(claude, 0o755);
const isRoot = process.getuid?.() === 0;

function flower(args: string[]) {
  const cwd = mkdtempSync(join(root, 'cwd-'));
  const r = spawnSync(process.execPath, [FLOWER_BIN, '--claude', claude, '--plain', ...args, 'go'], {
    cwd,
    encoding: 'utf8',
    input: '',
    timeout: 20_000,
    env: { PATH: '/usr/bin:/bin', HOME: root, XDG_RUNTIME_DIR: root },
  });
  return { code: r.status, err: r.stderr };
}

function refused(t: Test, args: string[], message: RegExp) {
  const r = flower(args);
  t.equal(r.code, 2, `exit 2 (${r.err})`);
  t.match(r.err, message);
  t.equal(r.err.trim().split('\n').length, 1, 'one line');
  t.notMatch(r.err, /internal error|\n\s+at /, 'no stack trace');
  t.notOk(existsSync(ran), 'claude was never run');
}

// A read-only tmpfs at `dir`; false when this process cannot mount (not root, or no mount(8) here).
function readOnlyMount(t: Test, dir: string): boolean {
  mkdirSync(dir, { recursive: true });
  if (!isRoot) return false;
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) return false;
  t.teardown(() => void spawnSync('umount', [dir]));
  return true;
}

t.test('a file where the workbench folder should be (a folder on its way)', async (t) => {
  const file = join(root, 'a-file');
  writeFileSync(file, 'x');
  refused(
    t,
    ['--workbench', join(file, 'wb')],
    /the workbench .*a-file\/wb cannot be used: .*a-file\/wb, or a folder on its way, is a file where a folder should be; move that file away or choose another --workbench DIR/,
  );
});

t.test('notes/ is a file', async (t) => {
  const wb = join(root, 'wb-notes-file');
  mkdirSync(wb);
  writeFileSync(join(wb, 'notes'), 'x');
  refused(t, ['--workbench', wb], /wb-notes-file\/notes, or a folder on its way, is a file where a folder should be/);
});

t.test('a read-only workbench (a read-only mount as root, mode 0555 otherwise)', async (t) => {
  const wb = join(root, 'wb-ro');
  if (readOnlyMount(t, wb)) {
    refused(
      t,
      ['--workbench', wb],
      /the workbench .*wb-ro cannot be used: .*wb-ro is on a read-only file system; choose a writable folder with --workbench DIR, or remount it read-write/,
    );
  } else if (isRoot) {
    t.skip('root here cannot mount a read-only tmpfs (no CAP_SYS_ADMIN), and mode 0555 does not stop root', () => {});
  } else {
    chmodSync(wb, 0o555);
    t.teardown(() => chmodSync(wb, 0o755));
    refused(
      t,
      ['--workbench', wb],
      /wb-ro cannot be written \(permission denied\); fix its permissions \(chmod u\+w .*wb-ro\)/,
    );
  }
});

t.test('notes/ cannot be written while the workbench can', async (t) => {
  const wb = join(root, 'wb-notes-ro');
  const notes = join(wb, 'notes');
  if (readOnlyMount(t, notes)) {
    refused(t, ['--workbench', wb], /wb-notes-ro\/notes is on a read-only file system/);
  } else if (isRoot) {
    t.skip('root here cannot mount a read-only tmpfs (no CAP_SYS_ADMIN), and mode 0555 does not stop root', () => {});
  } else {
    chmodSync(notes, 0o555);
    t.teardown(() => chmodSync(notes, 0o755));
    refused(t, ['--workbench', wb], /wb-notes-ro\/notes cannot be written \(permission denied\)/);
  }
});
