// End to end against the REAL claude: the other ways a generation ends. A long tool-using turn is
// cut at a tool boundary; garbage, silence and a 400 overflow degrade; a window below the start-up
// floor hits the brake; --no-handoff leaves claude alone.
import t from 'tap';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { text, bash, usageFor, promptTooLong, type MockRequest, type MockReply } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, bySession, HANDOFF_ASK, TAKING_OVER } from '../helpers/flower-run.js';
import { DEGRADED_MARKER } from '../../src/core/document/handoff-doc.js';

t.test('a long autonomous turn is cut at the next tool boundary', async (t) => {
  const respond = bySession((req, i) => {
    if (HANDOFF_ASK.test(req.lastUserText)) return text(handoffDoc('CUT'), usageFor(58_000));
    return bash(`echo step-${i}`, usageFor(20_000 + i * 12_000)); // 20k, 32k, 44k, 56k: crosses 50k mid-turn
  });
  const f = await startFlower({
    t,
    respond,
    prompt: 'do many steps',
    flowerArgs: ['--window', '100k', '--review', '0'],
  });
  const writing = await f.waitForEvent('writing', 90_000);
  t.equal(writing.cut, 'tool-boundary');
  t.equal(writing.context, 56_000);
  const ask = await f.api.waitForRequest((r) => HANDOFF_ASK.test(r.lastUserText), 30_000);
  const main = f.api.requests.filter((r) => r.isMain);
  t.match(ask.lastUserText, /PostToolUse/, 'through the PostToolUse hook, mid-turn');
  t.match(ask.lastUserText, /step-3/, 'right after the tool that crossed the line');
  t.notOk(
    main.slice(0, main.indexOf(ask)).some((r) => HANDOFF_ASK.test(r.lastUserText)),
    'not before',
  );
  const done = await f.waitForEvent('done', 60_000);
  t.equal(done.degraded, false);
  t.match(readFileSync(f.documentPath, 'utf8'), /CUT/);
  const start2 = await f.waitForEvent('generation-start', 30_000, (e) => e.generation === 2);
  await f.run.waitFor(() => f.api.requests.some((r) => r.sessionId === start2.session_id), 60_000, 'successor');
});

t.test('a model that answers the request with garbage: degraded, and the run continues', async (t) => {
  const respond = bySession((req) => {
    if (HANDOFF_ASK.test(req.lastUserText))
      return text('I would rather keep going with the task, thanks.', usageFor(57_000));
    return text('worked a lot', usageFor(55_000));
  });
  const f = await startFlower({
    t,
    respond,
    prompt: 'ORIGINAL-TASK: count the files',
    flowerArgs: ['--window', '100k', '--review', '0'],
  });
  const done = await f.waitForEvent('done', 90_000);
  t.equal(done.degraded, true);
  t.match(done.reason, /incomplete: missing doing, next/);
  const doc = readFileSync(f.documentPath, 'utf8');
  t.ok(doc.includes(DEGRADED_MARKER), 'the degraded marker is in doing');
  t.match(doc, /ORIGINAL-TASK: count the files/, 'the original prompt is in the scene');
  const m = f.manifest();
  t.match(m.errors, [{ generation: 1, reason: /incomplete/ }], 'the reason is in the manifest');
  t.equal(m.attempts, 0, 'not a failed attempt');
  const start2 = await f.waitForEvent('generation-start', 30_000, (e) => e.generation === 2);
  await f.run.waitFor(() => f.api.requests.some((r) => r.sessionId === start2.session_id), 60_000, 'successor');
  const first2 = f.api.requests.find((r) => r.sessionId === start2.session_id)!;
  t.match(first2.lastUserText, TAKING_OVER);
  t.match(first2.lastUserText, /DEGRADED/, 'the successor is told the document is incomplete');
});

t.test('a model that never answers the request hits the writing deadline', async (t) => {
  const respond = bySession((req) =>
    HANDOFF_ASK.test(req.lastUserText) ? { kind: 'hang' } : text('worked', usageFor(55_000)),
  );
  const f = await startFlower({
    t,
    respond,
    prompt: 'go',
    flowerArgs: ['--window', '100k', '--review', '0', '--write-timeout', '4'],
  });
  const done = await f.waitForEvent('done', 90_000);
  t.equal(done.degraded, true);
  t.match(done.reason, /no handoff document within 4s/);
  await f.waitForEvent('generation-start', 30_000, (e) => e.generation === 2);
});

t.test('the 400 overflow path: degraded at once, new session', async (t) => {
  const respond = bySession((_req, i) => (i === 0 ? text('first turn', usageFor(30_000)) : promptTooLong()));
  const f = await startFlower({ t, respond, prompt: 'go', flowerArgs: ['--window', '200k', '--review', '0'] });
  await f.run.waitForScreen(/first turn/, 60_000);
  await f.run.waitFor(async () => /─{10,}\n❯\s*\n─{10,}/.test(await f.run.screenText()), 20_000, 'idle prompt');
  f.run.pty.write('one more');
  await f.run.waitForScreen('one more', 10_000);
  f.run.pty.write('\r');
  const done = await f.waitForEvent('done', 60_000);
  t.equal(done.degraded, true);
  t.match(done.reason, /overflow: .*prompt is too long/i);
  t.notOk(
    f.api.requests.some((r) => HANDOFF_ASK.test(r.lastUserText)),
    'no writing turn was attempted: the session cannot run one',
  );
  await f.waitForEvent('generation-start', 30_000, (e) => e.generation === 2);
  t.equal(f.manifest().attempts, 0);
});

t.test('a window below the start-up floor hits the brake with the seed message', async (t) => {
  const respond = (req: MockRequest): MockReply => {
    if (!req.isMain) return text('side');
    if (HANDOFF_ASK.test(req.lastUserText)) return text(handoffDoc('FLOOR'), usageFor(16_000));
    return text('started', usageFor(15_000)); // every session starts above a 10k line
  };
  const f = await startFlower({ t, respond, prompt: 'go', flowerArgs: ['--window', '20k', '--review', '0'] });
  const exit = await f.run.exited;
  t.equal(exit.exitCode, 3, 'the brake exit code');
  t.match(f.run.output(), /start-up floor; raise --window, or run with --no-handoff/);
  const stopped = f.events().find((e) => e.event === 'stopped');
  t.match(stopped, { exitCode: 3, message: /start-up floor/ });
  t.ok(f.events().filter((e) => e.event === 'generation-start').length <= 2, 'no restart storm');
});

t.test('--no-handoff leaves claude alone', async (t) => {
  const respond = (req: MockRequest): MockReply => (req.isMain ? text('big reply', usageFor(95_000)) : text('side'));
  const f = await startFlower({ t, respond, prompt: 'go', flowerArgs: ['--window', '100k', '--no-handoff'] });
  await f.run.waitForScreen(/big reply/, 60_000);
  const claudePid = execFileSync('pgrep', ['-P', String(f.run.pty.pid)])
    .toString()
    .trim()
    .split('\n')[0]!;
  const environ = readFileSync(`/proc/${claudePid}/environ`, 'utf8').split('\0');
  t.notOk(
    environ.some((v) => v.startsWith('DISABLE_AUTO_COMPACT=')),
    'auto-compact stays on',
  );
  t.notOk(
    environ.some((v) => v.startsWith('FLOWER_PTY_SOCKET=')),
    'no hook channel',
  );
  const cmdline = readFileSync(`/proc/${claudePid}/cmdline`, 'utf8').split('\0');
  t.notOk(cmdline.includes('--settings'), 'no settings injected');
  await new Promise((r) => setTimeout(r, 1500));
  t.notOk(
    f.api.requests.some((r) => HANDOFF_ASK.test(r.lastUserText)),
    'no handoff request above the line',
  );
  t.notOk(existsSync(f.documentPath), 'no document');
});
