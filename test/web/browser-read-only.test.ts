// A read-only web face (no --allow-input), in headless Chromium on the REAL claude: no key bar, and a
// page's socket that sends keys, an approval or an end anyway is refused by the server itself. Three
// pages on one run are one watcher connection to its run server. A page whose socket drops reconnects,
// repainted from the run server's screen.
import t from 'tap';
import { markerReplies } from '../../src/mock/fault-markers.js';
import { startFlower } from '../helpers/flower-run.js';
import { liveRuns, oneRun } from '../helpers/run-servers.js';
import { looksReady } from '../helpers/real-claude.js';
import { logIn, openBrowser, pageScreen, startWeb, waitForPageScreen } from './web-helpers.js';

t.test('read-only: no key bar, and the server itself refuses keys and approvals', async (t) => {
  const f = await startFlower({ t, respond: markerReplies(), prompt: 'say hello' });
  await f.run.waitFor(
    async () => looksReady(await f.run.screenText()) && /Mock reply 1/.test(await f.run.screenText()),
    90_000,
    'claude idle',
  );
  const run = await oneRun(f.runtime);
  const web = await startWeb(t, { runtime: f.runtime });
  const context = await openBrowser(t);
  const page = await context.newPage();
  await logIn(page, web);
  await page.goto(`${web.base}/run/${run.id}`);
  await waitForPageScreen(page, /Mock reply 1/, 30_000);
  t.ok(await page.locator('#inputbar').isHidden(), 'no key bar or compose box');
  t.ok(await page.locator('#approve').isDisabled(), 'the buttons are disabled');
  // The page's buttons are not the protection: a socket that sends anyway is refused by the server.
  const answers = await page.evaluate(async (id) => {
    // the page's own login: its secret, as the page offers it
    const ws = new WebSocket(`ws://${location.host}/ws/run/${id}`, [
      'flower',
      `flower.${sessionStorage.getItem('flower-secret')}`,
    ]);
    const results: Array<{ of: string; ok: boolean; problem?: string }> = [];
    await new Promise((r) => ws.addEventListener('open', r));
    const done = new Promise<void>((resolve) => {
      ws.addEventListener('message', (event) => {
        const m = JSON.parse(event.data as string);
        if (m.t === 'result') results.push(m);
        if (results.length === 4) resolve();
      });
    });
    ws.send(JSON.stringify({ t: 'input', data: 'REFUSED-KEYS' }));
    ws.send(JSON.stringify({ t: 'compose', text: 'REFUSED-COMPOSE' }));
    ws.send(JSON.stringify({ t: 'approve' }));
    ws.send(JSON.stringify({ t: 'end' }));
    await done;
    ws.close();
    return results;
  }, run.id);
  t.equal(answers.length, 4);
  for (const a of answers)
    t.match(a, { ok: false, problem: /read-only.*--allow-input/ }, `${a.of} refused by the server`);
  await page.locator('#term').click();
  await page.keyboard.type('PAGE-TYPED');
  f.run.pty.write('typed in the terminal\r');
  const next = await f.api.waitForRequest((r) => r.isMain && /typed in the terminal/.test(r.lastUserText), 30_000);
  t.notMatch(next.lastUserText, /REFUSED|PAGE-TYPED/, 'nothing the read-only page sent reached claude');
  t.equal((await liveRuns(f.runtime)).length, 1, 'the run was not ended');
  t.match(await pageScreen(page), /typed in the terminal/, 'the page still watches');

  // More pages on the same run: each painted and streamed, the run server still sees one watcher.
  const more = [await context.newPage(), await context.newPage()];
  for (const p of more) {
    await p.goto(`${web.base}/run/${run.id}`);
    await waitForPageScreen(p, /typed in the terminal/, 30_000);
  }
  const [seen] = await liveRuns(f.runtime);
  t.equal(seen?.watchers, 1, 'three pages, one watcher connection to the run');
  t.equal(seen?.clients, 1, 'and the terminal is still the only client that sizes claude');
  f.run.pty.write('for all three pages');
  for (const p of [page, ...more]) await waitForPageScreen(p, /for all three pages/, 15_000);
  t.pass('what claude echoes reaches every page');

  // A socket that drops (here: a frame the server does not take, which closes it) is opened again, and the
  // page repainted from the run server's screen: its own terminal, wiped first, shows claude again.
  await page.evaluate(() => {
    (window as unknown as { flowerTerm: { reset(): void } }).flowerTerm.reset();
    (window as unknown as { flowerSend: (m: object) => void }).flowerSend({ t: 'not-a-message' });
  });
  await waitForPageScreen(page, /for all three pages/, 15_000);
  t.notMatch(await page.locator('#notice').textContent(), /disconnected/, 'reconnected and repainted');
});
