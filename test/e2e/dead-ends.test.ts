// End to end, REAL claude against the mock API: the first session's shell calls fail; the request for the
// document lists every failure; the scripted document leaves one out, and flower-pty's facts name it, counted
// beside the review's countdown on the run's web page (Chromium); the successor runs that command again and
// `dead-end-repeated` is in the events file with it, on the page, and in the run's report.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { bash, text, usageFor, type MockRequest, type MockReply } from '../../src/mock/messages-api.js';
import { startFlower, HANDOFF_ASK, TAKING_OVER } from '../helpers/flower-run.js';
import { openRunPage } from '../web/web-helpers.js';

// Three shell calls that fail, then a reply that crosses the line (window 100k, handoff at 50k).
const FAILING = ['ls ./no-such-dir-h32', 'cat missing-h32.txt', 'ls --frobnicate-h32'];
// The writer names the first two and forgets the flag.
const DOC = [
  '## Doing',
  'Checking the toy folder.',
  '## Decided',
  'Plain shell only.',
  '## Dead ends',
  '- `ls no-such-dir-h32`: the folder was never made.',
  '- `cat missing-h32.txt`: no such file either.',
  '## Next',
  'Make the folder first.',
  '## Scene',
  'the project root',
].join('\n');

t.test('dead ends: listed to the writer, the forgotten one in the facts, the repeat told', async (t) => {
  let firstSession: string | undefined;
  let step = 0;
  let successorStep = 0;
  const respond = (req: MockRequest): MockReply => {
    if (!req.isMain) return text('side');
    firstSession ??= req.sessionId;
    if (req.sessionId === firstSession) {
      if (HANDOFF_ASK.test(req.lastUserText)) return text(DOC, usageFor(57_000));
      const i = step++;
      return i < FAILING.length
        ? bash(FAILING[i]!, usageFor(20_000 + i * 5_000))
        : text('three things failed', usageFor(55_000));
    }
    // The successor goes round the forgotten one again, then stops.
    return successorStep++ === 0
      ? bash('ls --frobnicate-h32 2>&1', usageFor(12_000))
      : text('successor stops here', usageFor(13_000));
  };
  const f = await startFlower({
    t,
    respond,
    prompt: 'look around the toy folder',
    flowerArgs: ['--window', '100k', '--review', '60'],
  });
  const { context, page } = await openRunPage(t, f.runtime);

  // The request named every failure, the most tried first.
  const ask = await f.api.waitForRequest((r) => HANDOFF_ASK.test(r.lastUserText), 120_000);
  t.match(ask.lastUserText, /account for each one/);
  for (const command of FAILING)
    t.match(ask.lastUserText, `\`${command}\` (Bash) failed once`, `the request lists ${command}`);

  // The facts block names the one the document left out, and only it.
  const checked = await f.waitForEvent('dead-ends-checked', 60_000);
  t.match(checked, {
    generation: 1,
    seen: 3,
    byWriter: 2,
    byFacts: 1,
    notAtAll: 0,
    missing: ['ls --frobnicate-h32'],
    degraded: false,
  });
  await f.waitForEvent('review', 30_000);
  const doc = readFileSync(f.documentPath, 'utf8');
  t.match(
    doc,
    /- failed in this session, not in the document: `ls --frobnicate-h32` \(Bash\) failed once at \d\d:\d\d:\d\d: exit \d+/,
  );
  t.equal(doc.match(/not in the document/g)?.length, 1, 'what the writer named is not added');

  // The review shows the count beside the countdown on the page; hold, look, release.
  await page.locator('#hold').click();
  await page.waitForFunction(
    () => document.getElementById('deadends')?.textContent === '1 failure not in the document',
    undefined,
    { timeout: 30_000 },
  );
  t.pass('the page shows "1 failure not in the document" in review');
  await page.locator('#release').click();

  // The successor repeats the forgotten command: told, not stopped.
  const first2 = await f.api.waitForRequest(
    (r) => r.isMain && r.sessionId !== firstSession && TAKING_OVER.test(r.lastUserText),
    120_000,
  );
  t.match(first2.lastUserText, /not in the document: `ls --frobnicate-h32`/, 'the successor was seeded with the facts');
  const repeated = await f.waitForEvent('dead-end-repeated', 60_000);
  const line = doc.split('\n').findIndex((l) => l.includes('not in the document: `ls --frobnicate-h32`')) + 1;
  t.match(repeated, { generation: 2, tool: 'Bash', call: 'ls --frobnicate-h32 2>&1', ok: false, line });
  t.match(repeated.deadEnd, /ls --frobnicate-h32/);
  await f.api.waitForRequest(
    (r) =>
      r.isMain &&
      r.sessionId !== firstSession &&
      /successor stops here|frobnicate/.test(r.allText) &&
      r.lastUserText.includes('frobnicate'),
    60_000,
  );
  await page.waitForFunction(
    () => document.getElementById('deadends')?.textContent === '1 dead end repeated',
    undefined,
    { timeout: 30_000 },
  );
  t.pass('the page shows "1 dead end repeated"');

  // The run's report, live, opened from the run page as a person opens it: the counts per generation.
  const [report] = await Promise.all([
    context.waitForEvent('page', { timeout: 30_000 }),
    page.locator('#report').click(),
  ]);
  await report.waitForLoadState();
  const cells = await report.locator('table.timeline td.deadends').allTextContents();
  t.equal(
    cells[0],
    "3 failed · 2 in the document by its writer · 1 by flower-pty's facts · 0 not at all · 1 repeated by its successor",
  );
  t.match(
    await report.locator('body').textContent(),
    /#1 3 failed · 2 in the document by its writer · \d+ listed in its document/,
  );
});
