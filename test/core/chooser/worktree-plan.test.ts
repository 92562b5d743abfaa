// Where `n`'s worktree goes and which names can be one (core/chooser/worktree-plan.ts).
import t from 'tap';
import { worktreePlan } from '../../../src/core/chooser/worktree-plan.js';

t.test('beside the folder, on a branch of its name', async (t) => {
  t.same(worktreePlan('/src/api', 'feat-x'), { tree: '/src/api-feat-x', branch: 'feat-x' });
  t.same(worktreePlan('/src/api/', 'v1.2_fix'), { tree: '/src/api-v1.2_fix', branch: 'v1.2_fix' }, 'a trailing /');
});

t.test('a name that cannot name a folder and a branch: one line saying the rules', async (t) => {
  for (const bad of ['', '-x', '.x', 'a/b', 'a b', 'a..b', 'x.', 'x.lock', 'a@{1}', 'x'.repeat(64), 'a\u001b[2Jb']) {
    const plan = worktreePlan('/src/api', bad);
    t.ok('problem' in plan, JSON.stringify(bad));
    if ('problem' in plan) {
      t.match(plan.problem, /^worktree name .*: letters, digits and \. _ - .*\(it names a folder and a branch\)$/);
      t.notOk(plan.problem.includes('\u001b'), 'shown inert');
      t.notOk(plan.problem.includes('\n'));
    }
  }
  t.match(worktreePlan('/', 'x'), { problem: /^a worktree of \/ has no folder beside it/ });
});
