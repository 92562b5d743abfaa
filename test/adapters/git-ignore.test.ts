// A new workbench that git would track is said once, with the line that ignores it: asked of a real git in
// temp work trees (not ignored, ignored, outside any work tree, a workbench outside the project's tree).
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitignoreNote, gitWouldTrack } from '../../src/adapters/git-ignore.js';

const root = mkdtempSync(join(tmpdir(), 'flower-gitignore-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const env = { PATH: process.env.PATH ?? '', HOME: root, GIT_CONFIG_NOSYSTEM: '1' };

t.test('inside a work tree that does not ignore it: git would track it; ignored: not', async (t) => {
  const project = join(root, 'project');
  mkdirSync(join(project, '.flower'), { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: project, env });
  t.equal(await gitWouldTrack(join(project, '.flower'), env), true);
  writeFileSync(join(project, '.gitignore'), '.flower/\n');
  t.equal(await gitWouldTrack(join(project, '.flower'), env), false, 'a .gitignore line covers it');
});

t.test('outside any work tree, or a workbench outside the project: nothing to say', async (t) => {
  const plain = join(root, 'plain', '.flower');
  mkdirSync(plain, { recursive: true });
  t.equal(await gitWouldTrack(plain, env), false);
});

t.test('the note names the folder relative to where the person is, and the line that ignores it', async (t) => {
  t.equal(
    gitignoreNote('/p/.flower', '/p'),
    ".flower/ is not in .gitignore: it holds this machine's working files (documents, manifest, run lock); to keep them out of git: echo '.flower/' >> .gitignore",
  );
  t.match(gitignoreNote('/p/sub/wb', '/p'), "echo 'sub/wb/' >> .gitignore");
});
