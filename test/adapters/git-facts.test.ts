// readGitFacts with the real git: HEAD and the changed-file count in a work tree; null outside one, with
// no commit, or without git on the PATH.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGitFacts } from '../../src/adapters/git-facts.js';

function tempDir(tt: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'fpt-git-'));
  tt.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// A repo of its own: no global config, no hooks, a fixed identity.
const env = {
  PATH: process.env.PATH,
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8' }).trim();

t.test('in a work tree: the HEAD commit and every changed, deleted, renamed and untracked file', async (tt) => {
  const dir = tempDir(tt);
  git(dir, 'init', '-q');
  for (const name of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(dir, name), name);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'one');
  const head = git(dir, 'rev-parse', 'HEAD');
  tt.same(await readGitFacts({ cwd: dir, env }), { head, changedFiles: 0 }, 'clean');
  writeFileSync(join(dir, 'a.txt'), 'changed');
  rmSync(join(dir, 'b.txt'));
  git(dir, 'mv', 'c.txt', 'd.txt');
  writeFileSync(join(dir, 'new\nline "name".txt'), 'untracked with a newline in its name');
  mkdirSync(join(dir, 'sub'));
  tt.same(await readGitFacts({ cwd: join(dir, 'sub'), env }), { head, changedFiles: 4 }, 'from a sub-folder too');
});

t.test('null outside a work tree, before the first commit, and without git', async (tt) => {
  const plain = tempDir(tt);
  // GIT_CEILING_DIRECTORIES: the temp dir could sit inside someone's repo; stop the upward search here.
  const outside = { ...env, GIT_CEILING_DIRECTORIES: tmpdir() };
  tt.equal(await readGitFacts({ cwd: plain, env: outside }), null, 'not a repo');
  const fresh = tempDir(tt);
  git(fresh, 'init', '-q');
  tt.equal(await readGitFacts({ cwd: fresh, env }), null, 'no commit yet');
  tt.equal(await readGitFacts({ cwd: plain, env: { PATH: '/nonexistent' } }), null, 'no git on the PATH');
});
