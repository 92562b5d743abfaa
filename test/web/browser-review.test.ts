// The web face and the handoff document, in headless Chromium on the REAL claude: during review the
// document is shown as text (its <script> too), a save made against an older version is refused with
// the newer text shown, and an edit saved in the page reaches the successor's first prompt. Once it
// has handed off, the page's lineage shows both generations with the first one's document (as text),
// and the run's report is served live, under the web face's CSP, as `flower-pty report` makes it.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { text, usageFor, type MockRequest, type MockReply } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, HANDOFF_ASK, TAKING_OVER } from '../helpers/flower-run.js';
import { openRunPage } from './web-helpers.js';

t.test(
  'the document in review: shown as text, a stale save refused with the newer text, an edit reaching the successor',
  async (t) => {
    let firstSession: string | undefined;
    const respond = (req: MockRequest): MockReply => {
      if (!req.isMain) return text('side');
      firstSession ??= req.sessionId;
      if (req.sessionId === firstSession) {
        if (HANDOFF_ASK.test(req.lastUserText))
          return text(handoffDoc('<script>window.__pwned = 1</script> SCRIPT-MARK'), usageFor(57_000));
        return text('first turn done', usageFor(55_000));
      }
      if (TAKING_OVER.test(req.lastUserText)) return text('successor here, continuing', usageFor(12_000));
      return text('gen two', usageFor(13_000));
    };
    const f = await startFlower({
      t,
      respond,
      prompt: 'work until the handoff',
      flowerArgs: ['--window', '100k', '--review', '30'],
    });
    const { run, web, context, page } = await openRunPage(t, f.runtime);
    await page.locator('#editor').waitFor({ state: 'visible', timeout: 120_000 });
    await page.locator('#hold').click();
    await page.waitForFunction(() => /held/.test(document.getElementById('state')?.textContent ?? ''), undefined, {
      timeout: 15_000,
    });
    const shown = await page.locator('#doc').textContent();
    t.match(shown, /<script>window\.__pwned = 1<\/script> SCRIPT-MARK/, "the document's <script> is shown as text");
    t.equal(await page.locator('#doc script').count(), 0, 'no script element was made of it');
    t.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'nothing ran');
    // A page opened while the review is on: its edit box holds the document (it was empty).
    const late = await context.newPage();
    await late.goto(`${web.base}/run/${run.id}`);
    await late.locator('#editor').waitFor({ state: 'visible', timeout: 30_000 });
    await late.waitForFunction(
      () => /SCRIPT-MARK/.test((document.getElementById('doctext') as HTMLTextAreaElement | null)?.value ?? ''),
      undefined,
      { timeout: 15_000 },
    );
    t.pass('a page opened during the review shows the document in its edit box');
    await late.close();

    // Someone edits the file meanwhile: the page's save, made against the older text, is refused.
    const onDisk = readFileSync(f.documentPath, 'utf8');
    writeFileSync(f.documentPath, onDisk.replace(/(## Next[^\n]*\n)/, '$1DISK-EDIT-MARK\n'));
    await page.waitForFunction(
      () => /DISK-EDIT-MARK/.test(document.getElementById('doc')?.textContent ?? ''),
      undefined,
      { timeout: 15_000 },
    );
    const mine = (await page.locator('#doctext').inputValue()).replace(/(## Dead ends[^\n]*\n)/, '$1PAGE-EDIT-MARK\n');
    await page.locator('#doctext').fill(mine);
    await page.locator('#save').click();
    await page.locator('#newer').waitFor({ state: 'visible', timeout: 15_000 });
    t.match(await page.locator('#saveinfo').textContent(), /changed since you opened it/);
    t.match(await page.locator('#newer').textContent(), /DISK-EDIT-MARK/, 'the newer text is shown');
    t.notMatch(readFileSync(f.documentPath, 'utf8'), /PAGE-EDIT-MARK/, 'nothing was written');
    t.equal(await page.locator('#doctext').inputValue(), mine, "the page's own edit is kept in its box");

    // Merged onto the newer text and saved again: accepted, then released.
    const merged = readFileSync(f.documentPath, 'utf8').replace(/(## Dead ends[^\n]*\n)/, '$1PAGE-EDIT-MARK\n');
    await page.locator('#doctext').fill(merged);
    await page.locator('#save').click();
    await page.waitForFunction(
      () => /^saved:/.test(document.getElementById('saveinfo')?.textContent ?? ''),
      undefined,
      { timeout: 15_000 },
    );
    t.match(readFileSync(f.documentPath, 'utf8'), /PAGE-EDIT-MARK[\s\S]*DISK-EDIT-MARK/, "the page's save is on disk");
    await page.locator('#release').click();
    const first = await f.api.waitForRequest(
      (r) => r.isMain && r.sessionId !== firstSession && TAKING_OVER.test(r.lastUserText),
      120_000,
    );
    t.match(first.lastUserText, /PAGE-EDIT-MARK/, "the edit saved in the page reached the successor's first prompt");
    t.match(first.lastUserText, /DISK-EDIT-MARK/);

    // The lineage so far: the page reloads it when the generation changes.
    await page.waitForFunction(() => document.querySelectorAll('#lineage details.gen').length === 2, undefined, {
      timeout: 60_000,
    });
    const gens = await page.locator('#lineage details.gen summary').allTextContents();
    t.match(gens[0], /^gen 1 · handed off/, 'generation 1, ended by its handoff');
    t.match(gens[1], /^gen 2 · still running/, 'generation 2, running');
    await page.locator('#lineage details.gen[data-gen="1"] summary').click();
    const firstDoc = await page.locator('#lineage details.gen[data-gen="1"] pre').textContent();
    t.match(firstDoc, /<script>window\.__pwned = 1<\/script> SCRIPT-MARK/, "generation 1's document, as text");
    t.match(firstDoc, /PAGE-EDIT-MARK/, 'as the review left it');
    t.equal(await page.locator('#lineage script').count(), 0, 'no script element was made of it');

    // The report page, live: fetched with the page's secret and shown from the page's memory (a blob URL of
    // this origin), under the same CSP as every page of the face; its inline style applies, nothing runs.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __csp: string[] }).__csp = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const [report] = await Promise.all([
      context.waitForEvent('page', { timeout: 30_000 }),
      page.locator('#report').click(),
    ]);
    await report.waitForLoadState();
    t.match(report.url(), new RegExp(`^blob:${web.base}/`), "a blob of the face's own origin");
    t.match(await report.locator('h1').textContent(), /flower-pty report/);
    const body = await report.locator('body').textContent();
    t.match(body, /<script>window\.__pwned = 1<\/script> SCRIPT-MARK/, 'the document shown as text in the report');
    t.equal(await report.locator('script').count(), 0, 'the report page holds no script');
    t.equal(
      await report.evaluate(() => getComputedStyle(document.body).maxWidth),
      '1040px',
      'its inline style applies under the CSP',
    );
    t.equal(await report.locator('table.timeline tbody tr').count(), 2, 'both generations in its timeline');
    t.equal(await report.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined, 'nothing ran');
    t.same(await report.evaluate(() => (window as unknown as { __csp: string[] }).__csp), [], 'no CSP violation');
    const inlineRan = await report.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inline = 1';
      document.body.append(script);
      return (window as unknown as { __inline?: number }).__inline;
    });
    t.equal(inlineRan, undefined, "the face's CSP holds in it: an inline script does not run");
    const unauthenticated = await fetch(`${web.base}/api/run/${run.id}/report`);
    t.equal(unauthenticated.status, 401, 'the report needs the login');
  },
);
