// Whether git would track a new workbench: `.flower/` holds this machine's working files (documents, the
// manifest, the run lock, paths of this machine), which belong in .gitignore. A first run in a git work tree
// that does not ignore it says so once, with the line that adds it; nothing is written for the person.

import { relative } from 'node:path';
import { git, GIT_FACTS_TIMEOUT_MS } from './git-facts.js';

/** true when the (existing) `workbench` folder is inside a git work tree and no ignore rule covers it */
export async function gitWouldTrack(workbench: string, env: Record<string, string | undefined>): Promise<boolean> {
  // asked from inside the folder itself: a workbench outside the project's work tree is its own question
  const inside = await git(['rev-parse', '--is-inside-work-tree'], workbench, env, GIT_FACTS_TIMEOUT_MS);
  if (inside?.trim() !== 'true') return false;
  // check-ignore exits 0 (a string here) when a rule covers the path, 1 (null) when none does
  return (await git(['check-ignore', '-q', '--no-index', '.'], workbench, env, GIT_FACTS_TIMEOUT_MS)) === null;
}

/** the one line for a workbench git would track, with the command that ignores it */
export function gitignoreNote(workbench: string, cwd: string): string {
  const name = relative(cwd, workbench) || '.';
  return (
    `${name}/ is not in .gitignore: it holds this machine's working files ` +
    `(documents, manifest, run lock); to keep them out of git: echo '${name}/' >> .gitignore`
  );
}
