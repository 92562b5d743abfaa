// A run page in headless Chromium on the REAL claude: the page's xterm.js keeps claude's italic and
// 24-bit colour, measures widths with Unicode 11 as the run server does, makes claude's OSC 8 link
// clickable (its target shown first, opened in a new tab without the opener), on a page opened after claude
// drew it too (painted from the run server's screen), puts what claude's `/copy` copies in the browser's
// clipboard, and its key bar's shift+enter adds a newline to claude's prompt (claude pushed the kitty
// keyboard protocol: the page sends CSI 13;2u, as a terminal claude asked would).
import t from 'tap';
import type { Page } from 'playwright-core';
import { text, usageFor } from '../../src/mock/messages-api.js';
import { startFlower } from '../helpers/flower-run.js';
import { oneRun } from '../helpers/run-servers.js';
import { looksReady } from '../helpers/real-claude.js';
import { logIn, openBrowser, startWeb, waitForPageScreen } from './web-helpers.js';

t.test("claude's link, /copy and cell looks reach the page", async (t) => {
  let linkTarget = 'http://127.0.0.1:9/unset';
  const prompts: string[] = [];
  const f = await startFlower({
    t,
    // tap's FORCE_COLOR=0 and NO_COLOR would have claude draw no colour and no links; a modern terminal's
    // name has claude push the kitty keyboard protocol
    env: { FORCE_COLOR: '3', COLORTERM: 'truecolor', FORCE_HYPERLINK: '1', TERM_PROGRAM: 'WezTerm' },
    respond: (req) => {
      if (req.isMain) prompts.push(req.lastUserText ?? '');
      return req.isMain
        ? text(`Some *slanted words* here.\n\nOpen [the icon](${linkTarget}) now.`, usageFor(20_000))
        : text('side');
    },
  });
  await f.run.waitFor(async () => looksReady(await f.run.screenText()), 90_000, 'claude idle');
  const run = await oneRun(f.runtime);
  const web = await startWeb(t, { runtime: f.runtime, args: ['--allow-input'] });
  linkTarget = `${web.base}/assets/icon.svg`;
  const context = await openBrowser(t);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.base });
  const page = await context.newPage();
  await logIn(page, web);
  await page.goto(`${web.base}/run/${run.id}`);
  await waitForPageScreen(page, /❯/, 30_000);
  t.equal(
    await page.evaluate(
      () =>
        (window as unknown as { flowerTerm: { unicode: { activeVersion: string } } }).flowerTerm.unicode.activeVersion,
    ),
    '11',
    'Unicode 11 widths in the page',
  );

  // the prompt in two lines: the key bar's ⇧⏎ between them adds a newline, it does not send the first
  const modes = await page.evaluate(
    () => (window as unknown as { flowerKeyboard: { modes: { kitty: number } } }).flowerKeyboard.modes,
  );
  t.ok(modes.kitty > 0, `the page knows claude pushed the kitty keyboard protocol (flags ${modes.kitty})`);
  f.run.pty.write('show me');
  await waitForPageScreen(page, /show me/, 15_000);
  await page.locator('[data-key="shift-enter"]').click();
  await new Promise((r) => setTimeout(r, 500));
  f.run.pty.write('the');
  await waitForPageScreen(page, /the/, 15_000);
  // shift+enter typed on the page's own terminal (a keyboard, not the key bar) does the same
  await page.locator('#term .xterm-screen').click();
  await page.keyboard.press('Shift+Enter');
  await new Promise((r) => setTimeout(r, 500));
  f.run.pty.write('link');
  await waitForPageScreen(page, /link/, 15_000);
  t.same(
    prompts.filter((p) => /show me/.test(p)),
    [],
    'nothing sent to the model at the ⇧⏎',
  );
  await new Promise((r) => setTimeout(r, 300));
  f.run.pty.write('\r');
  await waitForPageScreen(page, /Open the icon now/, 60_000);
  await f.run.waitFor(async () => looksReady(await f.run.screenText()), 30_000, 'claude idle after the reply');
  t.match(
    prompts.find((p) => /show me/.test(p)) ?? '',
    /show me\r?\nthe\r?\nlink/,
    "the prompt claude sent has the newlines the key bar's ⇧⏎ and the page's shift+enter added",
  );

  // the cells: italic and a 24-bit colour somewhere in claude's reply, as claude drew them
  const looks = await page.evaluate(() => {
    const term = (
      window as unknown as {
        flowerTerm: {
          cols: number;
          buffer: {
            active: {
              length: number;
              getLine(
                i: number,
              ):
                | { getCell(x: number): { getChars(): string; isItalic(): number; isFgRGB(): boolean } | undefined }
                | undefined;
            };
          };
        };
      }
    ).flowerTerm;
    const buffer = term.buffer.active;
    let italic = '';
    let rgb = false;
    for (let y = 0; y < buffer.length; y++) {
      for (let x = 0; x < term.cols; x++) {
        const cell = buffer.getLine(y)?.getCell(x);
        if (!cell) continue;
        if (cell.isItalic()) italic += cell.getChars();
        if (cell.isFgRGB()) rgb = true;
      }
    }
    return { italic, rgb };
  });
  t.match(looks.italic, /slanted/, 'the emphasis is italic in the page');
  t.ok(looks.rgb, 'a 24-bit colour in the page');

  // the link: where "the icon" is on the page's screen, hovered and clicked; on this page (open when claude
  // drew it) and on one opened after (painted from the run server's screen, which carries the link)
  const shown: string[] = [];
  async function clickLink(on: Page, which: string): Promise<void> {
    const at = await on.evaluate(() => {
      const term = (
        window as unknown as {
          flowerTerm: {
            cols: number;
            rows: number;
            buffer: {
              active: {
                viewportY: number;
                getLine(i: number): { translateToString(trim: boolean): string } | undefined;
              };
            };
          };
        }
      ).flowerTerm;
      const buffer = term.buffer.active;
      const box = document.querySelector('#term .xterm-screen')!.getBoundingClientRect();
      for (let y = 0; y < term.rows; y++) {
        const x =
          buffer
            .getLine(buffer.viewportY + y)
            ?.translateToString(false)
            .indexOf('the icon') ?? -1;
        if (x >= 0)
          return { x: box.left + ((x + 2) * box.width) / term.cols, y: box.top + ((y + 0.5) * box.height) / term.rows };
      }
      return null;
    });
    t.ok(at, `the link is on the screen (${which})`);
    on.on('dialog', (dialog) => {
      shown.push(dialog.message());
      void dialog.accept();
    });
    const popup = context.waitForEvent('page', { timeout: 15_000 });
    await on.mouse.move(at!.x, at!.y);
    await new Promise((r) => setTimeout(r, 300));
    await on.mouse.click(at!.x, at!.y);
    const opened = await popup;
    await opened.waitForURL(linkTarget, { timeout: 15_000 });
    t.match(shown.join('\n'), linkTarget, `the target was shown before opening (${which})`);
    t.equal(await opened.evaluate(() => window.opener), null, `no opener (${which})`);
    await opened.close();
  }
  await clickLink(page, 'the page open when claude drew it');
  const later = await context.newPage();
  await later.goto(`${web.base}/run/${run.id}`);
  await waitForPageScreen(later, /Open the icon now/, 30_000);
  shown.length = 0;
  await clickLink(later, 'a page opened after claude drew it');
  await later.close();

  // /copy: the reply in the browser's clipboard
  f.run.pty.write('/copy');
  await new Promise((r) => setTimeout(r, 500));
  f.run.pty.write('\r');
  const deadline = performance.now() + 20_000;
  let clip = '';
  while (performance.now() < deadline && !/slanted words/.test(clip)) {
    await page.locator('#term').hover(); // a gesture, should the browser want one
    clip = await page.evaluate(() => navigator.clipboard.readText()).catch(() => '');
    await new Promise((r) => setTimeout(r, 200));
  }
  t.match(clip, /Some \*slanted words\* here\./, "claude's /copy landed in the browser's clipboard");
});
