// The manifest's step is a file name flower-pty builds paths from: --continue keeps the
// lineage's own step unless the person names another, and a step crafted to climb out of notes/ is
// refused with one line before anything is read or started.
import t from 'tap';
import { mkdirSync, writeFileSync, readFileSync, existsSync, chmodSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startFake, fakeDoc } from '../faults/fake-flower.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { tempRoot } from '../helpers/temp-root.js';

function lineage(step: string, cwd: string) {
  return {
    version: 1,
    step,
    cwd,
    window: 100000,
    at: 50000,
    attempts: 0,
    session_id: 'a',
    retired: [],
    context: 1000,
    cost_usd: 0,
    num_turns: 1,
    errors: [],
    original_prompt: 'go',
    updated_at: 'now',
    generations: [
      {
        generation: 1,
        session_id: 'a',
        started_at: '2026-01-01T00:00:00Z',
        ended_at: '2026-01-01T00:10:00Z',
        peak_context: 51000,
        context: 51000,
        cost_usd: 0,
        num_turns: 1,
        handoff_path: null,
        degraded: false,
        reason: null,
        end: 'handoff',
        human_edit: null,
      },
    ],
  };
}

t.test('--continue without --step keeps the lineage step (refactor), seeded and written under it', async (t) => {
  const root = tempRoot(t, 'flower-step-');
  const wb = join(root, 'wb');
  mkdirSync(join(wb, 'notes'), { recursive: true });
  writeFileSync(join(wb, 'manifest.json'), JSON.stringify(lineage('refactor', join(root, 'project'))));
  writeFileSync(join(wb, 'notes', '交接-refactor.md'), fakeDoc('REFACTOR-LINEAGE'));
  const f = startFake({
    t,
    root,
    step: null,
    script: { default: { steps: [{ turn: 8_000 }] } },
    flowerArgs: ['--continue', '--window', '100k', '--review', '0'],
  });
  const start = await f.waitForEvent('start', 20_000);
  t.equal(start.step, 'refactor', "the run uses the lineage's own step");
  await f.run.waitFor(() => f.spawns().length > 0, 20_000, 'the successor spawn');
  const argv = f.spawns()[0]!.argv.join(' ');
  t.notMatch(argv, /交接-work\.md/, 'the successor is never pointed at another step’s document');
  const m = await f.manifestWhen((m) => m.generations?.length === 2);
  t.equal(m.step, 'refactor', 'the manifest keeps the step');
  t.notOk(existsSync(join(wb, 'notes', '交接-work.md')), 'nothing is written under the default step');
  t.match(readFileSync(join(wb, 'notes', '交接-refactor.md'), 'utf8'), /REFACTOR-LINEAGE/);
});

t.test('--continue --step other: the person’s step wins from here on', async (t) => {
  const root = tempRoot(t, 'flower-step-');
  const wb = join(root, 'wb');
  mkdirSync(join(wb, 'notes'), { recursive: true });
  writeFileSync(join(wb, 'manifest.json'), JSON.stringify(lineage('refactor', join(root, 'project'))));
  writeFileSync(join(wb, 'notes', '交接-refactor.md'), fakeDoc('REFACTOR-LINEAGE'));
  const f = startFake({
    t,
    root,
    step: 'polish',
    script: { default: { steps: [{ turn: 8_000 }] } },
    flowerArgs: ['--continue', '--window', '100k', '--review', '0'],
  });
  const start = await f.waitForEvent('start', 20_000);
  t.equal(start.step, 'polish');
  const m = await f.manifestWhen((m) => m.generations?.length === 2 && m.step === 'polish');
  t.equal(m.step, 'polish', 'the manifest records the step the lineage now writes under');
});

t.test('a crafted step in the manifest is refused: nothing outside the project is read', async (t) => {
  const root = tempRoot(t, 'flower-step-');
  const project = join(root, 'project');
  const wb = join(project, '.flower');
  mkdirSync(join(wb, 'notes'), { recursive: true });
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'x.md'), fakeDoc('SECRET-FROM-OUTSIDE'));
  const crafted = `/../../../../${outside.slice(1)}/x`;
  writeFileSync(join(wb, 'manifest.json'), JSON.stringify(lineage(crafted, project)));
  const claude = join(root, 'claude');
  writeFileSync(claude, `#!/bin/sh\necho ran >> ${join(root, 'claude-ran')}\nexit 0\n`);
  chmodSync(claude, 0o755);
  const r = spawnSync(process.execPath, [FLOWER_BIN, '--claude', claude, '--plain', '--continue'], {
    cwd: project,
    encoding: 'utf8',
    input: '',
    timeout: 20_000,
    env: { PATH: '/usr/bin:/bin', HOME: root, XDG_RUNTIME_DIR: root },
  });
  t.equal(r.status, 2, r.stderr);
  t.match(
    r.stderr,
    /--continue cannot pick the lineage up: the manifest .*manifest\.json is malformed: step is ".*", which is not a step name/,
  );
  t.equal(r.stderr.trim().split('\n').length, 1, 'one line');
  t.notOk(existsSync(join(root, 'claude-ran')), 'claude was never started (not even for --version)');
  for (const cmd of [['status'], ['report', '--json']]) {
    const s = spawnSync(process.execPath, [FLOWER_BIN, ...cmd], {
      cwd: project,
      encoding: 'utf8',
      timeout: 20_000,
      env: { PATH: '/usr/bin:/bin', HOME: root },
    });
    t.notMatch(s.stdout + s.stderr, /SECRET-FROM-OUTSIDE/, `${cmd[0]} never shows the outside file`);
  }
});
