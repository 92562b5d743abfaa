// Text flower-pty did not compose, from files a cloned repository or an archive can carry, never reaches
// the person's terminal as a control sequence: a project folder whose name sets the clipboard (OSC 52),
// retitles the window (OSC 0), asks the terminal for an answer (CSI 6n), starts a C1 CSI and reverses the
// text after it (U+202E); a shipped .flower/manifest.json with the same in its session ids, document paths
// and reasons; a shipped .flower/config.json with it in an unknown key; a transcript whose model name holds
// it. `status` (in words and --json), `report`, `replay` and the refusal of a busy workbench are run as a
// person runs them (the built bin),
// and every byte they write is searched.
import t, { type Test } from 'tap';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { fixturesDir } from '../helpers/fixtures.js';
import { controlsIn, HOSTILE_NAME as HOSTILE } from '../helpers/hostile-name.js';
import { startFakeRun } from '../helpers/wire-server.js';
import { openSocketDir } from '../../src/server/socket-dir.js';
import { acquireWorkbenchLock } from '../../src/server/workbench-lock.js';
import { FAKE_CLAUDE } from '../faults/fake-flower.js';

t.test('the check itself finds every kind', async (t) => {
  t.same(controlsIn(Buffer.from(HOSTILE, 'utf8')), ['C0 or DEL', 'C1 (UTF-8)', 'bidi']);
  t.same(controlsIn(Buffer.from([0x61, 0x9b])), ['a malformed byte']);
  t.same(controlsIn(Buffer.from('交接 🌸 line\n\ttab', 'utf8')), []);
});

const root = realpathSync(mkdtempSync(join(tmpdir(), 'flower-hostile-text-')));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const project = join(root, HOSTILE);
const workbench = join(project, '.flower');
mkdirSync(join(workbench, 'notes'), { recursive: true });
const home = join(root, 'home');
mkdirSync(home);

function flower(args: string[], cwd = project): { code: number | null; out: Buffer; err: Buffer } {
  const r = spawnSync(process.execPath, [FLOWER_BIN, ...args], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      XDG_RUNTIME_DIR: join(root, 'run'),
      CLAUDE_CONFIG_DIR: join(root, 'config'),
    },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function clean(t: Test, what: string, r: { out: Buffer; err: Buffer }): void {
  t.same(controlsIn(r.out), [], `${what}: nothing on stdout a terminal acts on`);
  t.same(controlsIn(r.err), [], `${what}: nothing on stderr a terminal acts on`);
}

const manifest = {
  version: 1,
  step: 'work',
  cwd: project,
  window: 200000,
  at: 150000,
  attempts: 0,
  session_id: `b-${HOSTILE}`,
  retired: [`a-${HOSTILE}`],
  context: 1000,
  cost_usd: 0.5,
  num_turns: 3,
  original_prompt: `go ${HOSTILE}`,
  updated_at: '2026-12-05T03:00:00.000Z',
  errors: [{ generation: 1, at: '2026-12-05T02:00:00.000Z', reason: `degraded ${HOSTILE}` }],
  generations: [
    {
      generation: 1,
      session_id: `a-${HOSTILE}`,
      started_at: '2026-12-05T01:00:00.000Z',
      ended_at: '2026-12-05T02:00:00.000Z',
      peak_context: 151000,
      context: 151000,
      cost_usd: 0.5,
      num_turns: 3,
      handoff_path: join(workbench, 'notes', `${HOSTILE}.md`),
      degraded: true,
      reason: `why ${HOSTILE}`,
      end: 'handoff',
      human_edit: null,
    },
    {
      generation: 2,
      session_id: `b-${HOSTILE}`,
      started_at: '2026-12-05T02:00:00.000Z',
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
writeFileSync(join(workbench, 'manifest.json'), JSON.stringify(manifest));

t.test('status of a shipped manifest: its fields shown, inert', async (t) => {
  const r = flower(['status']);
  t.equal(r.code, 0, r.err.toString());
  clean(t, 'status', r);
  const out = r.out.toString('utf8');
  t.match(
    out,
    'a-p-\\x1b]52;c;U1RPTEVO\\x07-\\x1b]0;TITLE-PWN\\x07-\\x1b[6n-\\u009b31m-\\u202e x',
    'the session id shows what it holds',
  );
  t.match(out, 'why p-\\x1b]52', 'the reason too');
  t.match(out, 'degraded p-\\x1b]52', 'and the error');
});

t.test('status --json of a shipped manifest: C1 and bidi escaped as JSON, the values read back whole', async (t) => {
  const r = flower(['status', '--json']);
  t.equal(r.code, 0, r.err.toString());
  clean(t, 'status --json', r);
  const back = JSON.parse(r.out.toString('utf8'));
  t.equal(back.session_id, manifest.session_id);
  t.equal(back.errors[0].reason, manifest.errors[0]!.reason);
  t.equal(back.generations[0].handoff_path, manifest.generations[0]!.handoff_path);
});

t.test('report: the path it prints is inert', async (t) => {
  const r = flower(['report']);
  t.equal(r.code, 0, r.err.toString());
  clean(t, 'report', r);
  t.match(r.out.toString('utf8'), `report: ${root}/p-\\x1b]52;c;U1RPTEVO\\x07`);
  const json = flower(['report', '--json']);
  clean(t, 'report --json', json);
});

t.test('an unknown key in a shipped config: the one line that names it is inert', async (t) => {
  const other = join(root, 'config-repo');
  mkdirSync(join(other, '.flower'), { recursive: true });
  writeFileSync(join(other, '.flower', 'config.json'), JSON.stringify({ [`k${HOSTILE}`]: 1 }));
  const r = flower(['status'], other);
  t.not(r.code, 0, 'refused');
  clean(t, 'config', r);
  t.match(r.err.toString('utf8'), /unknown key "kp-\\x1b\]52;c;U1RPTEVO\\x07/);
});

t.test('replay of a transcript whose model name holds the sequences', async (t) => {
  const fixture = join(fixturesDir(), 'spotter-2.1.39', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
  const rows = readFileSync(fixture, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  for (const row of rows)
    if (row.message && typeof row.message.model === 'string') row.message.model = `claude-${HOSTILE}`;
  const file = join(root, `${HOSTILE}.jsonl`);
  writeFileSync(file, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  for (const args of [
    ['replay', file],
    ['replay', file, '--window', '200k'],
    ['replay', file, '--window', '200k', '--json'],
  ]) {
    const r = flower(args, root);
    const what = ['replay <file>', ...args.slice(2)].join(' ');
    clean(t, what, r);
    t.match(`${r.out}${r.err}`, /claude-p-\\x1b\]52|claude-p-\\u001b\]52/, `${what}: the model name shows`);
  }
});

t.test('the refusal of a workbench another run holds names its path inert', async (t) => {
  const runtime = join(root, 'run-busy');
  mkdirSync(runtime, { mode: 0o700 });
  const dir = await openSocketDir({ XDG_RUNTIME_DIR: runtime });
  const run = await startFakeRun(dir, 'ffffff');
  t.teardown(() => run.close());
  const release = await acquireWorkbenchLock(workbench, { id: 'ffffff', socket: run.socket });
  t.teardown(release);
  const r = await new Promise<{ code: number; out: Buffer; err: Buffer }>((resolve) => {
    execFile(
      process.execPath,
      [FLOWER_BIN, '--plain', '--claude', FAKE_CLAUDE, 'go'],
      {
        cwd: project,
        encoding: 'buffer',
        timeout: 60_000,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          XDG_RUNTIME_DIR: runtime,
          CLAUDE_CONFIG_DIR: join(root, 'config'),
        },
      },
      (error, out, err) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
  t.not(r.code, 0, 'refused');
  clean(t, 'the refusal', r);
  t.match(r.err.toString('utf8'), /the workbench .*p-\\x1b\]52;c;U1RPTEVO\\x07.* is taken by a live run, ffffff/);
});
