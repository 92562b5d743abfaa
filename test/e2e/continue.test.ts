// End to end against the REAL claude: the run server is stopped (SIGTERM) in the middle of a lineage,
// the terminal and claude are cleaned up, and `--continue` picks the lineage up from the newest
// frozen document with nothing lost. Also -v: the effective settings with the token masked.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { text, usageFor, type MockRequest, type MockReply } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, HANDOFF_ASK, TAKING_OVER } from '../helpers/flower-run.js';
import { serverPids } from '../helpers/run-servers.js';

t.test('stop mid-lineage, then --continue', async (t) => {
  let firstSession: string | undefined;
  const respond = (req: MockRequest): MockReply => {
    if (!req.isMain) return text('side');
    firstSession ??= req.sessionId;
    if (req.sessionId === firstSession) {
      return HANDOFF_ASK.test(req.lastUserText)
        ? text(handoffDoc('LINEAGE'), usageFor(56_000))
        : text('worked', usageFor(55_000));
    }
    return text(`successor ${req.sessionId?.slice(0, 8)} here`, usageFor(12_000));
  };
  const f = await startFlower({ t, respond, prompt: 'go', flowerArgs: ['--window', '100k', '--review', '0', '-v'] });
  t.match(
    await f.run.waitForScreen(/token sk-m\*+/, 20_000),
    /window 100.0K \(given\) · near at 30.0K · handoff at 50.0K · max 8 generations/,
  );
  t.notMatch(f.run.output(), /sk-mock-sandbox-token/, 'the token itself is never printed');
  const start2 = await f.waitForEvent('generation-start', 90_000, (e) => e.generation === 2);
  await f.api.waitForRequest((r) => r.sessionId === start2.session_id, 60_000);
  await f.run.waitForScreen(/successor .* here/, 30_000);

  // SIGTERM to the run server (a terminal's SIGTERM only detaches): claude is ended, the attached
  // terminal restored, and its exit code says why.
  const [server] = serverPids(f.runtime);
  process.kill(server!, 'SIGTERM');
  const exit = await f.run.exited;
  t.equal(exit.exitCode, 143, '128 + SIGTERM');
  const stoppedManifest = f.manifest();
  t.equal(stoppedManifest.generations.length, 2);
  t.equal(stoppedManifest.generations[1].end, 'quit', 'the generation is closed, not left running');

  const again = await startFlower({
    t,
    respond,
    flowerArgs: ['--window', '100k', '--review', '0', '--continue'],
    again: f,
  });
  const start3 = await again.waitForEvent('generation-start', 30_000, (e) => e.generation === 3);
  const first3 = await again.api.waitForRequest((r) => r.sessionId === start3.session_id, 60_000);
  t.match(first3.lastUserText, TAKING_OVER);
  t.match(first3.lastUserText, /LINEAGE/, 'seeded with the newest frozen document');
  const m = again.manifest();
  t.equal(m.generations.length, 3, 'the lineage goes on');
  t.same(
    m.generations.map((g: { session_id: string }) => g.session_id),
    [firstSession, start2.session_id, start3.session_id],
  );
  t.equal(m.session_id, start3.session_id);
  t.match(readFileSync(again.documentPath, 'utf8'), /LINEAGE/, 'the document is untouched');
});
