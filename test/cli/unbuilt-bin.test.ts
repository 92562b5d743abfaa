// A checkout after `npm ci` alone has no dist/: the bin says in one line what to run instead of
// crashing with ERR_MODULE_NOT_FOUND. Checked on a copy of the bin in a folder with no dist/ beside it.
import t from 'tap';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { FLOWER_BIN } from '../helpers/flower-run.js';

t.test('no dist/: one line naming npm run build, exit 1, no stack', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'flower-unbuilt-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'bin'));
  copyFileSync(FLOWER_BIN, join(root, 'bin', 'flower-pty.js'));
  const r = spawnSync(process.execPath, [join(root, 'bin', 'flower-pty.js'), '--help'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.equal(r.status, 1);
  t.equal(r.stderr, 'flower-pty: not built yet: run `npm run build` in the flower-pty checkout first\n');
  t.notMatch(r.stderr, /ERR_MODULE_NOT_FOUND|\n\s+at /);
});
