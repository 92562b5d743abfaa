// The cursor shape on the REAL claude's bytes in the run page: the editor claude runs on ctrl+g
// (test/fixtures/programs/fake-vim.sh: a bar in insert mode, a block on leaving it) sets the shape of the
// page's xterm.js, on a page open while it happens (the live stream) and on one opened while the editor
// is up (the run server's repaint), and the block the editor left is what the page keeps after it.
import t from 'tap';
import type { Page } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { text } from '../../src/mock/messages-api.js';
import { startFlower } from '../helpers/flower-run.js';
import { looksReady, tempRoot } from '../helpers/real-claude.js';
import { openRunPage, waitForPageScreen } from './web-helpers.js';

const EDITOR = join(import.meta.dirname, '..', 'fixtures', 'programs', 'fake-vim.sh');

// the shape DECSCUSR set on the page's terminal (xterm.js keeps it apart from its options); null: none set
function pageShape(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const term = (
      window as unknown as { flowerTerm: { _core: { coreService: { decPrivateModes: { cursorStyle?: string } } } } }
    ).flowerTerm;
    return term._core.coreService.decPrivateModes.cursorStyle ?? null;
  });
}

async function waitForShape(page: Page, shape: string, what: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  while ((await pageShape(page)) !== shape) {
    if (performance.now() > deadline)
      throw new Error(`the page's cursor never became a ${shape} (${what}): ${await pageShape(page)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

t.test("the editor claude runs on ctrl+g sets the page's cursor shape", async (t) => {
  const go = join(tempRoot(t, 'flower-cursor-go-'), 'editor-may-finish');
  const f = await startFlower({ t, env: { VISUAL: EDITOR, EDITOR, FAKE_VIM_GO: go }, respond: () => text('ok') });
  await f.run.waitFor(async () => looksReady(await f.run.screenText()), 90_000, 'claude idle');
  const { web, run, context, page } = await openRunPage(t, f.runtime);
  await waitForPageScreen(page, /❯/, 30_000);
  t.equal(await pageShape(page), null, 'no shape set before the editor');

  f.run.pty.write('\u0007');
  await waitForPageScreen(page, /FAKE-VIM editing/, 30_000);
  await waitForShape(page, 'bar', 'the live stream');
  t.pass("the editor's bar reaches the open page");
  const later = await context.newPage();
  await later.goto(`${web.base}/run/${run.id}`);
  await waitForPageScreen(later, /FAKE-VIM editing/, 30_000);
  await waitForShape(later, 'bar', 'the repaint');
  t.pass('a page opened while the editor is up gets the bar in its repaint');
  await later.close();

  writeFileSync(go, '');
  await waitForPageScreen(page, /❯\s+typed in the fake vim/, 30_000);
  await waitForShape(page, 'block', 'after the editor');
  t.pass("the block the editor left, with its text in claude's prompt");
});
