// The worktrees of the git repository a folder is in, read from git's own files (no git process: a cloned
// repository's config never runs anything here): the main worktree, and each one `.git/worktrees/*/gitdir`
// names (`git worktree add`, `claude -w`, claude's EnterWorktree). A successor may start in any of them.

import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

const read = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
};

/** the repository's common git folder for `folder` (walking up to its `.git`), or null outside one */
function commonGitDir(folder: string): string | null {
  for (let dir = folder; ; dir = dirname(dir)) {
    const git = join(dir, '.git');
    try {
      if (lstatSync(git).isDirectory()) return git;
      // a worktree's `.git` file: `gitdir: <common>/worktrees/<name>`, whose `commondir` names the common folder
      const gitdir = /^gitdir: (.+)$/m.exec(read(git) ?? '')?.[1];
      if (!gitdir) return null;
      const own = isAbsolute(gitdir) ? gitdir : resolve(dir, gitdir);
      const common = read(join(own, 'commondir'));
      return common ? resolve(own, common) : null;
    } catch {
      // no .git here: one level up
    }
    if (dirname(dir) === dir) return null;
  }
}

export function worktreesOf(folder: string): string[] {
  const common = commonGitDir(folder);
  if (!common) return [];
  const trees = [dirname(common)];
  let names: string[] = [];
  try {
    names = readdirSync(join(common, 'worktrees'));
  } catch {
    // no linked worktree
  }
  for (const name of names) {
    const gitdir = read(join(common, 'worktrees', name, 'gitdir'));
    if (gitdir) trees.push(dirname(gitdir));
  }
  return trees;
}
