// `n` with a worktree named, against real git in a temporary folder (commands/new-worktree.ts): the worktree
// made beside the folder on its new branch; a folder outside any repository, a branch that exists, a folder
// in the way and a bad name each get one line saying so, and nothing is made.
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addWorktree } from '../../src/commands/new-worktree.js';
import { tempRoot } from '../helpers/temp-root.js';

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8' });

function repo(t: Parameters<typeof tempRoot>[0]): { root: string; project: string } {
  const root = realpathSync(tempRoot(t, 'flower-worktree-'));
  const project = join(root, 'api');
  mkdirSync(project);
  git(project, 'init', '-q', '-b', 'main');
  writeFileSync(join(project, 'README'), 'hi\n');
  git(project, 'add', 'README');
  git(project, 'commit', '-q', '-m', 'first');
  return { root, project };
}

t.test('a named worktree is made beside the folder, on a new branch of that name', async (t) => {
  const { root, project } = repo(t);
  const made = await addWorktree(project, 'feat-x', env);
  t.same(made, { folder: join(root, 'api-feat-x') });
  t.ok(existsSync(join(root, 'api-feat-x', 'README')), 'checked out');
  t.equal(git(join(root, 'api-feat-x'), 'branch', '--show-current').trim(), 'feat-x');
  t.match(git(project, 'worktree', 'list'), /api-feat-x +[0-9a-f]+ \[feat-x\]/);
});

t.test('bad input: one line each, nothing made', async (t) => {
  const { root, project } = repo(t);
  git(project, 'branch', 'taken');
  const plain = join(root, 'plain');
  mkdirSync(plain);
  mkdirSync(join(root, 'api-inway'));
  const cases: Array<[string, string, RegExp]> = [
    [project, 'taken', /^a branch taken exists already in .*\/api: name the worktree anew$/],
    [project, 'bad..name', /^worktree name bad\.\.name: letters, digits/],
    [project, 'a/b', /^worktree name a\/b: /],
    [plain, 'feat', /^.*\/plain is not in a git repository: leave the worktree name empty for a run there$/],
    [project, 'inway', /^.*\/api-inway exists already: name the worktree anew$/],
    [join(root, 'nowhere'), 'feat', /^.*\/nowhere does not exist: /],
  ];
  for (const [folder, name, line] of cases) {
    const made = await addWorktree(folder, name, env);
    t.match(made, { problem: line }, `${name} in ${folder}`);
    if ('problem' in made) t.notOk(made.problem.includes('\n'), 'one line');
  }
  t.notOk(existsSync(join(root, 'api-taken')), 'no worktree for a branch that exists');
  t.notOk(existsSync(join(root, 'plain-feat')));
  t.equal(git(project, 'worktree', 'list').trim().split('\n').length, 1, 'the repository has no new worktree');
});
