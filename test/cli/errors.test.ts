// The command line as a person meets it: every mistake is one line on stderr with the fix and a
// documented exit code, never a stack trace; --help and --version work.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, chmodSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { ownCommandHere } from '../../src/adapters/own-command-here.js';

// Every folder this file makes lives in one, removed at the end.
const root = mkdtempSync(join(tmpdir(), 'flower-cli-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

const fakeClaude = (() => {
  const path = join(root, 'claude');
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
})();

function flower(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [FLOWER_BIN, ...args], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: tmpdir(), ...env },
    cwd: mkdtempSync(join(root, 'cwd-')),
    timeout: 20_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// flower-pty as typed in those folders (not on that PATH, outside the checkout), as a pattern: each fix names it so
const OWN = ownCommandHere({ PATH: '/usr/bin:/bin' }, root).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const cases: Array<[string, string[], number, RegExp, Record<string, string>?]> = [
  [
    'a window that is not a number',
    ['--window', 'abc', '--claude', fakeClaude],
    2,
    /--window expects a token count like 200000 or 200k, got "abc"/,
  ],
  [
    'a window below the floor',
    ['--window', '5k', '--claude', fakeClaude],
    2,
    /--window 5000 is below the 20000 floor.*--window 200k/,
  ],
  [
    'a headroom larger than the window',
    ['--window', '100k', '--headroom', '150k', '--claude', fakeClaude],
    2,
    /--headroom 150000 is not smaller than the window 100000/,
  ],
  ['an unknown flag', ['--bogus'], 2, new RegExp(`unknown flag --bogus \\(see ${OWN} --help\\)`)],
  [
    'replay with no transcript',
    ['replay'],
    2,
    new RegExp(
      `^flower-pty: replay: name the transcript to replay: ${OWN} replay ~/\\.claude/projects/<project folder>/<session id>\\.jsonl \\[--window N\\]\n$`,
    ),
  ],
  [
    'eval with nothing to measure',
    ['eval'],
    2,
    new RegExp(
      `^flower-pty: eval: say what to measure: ${OWN} eval compaction \\[FILE\\|DIR \\.\\.\\.\\] .*, or ${OWN} eval fork SESSION .*\n$`,
    ),
  ],
  [
    'a missing claude binary',
    ['--claude', '/nonexistent/claude'],
    5,
    /--claude "\/nonexistent\/claude" is not an executable file: install Claude Code/,
  ],
  ['no claude on PATH', [], 5, /no "claude" on PATH: install Claude Code/],
  [
    'FLOWER_PTY_CLAUDE pointing nowhere',
    [],
    5,
    /FLOWER_PTY_CLAUDE "\/nope" is not an executable file/,
    { FLOWER_PTY_CLAUDE: '/nope' },
  ],
  [
    'a step with nothing usable',
    ['--step', '../..', '--claude', fakeClaude],
    2,
    /--step "..\/.." has no usable characters/,
  ],
  [
    'resuming in claude args',
    ['--claude', fakeClaude, '--', '--resume', 'abc'],
    2,
    // from a folder outside the checkout, with no flower-pty on the PATH: the bin by its path
    /--resume cannot be passed to claude: .*to pick up a lineage use node \S+\/bin\/flower-pty\.js --continue$/m,
  ],
  [
    '--continue with nothing to continue',
    ['--continue', '--claude', fakeClaude],
    2,
    /--continue found nothing to continue: no manifest at .*start a run first/,
  ],
  [
    'a blank notify command',
    ['--notify-command', ' ', '--claude', fakeClaude],
    2,
    /--notify-command expects a shell command, e\.g\. 'notify-send/,
  ],
  ['a negative review', ['--review', '-3', '--claude', fakeClaude], 2, /--review expects a number of seconds/],
  ['replay of a missing file', ['replay', '/nonexistent.jsonl'], 2, /replay: no such file \/nonexistent.jsonl/],
  [
    'ls --host with no host',
    ['ls', '--host'],
    2,
    /^flower-pty: ls --host needs a machine's name: flower-pty ls --host user@box/,
  ],
  ['ls --host= with an empty host', ['ls', '--json', '--host='], 2, /^flower-pty: ls --host needs a machine's name/],
  [
    'ls with a bare --host after a named one',
    ['ls', '--host', 'a', '--host'],
    2,
    /^flower-pty: ls --host needs a machine's name/,
  ],
  [
    'status without a run',
    ['status', '--workbench', '/nonexistent-wb'],
    2,
    /no manifest at \/nonexistent-wb\/manifest.json: run node \S+\/bin\/flower-pty\.js first, or point --workbench/,
  ],
];

for (const [name, args, code, message, env] of cases) {
  t.test(name, async (t) => {
    const r = flower(args, env);
    t.equal(r.code, code, 'exit code');
    t.match(r.err, message);
    t.equal(r.err.trim().split('\n').length, 1, 'one line');
    t.notMatch(r.err, /\n\s+at /, 'no stack trace');
  });
}

t.test('--help shows usage, examples and exit codes; --version the version', async (t) => {
  const help = flower(['--help']);
  t.equal(help.code, 0);
  t.match(help.out, /flower-pty \[options\] \[prompt\] \[-- <claude args>\]/);
  t.match(help.out, /Examples:/);
  t.match(help.out, /Exit codes: 0 done/);
  for (const flag of [
    '--window',
    '--headroom',
    '--workbench',
    '--step',
    '--review',
    '--events',
    '--plain',
    '--handoff',
    '--keep-auto-compact',
    '--continue',
    '--verbose',
    '--notify-command',
  ])
    t.match(help.out, flag);
  const version = flower(['--version']);
  t.equal(version.code, 0);
  t.match(version.out.trim(), /^\d+\.\d+\.\d+$/);
});

t.test('status prints the lineage of a workbench', async (t) => {
  const wb = mkdtempSync(join(root, 'wb-'));
  mkdirSync(wb, { recursive: true });
  const manifest = {
    version: 1,
    step: 'work',
    cwd: '/p',
    window: 200000,
    at: 150000,
    attempts: 0,
    session_id: 'b',
    retired: ['a'],
    context: 1000,
    cost_usd: 0.5,
    num_turns: 3,
    errors: [],
    original_prompt: 'x',
    updated_at: 'now',
    generations: [
      {
        generation: 1,
        session_id: 'a',
        started_at: 's',
        ended_at: 'e',
        peak_context: 151000,
        context: 151000,
        cost_usd: 0.5,
        num_turns: 3,
        handoff_path: '/p/.flower/notes/交接-work.md',
        degraded: false,
        reason: null,
        end: 'handoff',
        human_edit: null,
      },
      {
        generation: 2,
        session_id: 'b',
        started_at: 's',
        ended_at: null,
        peak_context: 1000,
        context: 1000,
        cost_usd: 0,
        num_turns: 0,
        handoff_path: null,
        degraded: false,
        reason: null,
        end: 'running',
        human_edit: null,
      },
    ],
  };
  writeFileSync(join(wb, 'manifest.json'), JSON.stringify(manifest));
  const r = flower(['status', '--workbench', wb]);
  t.equal(r.code, 0);
  t.match(r.out, /step work · 2 generation\(s\)/);
  t.match(r.out, /#1 a handoff peak 151000 → \/p\/.flower\/notes\/交接-work.md/);
  const json = flower(['status', '--workbench', wb, '--json']);
  t.same(JSON.parse(json.out).retired, ['a']);
  const fromEnv = flower(['status'], { FLOWER_PTY_WORKBENCH: wb });
  t.equal(fromEnv.code, 0, 'FLOWER_PTY_WORKBENCH names the workbench as it does for a run');
  t.match(fromEnv.out, /step work · 2 generation\(s\)/);
});

t.test('a closed pipe ends replay quietly', async (t) => {
  const { fixturesDir } = await import('../helpers/fixtures.js');
  const file = join(fixturesDir(), 'spotter-2.1.39', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
  const r = spawnSync('/bin/sh', ['-c', `'${process.execPath}' '${FLOWER_BIN}' replay '${file}' | head -n 1`], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.equal(r.stdout.split('\n').length, 2, 'one line read');
  t.notMatch(r.stderr, /EPIPE|Unhandled/, 'no crash report');
});

t.test('--max-generations 0 is refused before anything starts', async (t) => {
  const r = flower(['--max-generations', '0', '--claude', fakeClaude]);
  t.equal(r.code, 2);
  t.match(r.err, /--max-generations expects a whole number of at least 1, got 0/);
});
