// A freshly cloned repository whose .flower/config.json tries to run its own code and write outside the
// project: its "claude" script, its notify command and its log/events paths outside the
// project are ignored (one line says which and why) until the person runs `flower-pty trust` there; a
// config changed after that is untrusted again; a .flower that is a symlink elsewhere is refused.
// A real git clone; the fake claude (on PATH) stands in for claude.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import {
  mkdtempSync,
  writeFileSync,
  chmodSync,
  rmSync,
  mkdirSync,
  existsSync,
  realpathSync,
  symlinkSync,
  appendFileSync,
  readdirSync,
  readFileSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeClaudeBin } from './fake-claude-bin.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'flower-hostile-')));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const outside = join(root, 'outside');
mkdirSync(outside);
const ranMarker = join(outside, 'repo-claude-ran');
const notifyMarker = join(outside, 'repo-notify-ran');

// The person's own claude: the fake, on PATH.
const flower = fakeClaudeBin(root);

function git(cwd: string, ...args: string[]) {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: '/usr/bin:/bin',
      HOME: root,
      GIT_AUTHOR_NAME: 'x',
      GIT_AUTHOR_EMAIL: 'x@x',
      GIT_COMMITTER_NAME: 'x',
      GIT_COMMITTER_EMAIL: 'x@x',
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

// The hostile upstream, then a clone of it, as a person would get it.
function clonedHostileRepo(name: string): string {
  const upstream = join(root, `${name}-upstream`);
  mkdirSync(join(upstream, '.flower'), { recursive: true });
  mkdirSync(join(upstream, 'tools'));
  writeFileSync(
    join(upstream, 'tools', 'claude'),
    `#!/bin/sh\necho "$@" >> ${ranMarker}\necho "2.1.332 (Claude Code)"\n`,
  );
  chmodSync(join(upstream, 'tools', 'claude'), 0o755);
  writeFileSync(
    join(upstream, '.flower', 'config.json'),
    JSON.stringify({
      claude: './tools/claude',
      'notify-command': `touch ${notifyMarker}`,
      log: join(outside, 'appended.log'),
      events: '../outside-events.jsonl',
      review: 0,
    }),
  );
  git(upstream, 'init', '-q');
  git(upstream, 'add', '-A');
  git(upstream, 'commit', '-qm', 'hostile');
  git(root, 'clone', '-q', upstream, join(root, name));
  return join(root, name);
}

t.test('a cloned repository cannot run its claude or notify command, nor write outside itself', async (t) => {
  const repo = clonedHostileRepo('clone-a');
  const r = flower(repo, ['--plain', 'go']);
  t.equal(r.code, 0, `the run works with the person's own claude (${r.err})`);
  const line = r.err.split('\n').find((l) => l.includes('ignored from'));
  t.ok(line, 'one line says what was ignored');
  t.match(
    line,
    `ignored from ${join(repo, '.flower', 'config.json')}: claude, notify-command, log (outside the project), events (outside the project): a project's own config may not run a program or write outside the project until you trust the folder`,
  );
  t.notOk(existsSync(ranMarker), "the repository's claude script never ran (not even as --version)");
  t.notOk(existsSync(notifyMarker), 'its notify command never ran');
  t.notOk(existsSync(join(outside, 'appended.log')), 'no file outside the project was written');
  t.notOk(existsSync(join(root, 'outside-events.jsonl')));
  t.ok(existsSync(join(repo, '.flower', 'manifest.json')), 'the project workbench is used');
  t.equal(JSON.parse(readFileSync(join(repo, '.flower', 'manifest.json'), 'utf8')).generations.length, 1);
});

t.test('flower-pty trust lets the person opt in; a changed config is untrusted again', async (t) => {
  const repo = clonedHostileRepo('clone-b');
  const trust = flower(repo, ['trust']);
  t.equal(trust.code, 0, trust.err);
  t.match(trust.out, `trusted ${join(repo, '.flower')} with its config.json as it is now`);
  t.match(trust.out, /now applies: "claude": "\.\/tools\/claude"/);
  const store = join(root, 'xdg', 'flower-pty', 'trusted.json');
  t.equal(statSync(store).mode & 0o777, 0o600, "the trust file is the user's alone");
  flower(repo, ['--plain', 'go']);
  t.ok(existsSync(ranMarker), 'trusted: its claude applies');
  t.match(readFileSync(ranMarker, 'utf8'), /--version/);

  // the config changes after the trust (a pull): untrusted again
  appendFileSync(join(repo, '.flower', 'config.json'), '\n');
  const before = readFileSync(ranMarker, 'utf8');
  const again = flower(repo, ['--plain', 'go']);
  t.match(again.err, /ignored from .*config\.json: claude, notify-command/);
  t.equal(readFileSync(ranMarker, 'utf8'), before, 'the changed config’s claude did not run');

  t.match(flower(repo, ['trust', '--list']).out, join(repo, '.flower'));
  t.match(flower(repo, ['trust', '--remove']).out, /no longer trusted/);
  t.match(flower(repo, ['trust', '--list']).out, /no trusted folders/);
});

t.test('a .flower that is a symlink elsewhere is refused, and nothing is written there', async (t) => {
  const repo = join(root, 'linked');
  mkdirSync(repo);
  const elsewhere = join(outside, 'target-wb');
  mkdirSync(elsewhere);
  symlinkSync(elsewhere, join(repo, '.flower'));
  const r = flower(repo, ['--plain', 'go']);
  t.equal(r.code, 2, r.err);
  t.equal(
    r.err,
    `flower-pty: ${join(repo, '.flower')} is a symlink to ${elsewhere}: a project's .flower is not followed elsewhere unless you say so; name it yourself with --workbench ${elsewhere}, trust it with flower-pty trust, or remove the link\n`,
  );
  t.same(readdirSync(elsewhere), [], 'nothing written through the link');
  // naming it is saying so
  const named = flower(repo, ['--plain', '--workbench', elsewhere, 'go']);
  t.equal(named.code, 0, named.err);
  t.ok(existsSync(join(elsewhere, 'manifest.json')));
});

t.test('paths inside the project and tuning keys still apply from an untrusted config', async (t) => {
  const repo = join(root, 'tame');
  mkdirSync(join(repo, '.flower'), { recursive: true });
  writeFileSync(
    join(repo, '.flower', 'config.json'),
    JSON.stringify({ events: 'events.jsonl', log: '.flower/run.log', step: 'tame', review: 0 }),
  );
  const r = flower(repo, ['--plain', 'go']);
  t.equal(r.code, 0, r.err);
  t.notMatch(r.err, /ignored from/);
  t.ok(existsSync(join(repo, 'events.jsonl')), 'an events file inside the project is written');
  t.ok(existsSync(join(repo, '.flower', 'notes')));
  t.match(readFileSync(join(repo, 'events.jsonl'), 'utf8'), /"step":"tame"/);
});

t.test("trust never says a project config's hosts apply: they stay ignored, trusted or not", async (t) => {
  const repo = join(root, 'hosts-repo');
  mkdirSync(join(repo, '.flower'), { recursive: true });
  writeFileSync(
    join(repo, '.flower', 'config.json'),
    JSON.stringify({ hosts: ['evil.example'], 'notify-command': 'true', review: 0 }),
  );
  const trust = flower(repo, ['trust']);
  t.equal(trust.code, 0, trust.err);
  t.match(trust.out, /now applies: "notify-command": "true"/, 'a key trust does change is named');
  t.notMatch(trust.out, /now applies: "hosts"/, 'the hosts are never said to apply');
  t.notMatch(trust.out, /now applies: "review"/, 'a tuning key applied before trust: not news');
  t.match(trust.out, /still ignored: "hosts" \(only your own config/);
  const run = flower(repo, ['--plain', 'go']);
  t.equal(run.code, 0, run.err);
  t.match(
    run.err,
    /ignored from .*config\.json: hosts: only your own config/,
    'and the trusted run still ignores them',
  );
  flower(repo, ['trust', '--remove']);
});
