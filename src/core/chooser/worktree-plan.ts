// Where the chooser's new run (`n` with a worktree named) puts its git worktree, and whether the name can be
// one: beside the folder, `<folder>-<name>`, on a new branch `<name>`. The name names a folder and a branch,
// so it is one plain path segment git takes as a branch name too (git check-ref-format's rules that such a
// segment can break). A name that cannot be one gets a line saying what is wrong and what would do. Pure.

import { terminalText } from '../terminal-text.js';

export type WorktreePlan = { tree: string; branch: string } | { problem: string };

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,62}$/;

/** the worktree for `name` beside the absolute folder `folder`, or why not */
export function worktreePlan(folder: string, name: string): WorktreePlan {
  const shown = terminalText(name);
  const rules = 'letters, digits and . _ - (not first), at most 63, no "..", not ending in . or .lock';
  if (!SEGMENT.test(name) || name.includes('..') || name.endsWith('.') || name.endsWith('.lock'))
    return { problem: `worktree name ${shown || '(empty)'}: ${rules} (it names a folder and a branch)` };
  const base = folder.replace(/\/+$/, '');
  if (base === '') return { problem: 'a worktree of / has no folder beside it: choose a project folder' };
  return { tree: `${base}-${name}`, branch: name };
}
