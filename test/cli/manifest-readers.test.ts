// Every reader of manifest.json (status, --continue, report) goes through one validation that names the
// bad field: a malformed manifest is one line, exit 2, never a TypeError, a stack trace,
// "claude not found" or "run flower-pty first"; a 72,000-generation lineage is still reported.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, chmodSync, mkdirSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';

const root = mkdtempSync(join(tmpdir(), 'flower-manifest-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const claude = join(root, 'claude');
writeFileSync(claude, '#!/bin/sh\nexit 0\n');
chmodSync(claude, 0o755);

const generation = (n: number) => ({
  generation: n,
  session_id: `s${n}`,
  started_at: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
  ended_at: new Date(Date.UTC(2026, 0, 1) + n * 60_000 + 30_000).toISOString(),
  peak_context: 51000,
  context: 51000,
  cost_usd: 0.01,
  num_turns: 2,
  handoff_path: null,
  degraded: false,
  reason: null,
  end: 'handoff',
  human_edit: null,
});
const good = (generations: unknown[]) => ({
  version: 1,
  step: 'work',
  cwd: '/p',
  window: 100000,
  at: 50000,
  attempts: 0,
  session_id: 's1',
  retired: [],
  context: 0,
  cost_usd: 0,
  num_turns: 0,
  errors: [],
  original_prompt: 'go',
  updated_at: 'now',
  generations,
});

function project(manifestText: string): string {
  const dir = mkdtempSync(join(root, 'p-'));
  mkdirSync(join(dir, '.flower'));
  writeFileSync(join(dir, '.flower', 'manifest.json'), manifestText);
  return dir;
}

function flower(cwd: string, args: string[]) {
  const r = spawnSync(process.execPath, [FLOWER_BIN, ...args], {
    cwd,
    encoding: 'utf8',
    input: '',
    timeout: 60_000,
    env: { PATH: '/usr/bin:/bin', HOME: root, XDG_RUNTIME_DIR: root, CLAUDE_CONFIG_DIR: join(root, 'cc') },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const malformed: Array<[string, string, RegExp]> = [
  ['generations: [null]', JSON.stringify(good([null])), /generations\[0\] is null, expected an object/],
  ['generations: [{}]', JSON.stringify(good([{}])), /generations\[0\]\.generation is missing, expected a whole number/],
  [
    'cost_usd: "lots"',
    JSON.stringify({ ...good([generation(1)]), cost_usd: 'lots' }),
    /cost_usd is "lots", expected a number/,
  ],
  [
    'a generation with cost_usd: "lots"',
    JSON.stringify(good([{ ...generation(1), cost_usd: 'lots' }])),
    /generations\[0\]\.cost_usd is "lots", expected a number/,
  ],
  ['truncated JSON', JSON.stringify(good([generation(1)])).slice(0, 80), /the manifest is not valid JSON/],
];

for (const [name, text, field] of malformed) {
  t.test(`a manifest with ${name}`, async (t) => {
    const dir = project(text);
    for (const args of [['status'], ['--claude', claude, '--plain', '--continue']]) {
      const r = flower(dir, args);
      t.equal(r.code, 2, `${args[0]}: exit 2 (${r.err})`);
      t.match(r.err, /manifest\.json is malformed: /, `${args[0]}: says the manifest is malformed`);
      t.match(r.err, field, `${args[0]}: names the field`);
      t.equal(r.err.trim().split('\n').length, 1, `${args[0]}: one line`);
      t.notMatch(
        r.err,
        /TypeError|internal error|run flower-pty first|\n\s+at /,
        `${args[0]}: no TypeError, no stack trace`,
      );
    }
    // the report says the same problem about the manifest (it has nothing else here to show)
    const report = flower(dir, ['report', '--json']);
    t.equal(report.code, 2, report.err);
    t.match(report.err, field, 'report names the field');
    t.notMatch(report.err, /TypeError|internal error|\n\s+at /);
  });
}

t.test('report on a 72,000-generation manifest works (no stack overflow)', async (t) => {
  const gens = Array.from({ length: 72_000 }, (_, i) => generation(i + 1));
  const dir = project(JSON.stringify(good(gens)));
  const r = flower(dir, ['report']);
  t.equal(r.code, 0, r.err.slice(0, 500));
  t.match(r.out, /report: .*report\.html \(72000 generation\(s\)/);
  t.ok(existsSync(join(dir, '.flower', 'report.html')));
  const status = flower(dir, ['status']);
  t.equal(status.code, 0, status.err.slice(0, 500));
  t.match(status.out, /72000 generation\(s\)/);
});
