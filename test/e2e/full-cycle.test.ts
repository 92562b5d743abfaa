// End to end, REAL claude in a real pty under --plain: context grows turn by turn from typed
// prompts; the handoff request goes in at the turn boundary after crossing `at` (not before);
// the document is frozen, archived on the next handoff, and each successor starts from it.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { text, usageFor, type MockRequest } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, HANDOFF_ASK, TAKING_OVER } from '../helpers/flower-run.js';
import { looksReady, quitWithCtrlC } from '../helpers/real-claude.js';

t.test('full cycle: grow, cross, hand off at the boundary, freeze, respawn, archive', async (t) => {
  // window 100k → at 50k, near 30k. Context per main request of each session: 20k, 35k, 55k, ...
  const perSession = new Map<string, number>();
  const sessions: string[] = [];
  let docs = 0;
  const respond = (req: MockRequest) => {
    if (!req.isMain) return text('side');
    const sid = req.sessionId ?? '?';
    if (HANDOFF_ASK.test(req.lastUserText)) {
      docs++;
      return text(handoffDoc(`DOC-${docs}`), usageFor((perSession.get(sid) ?? 0) + 2_000));
    }
    if (!sessions.includes(sid)) sessions.push(sid);
    const turn = (perSession.get(`${sid}:turns`) ?? 0) + 1;
    perSession.set(`${sid}:turns`, turn);
    // generation 1 crosses on its third turn, the successor on its second
    const plan = sessions.indexOf(sid) === 0 ? [20_000, 35_000, 55_000] : [20_000, 55_000];
    const context = plan[turn - 1] ?? 60_000;
    perSession.set(sid, context);
    return text(`reply ${turn} of ${sid.slice(0, 8)}`, usageFor(context));
  };
  const f = await startFlower({
    t,
    respond,
    prompt: 'start the toy task',
    flowerArgs: ['--window', '100k', '--review', '1'],
  });
  const { run, api } = f;

  await run.waitForScreen(/reply 1 of/, 60_000);
  await run.waitFor(async () => looksReady(await run.screenText()), 20_000, 'idle prompt after turn 1');
  // Keystrokes pass through --plain: type the next prompt and submit it.
  run.pty.write('go on please');
  await run.waitForScreen('go on please', 10_000);
  run.pty.write('\r');
  await run.waitForScreen(/reply 2 of/, 30_000);
  await f.waitForEvent('near', 10_000);
  t.notOk(
    api.requests.some((r) => HANDOFF_ASK.test(r.lastUserText)),
    'no handoff request below the line',
  );
  await run.waitFor(async () => looksReady(await run.screenText()), 20_000, 'idle prompt after turn 2');
  run.pty.write('and the next one');
  await run.waitForScreen('and the next one', 10_000);
  run.pty.write('\r');

  const done = await f.waitForEvent('done', 60_000);
  t.equal(done.degraded, false, 'the document was complete');
  t.equal(done.context, 57_000, 'done carries the context the writing turn saw');
  t.same(done.sections, ['doing', 'decided', 'deadends', 'next', 'scene']);
  const main = api.requests.filter((r) => r.isMain);
  const askIndex = main.findIndex((r) => HANDOFF_ASK.test(r.lastUserText));
  t.ok(askIndex > 0, 'the request was sent');
  t.match(main[askIndex - 1]!.lastUserText, /and the next one/, 'right after the turn that crossed the line');
  t.equal(main[askIndex]!.sessionId, main[0]!.sessionId, 'the SAME session wrote it');
  const writing = f.events().find((e) => e.event === 'writing');
  t.match(writing, { cut: 'turn-end', context: 55_000 });

  const doc = readFileSync(f.documentPath, 'utf8');
  t.match(doc, /^# 交接 · work/m, 'frozen under the step name');
  t.match(doc, /DOC-1/);
  t.notMatch(doc, /Here is the handoff/, 'chatter before the document is not kept');

  // The successor: a NEW session whose first request carries the document.
  const start2 = await f.waitForEvent('generation-start', 30_000, (e) => e.generation === 2);
  await run.waitFor(() => api.requests.some((r) => r.sessionId === start2.session_id), 60_000, 'successor request');
  const first2 = api.requests.find((r) => r.sessionId === start2.session_id)!;
  t.not(first2.sessionId, main[0]!.sessionId, 'a new session id');
  t.match(first2.lastUserText, TAKING_OVER);
  t.match(first2.lastUserText, /DOC-1/, 'seeded with exactly the frozen document');
  t.match(
    first2.lastUserText,
    new RegExp(f.documentPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    'pointing at the file',
  );
  const m1 = f.manifest();
  t.same(m1.retired, [main[0]!.sessionId], 'the manifest retired the first id');
  t.equal(m1.session_id, start2.session_id);
  t.equal(m1.attempts, 0);

  // Second handoff: the successor crosses too; the first document moves to the archive.
  await run.waitForScreen(/reply 1 of/, 30_000);
  await run.waitFor(async () => looksReady(await run.screenText()), 30_000, 'idle prompt in generation 2');
  run.pty.write('second turn');
  await run.waitForScreen('second turn', 10_000);
  run.pty.write('\r');
  await f.waitForEvent('done', 60_000, (e) => e.generation === 2);
  await f.waitForEvent('generation-start', 30_000, (e) => e.generation === 3);
  await run.waitFor(() => f.manifest().generations.length === 3, 5_000, 'manifest with generation 3');
  const archived = f.archived();
  t.equal(archived.length, 1, 'one archived document');
  t.match(archived[0], /^work-.*\.md$/);
  t.match(
    readFileSync(`${f.workbench}/notes/archive/交接/${archived[0]}`, 'utf8'),
    /DOC-1/,
    'the previous generation kept',
  );
  t.match(readFileSync(f.documentPath, 'utf8'), /DOC-2/, 'the current one is the new document');
  const m2 = f.manifest();
  t.equal(m2.retired.length, 2);
  t.equal(m2.generations.length, 3);
  t.ok(m2.num_turns >= 5, 'turns summed across generations');
  t.match(run.output(), /\u001b\]0;[^\u0007]*flower context/, 'state in the terminal title');

  // Ctrl-C twice on the idle prompt: claude exits 0, flower-pty follows and says where the lineage is.
  await run.waitForScreen(/reply 1 of/, 60_000);
  await run.waitFor(async () => looksReady(await run.screenText()), 60_000, 'idle prompt in generation 3');
  await quitWithCtrlC(run);
  const exit = await run.exited;
  t.equal(exit.exitCode, 0);
  t.match(run.output(), /lineage in .*manifest\.json/);
});
