// End to end, REAL claude: a walk-away run. The terminal that started it closes mid-turn (SIGHUP:
// a detach), the handoff happens while nobody is attached, a new terminal attaches in the split view
// and sees generation 2 and types into it, C-] d detaches, and `kill` ends the run cleanly.
import t from 'tap';
import { text, usageFor, type MockRequest, type MockReply } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, HANDOFF_ASK, TAKING_OVER } from '../helpers/flower-run.js';
import { oneRun, serverPids } from '../helpers/run-servers.js';
import { requestRun } from '../../src/server/run-registry.js';

t.test('walk away: detach mid-turn, hand off unattended, attach, type, C-] d, kill', async (t) => {
  let firstSession: string | undefined;
  const respond = (req: MockRequest): MockReply => {
    if (!req.isMain) return text('side');
    firstSession ??= req.sessionId;
    if (req.sessionId === firstSession) {
      if (HANDOFF_ASK.test(req.lastUserText)) return text(handoffDoc('WALKED-AWAY'), usageFor(57_000));
      // the walk-away turn: slow enough that the terminal is gone before it ends
      return { kind: 'text', text: 'first turn done', usage: usageFor(55_000), delayMs: 3_000 };
    }
    if (TAKING_OVER.test(req.lastUserText)) return text('successor here, continuing', usageFor(12_000));
    return text(`gen two heard: ${req.lastUserText.slice(-30)}`, usageFor(13_000));
  };
  const f = await startFlower({
    t,
    respond,
    prompt: 'a long task, then walk away',
    flowerArgs: ['--window', '100k', '--review', '1'],
  });
  await f.api.waitForRequest((r) => r.isMain, 60_000);

  process.kill(f.run.pty.pid, 'SIGHUP'); // the terminal closes
  const exit = await f.run.exited;
  t.equal(exit.exitCode, 0, 'the first terminal detached');
  t.match(f.run.output(), /detached from run \w{6} \(it goes on\)/);
  t.same(
    f.events().filter((e) => e.event === 'writing'),
    [],
    'detached before the handoff began',
  );

  const done = await f.waitForEvent('done', 90_000);
  t.equal(done.degraded, false, 'the document was written with nobody attached');
  const start2 = await f.waitForEvent('generation-start', 60_000, (e) => e.generation === 2);
  await f.api.waitForRequest((r) => r.sessionId === start2.session_id, 60_000);
  const run = await oneRun(f.runtime);
  t.equal(run.clients, 0, 'nobody attached');
  t.equal(run.generation, 2);

  const b = f.attach([run.id]); // the split view, in a new terminal
  const screen = await b.waitForScreen(/gen 2\/8/, 30_000);
  t.match(screen, /WALKED-AWAY/, 'the document pane shows the frozen document');
  await b.waitForScreen('successor here, continuing', 30_000);
  await b.waitFor(async () => /❯/.test(await b.screenText()), 30_000, "claude's prompt");
  b.pty.write('typed after attaching');
  await b.waitForScreen('typed after attaching', 15_000);
  b.pty.write('\r');
  await f.api.waitForRequest(
    (r) => r.sessionId === start2.session_id && /typed after attaching/.test(r.lastUserText),
    60_000,
  );
  await b.waitForScreen('gen two heard', 30_000);

  b.pty.write('\u001d');
  b.pty.write('d');
  const detached = await b.exited;
  t.equal(detached.exitCode, 0, 'C-] d detaches');
  t.match(
    b.output(),
    new RegExp(
      `detached from run ${run.id} \\(it goes on\\); attach again with (?:npx flower-pty|node \\S*flower-pty\\.js'?|flower-pty) attach ${run.id}`,
    ),
  );
  t.equal((await oneRun(f.runtime)).clients, 0, 'still live after the detach');

  const answer = await requestRun(run.socket, { t: 'kill' }, 30_000);
  t.ok(answer.ok && answer.answer?.t === 'bye', 'kill is answered with bye');
  const m = await f.manifestWhen((m) => m.generations?.length === 2 && m.generations[1].ended_at != null);
  t.equal(m.generations[1].end, 'quit', 'kill closed generation 2 like a quit');
  await b.waitFor(() => serverPids(f.runtime).length === 0, 15_000, 'the server to exit');
});
