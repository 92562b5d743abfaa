// The web face as a person uses it, in headless Chromium, on the REAL claude against the mock: the
// dashboard lists the runs (the one waiting for a permission first, whatever its age), a run page
// shows claude's screen, keys and the compose box reach claude, allow lets a Bash command run and
// deny refuses one; `-d` starts a run with no terminal. FLOWER_PTY_WEB_SHOTS=DIR keeps the screenshots.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { markerReplies } from '../../src/mock/fault-markers.js';
import { startFlower, FLOWER_BIN } from '../helpers/flower-run.js';
import { liveRuns } from '../helpers/run-servers.js';
import { looksReady, testClaude } from '../helpers/real-claude.js';
import { CHROMIUM, logIn, openBrowser, startWeb, waitForPageScreen } from './web-helpers.js';

const shots = process.env.FLOWER_PTY_WEB_SHOTS ?? null;
if (shots) mkdirSync(shots, { recursive: true });

async function screenshot(page: Page, name: string): Promise<void> {
  const bytes = await page.screenshot({ ...(shots ? { path: join(shots, name) } : {}) });
  if (bytes.length < 10_000) throw new Error(`${name}: a blank screenshot (${bytes.length} bytes)`);
}

t.test('Chromium is there', async (t) => {
  t.ok(
    existsSync(CHROMIUM),
    `Chromium at ${CHROMIUM} (apt-get install -y chromium, as .ci/run does; or set FLOWER_PTY_CHROMIUM)`,
  );
});

t.test(
  'dashboard, run page, keys, compose, allow and deny, with input allowed; -d starts a run with no terminal',
  async (t) => {
    const f = await startFlower({
      t,
      respond: markerReplies(),
      prompt: 'make a file MOCK_TOUCH=x',
      claudeArgs: ['--permission-mode', 'default'],
      flowerArgs: ['--window', '200k'],
    });
    // An older run, started with no terminal at all: it is idle at its prompt, so it comes second.
    const detached = spawnSync(
      process.execPath,
      [
        FLOWER_BIN,
        '-d',
        '--claude',
        testClaude(),
        '--workbench',
        join(f.sandbox.root, 'wb2'),
        'say hello',
        '--',
        ...f.sandbox.claudeArgs,
      ],
      {
        cwd: f.sandbox.projectDir,
        env: f.sandbox.env as NodeJS.ProcessEnv,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    t.equal(detached.status, 0, `-d exits 0 (${detached.stderr})`);
    const idleId = detached.stdout.trim();
    t.match(idleId, /^[a-z0-9]{6}$/, '-d prints the run id on stdout');
    t.match(
      detached.stderr,
      // flower-pty as typed in the project folder: the bin by its path there (flower-pty.js)
      new RegExp(
        `run ${idleId} started with no terminal .*flower-pty(\\.js)? attach ${idleId}.*flower-pty(\\.js)? web`,
      ),
    );
    await f.run.waitForScreen(/Do you want to proceed\?/, 90_000);
    const runs = await liveRuns(f.runtime);
    t.equal(runs.length, 2);
    const busy = runs.find((r) => r.id !== idleId)!;
    t.equal(runs.find((r) => r.id === idleId)?.clients, 0, 'nobody is attached to the -d run');

    const web = await startWeb(t, { runtime: f.runtime, args: ['--allow-input'] });
    const context = await openBrowser(t);
    await context.grantPermissions(['notifications'], { origin: web.base });
    // The browser's notifications, recorded as the page makes them (headless Chromium shows none).
    await context.addInitScript(() => {
      const notes: string[] = [];
      (window as unknown as { __notes: string[] }).__notes = notes;
      const Real = window.Notification;
      class Recorded extends Real {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          notes.push(`${title}: ${options?.body ?? ''}`);
        }
      }
      Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
      window.Notification = Recorded as typeof Notification;
    });
    const dashboard = await context.newPage();
    const errors: string[] = [];
    dashboard.on('pageerror', (e) => errors.push(String(e)));
    const requests: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    await logIn(dashboard, web);
    await dashboard.waitForFunction(
      (id) =>
        document.querySelector('#runs li')?.getAttribute('data-id') === id &&
        document.querySelectorAll('#runs li').length === 2,
      busy.id,
      { timeout: 30_000 },
    );
    const rows = await dashboard.locator('#runs li').allTextContents();
    t.match(rows[0], /waiting for your permission: Bash touch x/, 'the run waiting for a permission comes first');
    t.match(rows[0], /gen 1\/8/);
    t.match(rows[1], new RegExp(idleId), 'the older, idle run second');
    // claude says it waits (its idle_prompt notification) about 60 s after its turn ended, and the -d run's
    // turn may have ended just now: a minute is not enough to wait (CI timed out at 60 s once)
    await dashboard.waitForFunction(
      () => /idle at its prompt/.test(document.querySelectorAll('#runs li')[1]?.textContent ?? ''),
      undefined,
      { timeout: 150_000 },
    );
    await screenshot(dashboard, 'web-dashboard.png');

    const phone = await context.newPage();
    phone.on('pageerror', (e) => errors.push(String(e)));
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${web.base}/run/${busy.id}`);
    const pageText = await waitForPageScreen(phone, /Do you want to proceed\?/, 30_000);
    const terminalLines = (await f.run.screenText())
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => /touch x|Do you want to proceed/.test(l));
    t.ok(terminalLines.length >= 2, 'the attached terminal shows the permission prompt');
    for (const line of terminalLines)
      t.ok(
        pageText.split('\n').some((l) => l.trimEnd() === line),
        `the page shows the same line: ${line.trim()}`,
      );
    t.ok(await phone.locator('#permission').isVisible(), 'the permission bar is shown');
    t.match(await phone.locator('#permtext').textContent(), /Bash touch x/);
    await screenshot(phone, 'web-run-phone.png');

    await phone.locator('#approve').click();
    await f.run.waitFor(() => existsSync(join(f.sandbox.projectDir, 'x')), 30_000, 'the approved command to run');
    t.pass('allow ran the Bash command');
    await waitForPageScreen(phone, /Mock reply 2/, 30_000);
    await f.run.waitFor(async () => looksReady(await f.run.screenText()), 30_000, 'claude idle again');

    // Keys typed on the page's terminal, then Enter from the key bar.
    await phone.locator('#term').click();
    await phone.keyboard.type('keys from the page');
    await f.run.waitForScreen(/keys from the page/, 15_000);
    await phone.locator('[data-key="enter"]').click();
    await f.api.waitForRequest((r) => r.isMain && /keys from the page/.test(r.lastUserText), 30_000);
    t.pass('a key typed in the page reached claude');
    await f.run.waitFor(async () => looksReady(await f.run.screenText()), 30_000, 'claude idle again');

    // The compose box: one bracketed paste, then Enter; claude asks again; deny refuses.
    await phone.locator('#composetext').fill('and now MOCK_TOUCH=y');
    await phone.locator('#compose button[type="submit"]').click();
    await phone.locator('#permission').waitFor({ state: 'visible', timeout: 60_000 });
    t.match(await phone.locator('#permtext').textContent(), /Bash touch y/);
    await phone.waitForFunction(
      () =>
        (window as unknown as { __notes: string[] }).__notes.some((n) =>
          /waiting for your permission: Bash touch y/.test(n),
        ),
      undefined,
      { timeout: 15_000 },
    );
    t.pass('the open page told the person with a browser notification');
    await phone.locator('#deny').click();
    await phone.locator('#permission').waitFor({ state: 'hidden', timeout: 30_000 });
    await f.run.waitFor(async () => looksReady(await f.run.screenText()), 30_000, 'claude idle after the refusal');
    t.notOk(existsSync(join(f.sandbox.projectDir, 'y')), 'deny refused the command');
    t.same(errors, [], 'no page error');
    t.same(
      requests.filter((u) => !u.startsWith(web.base) && !u.startsWith(web.base.replace('http', 'ws'))),
      [],
      'no request anywhere but this server',
    );
  },
);
