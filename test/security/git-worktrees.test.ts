// The worktrees of the run's repository, read from git's own files: the main worktree and each linked one
// (as `git worktree add` makes them), from the main folder, a subfolder or a linked worktree; none outside a repository.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { worktreesOf } from '../../src/adapters/git-worktrees.js';

t.test("the repository's worktrees, from anywhere in it", async (t) => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'flower-worktrees-')));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const repo = join(root, 'repo');
  mkdirSync(join(repo, 'src'), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { stdio: 'ignore' });
  git('init', '-q');
  git('commit', '-q', '--allow-empty', '-m', 'first');
  git('worktree', 'add', '-q', join(repo, '.claude', 'worktrees', 'a'));
  git('worktree', 'add', '-q', join(root, 'beside'));
  const want = [repo, join(repo, '.claude', 'worktrees', 'a'), join(root, 'beside')].sort();
  t.same(worktreesOf(repo).sort(), want, 'from the main folder');
  t.same(worktreesOf(join(repo, 'src')).sort(), want, 'from a subfolder');
  t.same(worktreesOf(join(root, 'beside')).sort(), want, 'from a linked worktree');
  mkdirSync(join(root, 'plain'));
  t.same(worktreesOf(join(root, 'plain')), [], 'none outside a repository');
});
