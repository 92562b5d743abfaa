// flower-pty's run server SIGKILLed at each phase (working, writing, review, respawning), with the fake claude:
// no half-written file, no orphaned claude (it gets SIGHUP when the pty master closes), and
// `flower-pty --continue` picks the lineage up with nothing lost.
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFake, fakeDoc, alive, walk, type FakeRun } from './fake-flower.js';
import { serverPids } from '../helpers/run-servers.js';

async function killFlower(t: Test, f: FakeRun): Promise<number[]> {
  const claudePids = f.spawns().map((s) => s.pid);
  const servers = serverPids(f.runtime);
  t.equal(servers.length, 1, 'one run server');
  process.kill(servers[0]!, 'SIGKILL'); // the run lives in the server; the terminal's flower-pty is its client
  const exit = await f.run.exited;
  t.equal(exit.exitCode, 9, 'the client leaves too, with the code that says the server died (not 1, a bug)');
  t.match(f.run.output(), /pick the lineage up with (?:npx flower-pty|node \S*flower-pty\.js'?|flower-pty) --continue/);
  // The kernel hangs up the orphaned pty: claude gets SIGHUP and must go.
  await f.run
    .waitFor(() => claudePids.every((pid) => !alive(pid)), 10_000, 'claude to exit after its pty closed')
    .catch(() => undefined);
  for (const pid of claudePids) t.notOk(alive(pid), `claude ${pid} did not outlive flower-pty`);
  return claudePids;
}

// A SIGKILL mid-write may leave a temp beside a whole target; the next run sweeps it (checked after resume).
function checkFiles(t: Test, workbench: string): void {
  const files = walk(workbench);
  for (const p of files.filter((p) => p.endsWith('.json'))) {
    t.doesNotThrow(() => JSON.parse(readFileSync(join(workbench, p), 'utf8')), `${p} parses`);
  }
}

async function resume(t: Test, killed: FakeRun, generations: number): Promise<FakeRun> {
  const before = killed.spawns().length;
  const f = startFake({
    t,
    root: killed.root,
    script: { default: { steps: [{ turn: 8_000 }] } },
    flowerArgs: ['--continue', '--window', '100k', '--review', '0'],
  });
  const start = await f.waitForEvent(
    'generation-start',
    20_000,
    (e) => e.successor === true && (e.generation as number) > generations,
  );
  t.equal(start.generation, generations + 1, 'generations continue');
  await f.run.waitFor(() => f.spawns().length > before, 10_000, 'the resumed spawn');
  const m = await f.manifestWhen((m) => m.generations?.length === generations + 1);
  t.equal(m.generations.length, generations + 1, 'the manifest lineage continues');
  t.ok(
    m.generations.slice(0, -1).every((g: { ended_at: string | null }) => g.ended_at !== null),
    'older generations are closed',
  );
  // The resumed server's own write in flight has a temp too (its fsyncs make the window a few ms wide):
  // what must be gone is every temp whose writer is dead.
  const writer = (p: string) => Number(/\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(p)?.[1] ?? NaN);
  const stale = walk(f.workbench).filter((p) => p.endsWith('.tmp') && !alive(writer(p)));
  t.same(stale, [], 'no temp of a dead writer left once the lineage is picked up');
  return f;
}

// One handoff carrying `marker`, no review window, then the successor follows `successorRun`:
// returns once generation 2 has started.
async function inGenerationTwo(t: Test, marker: string, successorRun: unknown): Promise<FakeRun> {
  const f = startFake({
    t,
    script: { runs: [{ steps: [{ turn: 60_000 }], handoff: { text: fakeDoc(marker) } }, successorRun] },
    prompt: 'go',
    flowerArgs: ['--window', '100k', '--review', '0'],
  });
  await f.waitForEvent('generation-start', 20_000, (e) => e.generation === 2);
  return f;
}

t.test('killed while working (generation 2, after one handoff)', async (t) => {
  const f = await inGenerationTwo(t, 'KEEP-ME', { steps: [{ turn: 9_000 }] });
  await f.run.waitFor(() => f.spawns().length === 2, 10_000, 'second spawn');
  await killFlower(t, f);
  checkFiles(t, f.workbench);
  const r = await resume(t, f, 2);
  t.match(
    await r.firstPrompt(r.spawns().at(-1)!),
    /KEEP-ME/,
    'the resumed session is seeded with the newest frozen document',
  );
});

t.test('killed while the session writes its handoff', async (t) => {
  const f = startFake({
    t,
    script: { runs: [{ steps: [{ turn: 60_000 }], handoff: 'hang' }] },
    prompt: 'ORIGINAL-WRITING',
    flowerArgs: ['--window', '100k'],
  });
  await f.waitForEvent('writing', 20_000);
  await killFlower(t, f);
  checkFiles(t, f.workbench);
  const r = await resume(t, f, 1);
  const prompt = await r.firstPrompt(r.spawns().at(-1)!);
  t.match(prompt, /TAKING OVER/);
  t.match(prompt, /ORIGINAL-WRITING/, 'no document was frozen: the successor still gets the original prompt');
});

t.test('killed during the review window', async (t) => {
  const f = startFake({
    t,
    script: { runs: [{ steps: [{ turn: 60_000 }], handoff: { text: fakeDoc('IN-REVIEW') } }] },
    prompt: 'go',
    flowerArgs: ['--window', '100k', '--review', '60'],
  });
  await f.waitForEvent('done', 20_000);
  await killFlower(t, f);
  checkFiles(t, f.workbench);
  t.match(readFileSync(f.documentPath, 'utf8'), /IN-REVIEW/, 'the frozen document is whole on disk');
  const r = await resume(t, f, 1);
  t.match(await r.firstPrompt(r.spawns().at(-1)!), /IN-REVIEW/);
});

t.test('killed while respawning (successor starting)', async (t) => {
  const f = await inGenerationTwo(t, 'RESPAWN', { steps: [{ sleep: 60_000 }] });
  await killFlower(t, f);
  checkFiles(t, f.workbench);
  const r = await resume(t, f, 2);
  t.match(await r.firstPrompt(r.spawns().at(-1)!), /RESPAWN/);
});
