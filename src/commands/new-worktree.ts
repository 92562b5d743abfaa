// The chooser's new run in a new git worktree (`n`, a worktree named): `git worktree add -b NAME` beside the
// folder (core/chooser/worktree-plan.ts says where and which names can be). What git would refuse is asked
// first, so the person reads one line that says what to do: a folder outside any repository, a branch of
// that name, a folder already there. Anything else git refuses is its own last line.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { worktreePlan } from '../core/chooser/worktree-plan.js';
import { terminalText } from '../core/terminal-text.js';

function git(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile('git', args, { cwd, env, timeout: 60_000 }, (error, _stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }),
    );
  });
}

/** makes the worktree `name` of the absolute `folder`: the folder the run starts in, or the line saying why not */
export async function addWorktree(
  folder: string,
  name: string,
  env: NodeJS.ProcessEnv,
): Promise<{ folder: string } | { problem: string }> {
  const plan = worktreePlan(folder, name);
  if ('problem' in plan) return plan;
  const shown = terminalText(folder);
  if (!existsSync(folder)) return { problem: `${shown} does not exist: a worktree is made of an existing folder` };
  if ((await git(['rev-parse', '--show-toplevel'], folder, env)).code !== 0)
    return { problem: `${shown} is not in a git repository: leave the worktree name empty for a run there` };
  if ((await git(['show-ref', '--verify', '--quiet', `refs/heads/${plan.branch}`], folder, env)).code === 0)
    return { problem: `a branch ${terminalText(plan.branch)} exists already in ${shown}: name the worktree anew` };
  if (existsSync(plan.tree)) return { problem: `${terminalText(plan.tree)} exists already: name the worktree anew` };
  const made = await git(['worktree', 'add', '-b', plan.branch, plan.tree], folder, env);
  if (made.code !== 0)
    return {
      problem: `git worktree add ${terminalText(plan.tree)} failed: ${terminalText(made.stderr.trim().split('\n').at(-1) ?? '')}`,
    };
  return { folder: plan.tree };
}
