// A typo starts nothing, through the real bin: a lone word near a subcommand is refused with the command it
// is near (exit 2), no claude is started (a stand-in claude on the PATH would leave a mark) and no .flower/
// is written; an unknown flag names the nearest flag once. A one-word prompt after -- is the prompt.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { runCommandOptions } from '../../src/commands/run-options.js';
import { ownCommandHere } from '../../src/adapters/own-command-here.js';

const root = mkdtempSync(join(tmpdir(), 'flower-typos-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

// a claude that leaves a mark if anything starts it
const bin = join(root, 'bin');
mkdirSync(bin);
const mark = join(root, 'claude-ran');
writeFileSync(join(bin, 'claude'), `#!/bin/sh\necho "$@" >> '${mark}'\nexit 0\n`);
chmodSync(join(bin, 'claude'), 0o755);

// flower-pty as typed in those folders (not on that PATH, outside the checkout): every line names it so
const OWN = ownCommandHere({ PATH: `${bin}:/usr/bin:/bin` }, root);

function flower(args: string[]) {
  const cwd = mkdtempSync(join(root, 'cwd-'));
  const runtime = mkdtempSync(join(root, 'run-'));
  const r = spawnSync(process.execPath, [FLOWER_BIN, ...args], {
    encoding: 'utf8',
    cwd,
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: root, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: join(root, 'config') },
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, cwd, runtime };
}

t.test('a lone word near a subcommand: refused, nothing started or written', async (t) => {
  for (const [typed, meant] of [
    ['stauts', 'status'],
    ['repot', 'report'],
    ['atach', 'attach'],
    ['lss', 'ls'],
    ['Status', 'status'],
  ]) {
    const r = flower([typed!]);
    t.equal(r.code, 2, `${typed}: exit 2`);
    t.equal(
      r.err,
      `flower-pty: "${typed}" is not a command: did you mean \`${OWN} ${meant}\`? (a one-word prompt goes after --: ${OWN} -- ${typed}, or in quotes with a space)\n`,
      `${typed}: one line`,
    );
    t.equal(r.out, '');
    t.same(readdirSync(r.cwd), [], `${typed}: no .flower/ nor anything else in the folder`);
    t.same(readdirSync(r.runtime), [], `${typed}: no run server's socket folder`);
  }
  t.notOk(existsSync(mark), 'claude was never started');
});

t.test('the typo is the news even with a flag after it', async (t) => {
  const r = flower(['stauts', '--json']);
  t.equal(r.code, 2);
  t.ok(r.err.startsWith(`flower-pty: "stauts" is not a command: did you mean \`${OWN} status\`?`), r.err);
  t.notOk(existsSync(mark));
});

t.test('an unknown flag: once, as typed, with the nearest flag of its command', async (t) => {
  const cases: Array<[string[], string]> = [
    [['--revew', '3', 'a task'], `flower-pty: unknown flag --revew (did you mean --review?) (see ${OWN} --help)\n`],
    [
      ['web', '--alow-input'],
      `flower-pty: unknown flag --alow-input (did you mean --allow-input?) for flower-pty web (see ${OWN} web --help)\n`,
    ],
    [
      ['status', '--jsn'],
      `flower-pty: unknown flag --jsn (did you mean --json?) for flower-pty status (see ${OWN} status --help)\n`,
    ],
    [['--no-notfy'], `flower-pty: unknown flag --no-notfy (did you mean --no-notify?) (see ${OWN} --help)\n`],
    [['--foo-bar'], `flower-pty: unknown flag --foo-bar (see ${OWN} --help)\n`],
  ];
  for (const [args, line] of cases) {
    const r = flower(args);
    t.equal(r.code, 2, args.join(' '));
    t.equal(r.err, line, args.join(' '));
    t.notMatch(r.err, /[a-z][A-Z]/, 'no camelCase twin');
  }
  t.notOk(existsSync(mark), 'claude was never started');
});

t.test("a one-word prompt that is meant: after --, it is the prompt, not claude's", async (t) => {
  const after = runCommandOptions({ '--': ['stauts'] }, {}, {});
  t.equal(after.prompt, 'stauts');
  t.same(after.claudeArgs, []);
  const withFlags = runCommandOptions({ '--': ['stauts', '--model', 'opus'] }, {}, {});
  t.same([withFlags.prompt, withFlags.claudeArgs], ['stauts', ['--model', 'opus']]);
  const flagsFirst = runCommandOptions({ '--': ['--model', 'opus'] }, {}, {});
  t.same(
    [flagsFirst.prompt, flagsFirst.claudeArgs],
    [null, ['--model', 'opus']],
    "flags after -- are claude's, as before",
  );
  const both = runCommandOptions({ prompt: 'a task', '--': ['word'] }, {}, {});
  t.same([both.prompt, both.claudeArgs], ['a task', ['word']], "a prompt before --: the rest is claude's untouched");
});

t.test(
  'a lone word a person types for a command: refused with the command it stands for, nothing started or written',
  async (t) => {
    const cases: Array<[string, string]> = [
      ['list', `${OWN} ls`],
      ['stop', `${OWN} kill`],
      ['start', `${OWN} "your task"`],
      ['logs', `${OWN} status`],
      ['version', `${OWN} --version`],
      ['uninstall', 'npm uninstall -g flower-pty'],
      ['Resume', `${OWN} --continue`],
      ['dashboard', `${OWN} web`],
    ];
    for (const [typed, meant] of cases) {
      const r = flower([typed]);
      t.equal(r.code, 2, `${typed}: exit 2, a usage error`);
      t.equal(
        r.err,
        `flower-pty: "${typed}" is not a command: did you mean \`${meant}\`? (a one-word prompt goes after --: ${OWN} -- ${typed}, or in quotes with a space)\n`,
        `${typed}: one line`,
      );
      t.equal(r.out, '');
      t.same(readdirSync(r.cwd), [], `${typed}: nothing written in the folder`);
      t.same(readdirSync(r.runtime), [], `${typed}: no run server`);
    }
    const withFlag = flower(['list', '--json']);
    t.equal(withFlag.code, 2);
    t.ok(
      withFlag.err.startsWith(`flower-pty: "list" is not a command: did you mean \`${OWN} ls\`?`),
      'with a flag after it too',
    );
    const help = flower(['help']);
    t.equal(help.code, 0, '`help` is the help');
    t.match(help.out, /^flower-pty \[options\] \[prompt\]/);
    t.notOk(existsSync(mark), 'claude was never started');
  },
);

t.test('the words as prompts: not refused when they are more than a word', async (t) => {
  const { commandTypo } = await import('../../src/core/options/command-line-typos.js');
  t.equal(commandTypo('list the files', 'flower-pty'), null);
  t.equal(commandTypo('refactor', 'flower-pty'), null, 'a one-word prompt that is no command word goes through');
  t.match(commandTypo('LIST', 'flower-pty'), /`flower-pty ls`/, 'case aside');
});
