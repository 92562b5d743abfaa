// A second web face of the same user is refused by web/web-dir.ts in one line that names the one running
// and how to stop it with flower-pty's own command (`web --stop`, typed as it works here), not `kill <pid>`.
import t from 'tap';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimWeb, webDirPaths } from '../../src/web/web-dir.js';
import { ownCommandHere } from '../../src/adapters/own-command-here.js';

t.test('a claim held by a live process of ours: refused, pointing at web --login and web --stop', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'flower-web-dir-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const paths = webDirPaths(root);
  // typed as it works from here (a checkout: npx flower-pty), as every next step flower-pty prints
  const own = ownCommandHere(process.env, process.cwd());
  mkdirSync(paths.dir, { mode: 0o700 });
  // the parent (the test runner) is alive and is not this process: a web face that is running
  writeFileSync(
    paths.state,
    JSON.stringify({ pid: process.ppid, url: 'http://127.0.0.1:7000', allowInput: false }) + '\n',
    { mode: 0o600 },
  );
  t.throws(() => claimWeb(paths, { pid: process.pid, url: '', allowInput: false }), {
    message: `a web face of yours is already running (pid ${process.ppid}, http://127.0.0.1:7000); ${own} web --login prints a new login URL for it, ${own} web --stop stops it`,
  });
});
