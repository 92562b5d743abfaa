// What git says for certain about the project when a document is frozen: the HEAD commit and how many
// files differ from it (core/document/scene-facts.ts puts them in the Scene). Never throws and never waits long:
// outside a work tree, without git, with no commit yet or past the time limit the answer is null.

import { execFile } from 'node:child_process';
import type { GitFacts } from '../core/document/scene-facts.js';

export const GIT_FACTS_TIMEOUT_MS = 5_000;

/** git's stdout, or null for any failure (not a work tree, no git, a non-zero exit, too slow) */
export function git(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<string | null> {
  return new Promise((resolve) => {
    // GIT_OPTIONAL_LOCKS=0: `git status` would otherwise refresh the index under index.lock and could make a
    // git command of claude's (or the person's) fail at that moment. LC_ALL=C keeps the output unlocalised.
    execFile(
      'git',
      args,
      {
        cwd,
        env: { ...env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 32 * 1024 * 1024,
        windowsHide: true,
      },
      (error, stdout) => resolve(error ? null : stdout),
    );
  });
}

export async function readGitFacts(opts: {
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs?: number;
}): Promise<GitFacts | null> {
  const timeoutMs = opts.timeoutMs ?? GIT_FACTS_TIMEOUT_MS;
  const [head, status] = await Promise.all([
    git(['rev-parse', '--verify', '--quiet', 'HEAD'], opts.cwd, opts.env, timeoutMs),
    // One line an entry without -z (a rename is one "R  old -> new" line; odd names are quoted, not split).
    git(['status', '--porcelain'], opts.cwd, opts.env, timeoutMs),
  ]);
  const commit = head?.trim() ?? '';
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(commit) || status === null) return null;
  return { head: commit, changedFiles: status.split('\n').filter((line) => line !== '').length };
}
