// `flower-pty completion` prints a completion script for the shell $SHELL names (bash, zsh), and the
// script really completes: bash sources it, the function is called as bash calls it on Tab, and the
// commands and a command's flags come back as a person types them (no `$0`, no hidden command, `-d`).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { tempRoot } from '../helpers/temp-root.js';
import { completionWords } from '../../src/core/options/command-table.js';

const root = tempRoot(t, 'flower-completion-');
const bin = join(root, 'bin');
mkdirSync(bin);
symlinkSync(FLOWER_BIN, join(bin, 'flower-pty'));
const PATH = `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`;

const script = (shell: string) =>
  spawnSync(process.execPath, [FLOWER_BIN, 'completion'], {
    encoding: 'utf8',
    env: { PATH, HOME: root, SHELL: shell },
    cwd: root,
  });

t.test('the scripts: bash and zsh', async (t) => {
  const bash = script('/bin/bash');
  t.equal(bash.status, 0, bash.stderr);
  t.match(bash.stdout, /^complete -o bashdefault -o default -F _flower-pty_yargs_completions flower-pty$/m);
  const zsh = script('/usr/bin/zsh');
  t.equal(zsh.status, 0, zsh.stderr);
  t.match(zsh.stdout, /^#compdef flower-pty$/m);
  t.match(zsh.stdout, /flower-pty --get-yargs-completions/);
  t.same(readdirSync(root), ['bin'], 'nothing written, no session started');
});

t.test("bash: Tab completes the commands and a command's flags", async (t) => {
  const file = join(root, 'flower-pty.bash');
  writeFileSync(file, script('/bin/bash').stdout);
  const complete = (...words: string[]) => {
    const line = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _flower-pty_yargs_completions; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const r = spawnSync('bash', ['-c', line], {
      encoding: 'utf8',
      env: { PATH, HOME: root, SHELL: '/bin/bash' },
      cwd: root,
      timeout: 30_000,
    });
    t.equal(r.status, 0, r.stderr);
    return r.stdout.trim().split('\n');
  };
  t.same(complete('flower-pty', 'st').sort(), ['status'], 'st → status');
  const all = complete('flower-pty', '');
  for (const name of ['attach', 'ls', 'kill', 'web', 'demo', 'report', 'completion']) t.ok(all.includes(name), name);
  t.notOk(all.includes('$0') || all.includes('__serve'), "not the default command's name nor a hidden one");
  t.same(complete('flower-pty', 'web', '--st'), ['--stop']);
  t.ok(complete('flower-pty', 'web', '-').includes('-d'), 'a one-letter alias with one dash');
});

t.test('completionWords: as typed, zsh descriptions kept', async (t) => {
  t.same(completionWords(['$0', 'attach', '__serve', '--d', '--detach', '--d:run in the background', '--json']), [
    'attach',
    '-d',
    '--detach',
    '-d:run in the background',
    '--json',
  ]);
});
