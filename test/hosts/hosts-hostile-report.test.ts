// A host in the person's list that answers `report --json` with hostile models, against a real sshd on
// loopback, drawn in headless Chromium: the page `report HOST:ID` writes and the web face's report tab of
// the remote run hold no element, script run or navigation of the host's making (markup in every string
// is drawn as text); a model whose numbers are markup (a generation's n, its turns) is refused in one line
// naming the host, by the command and by the web face.
import t, { type Test } from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { startFleet } from '../../scripts/ssh-fleet.mjs';
import { get } from './web-request.js';
import { startFakeRun } from '../helpers/wire-server.js';
import { sleep } from '../helpers/poll.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { fullModel, hostileStrings, markup } from '../helpers/report-models.js';
import { logIn, openBrowser, startWeb } from '../web/web-helpers.js';
import { openSocketDir } from '../../src/server/socket-dir.js';
import { WIRE_VERSION } from '../../src/server/wire.js';

const root = mkdtempSync(join(tmpdir(), 'flower-hostile-report-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

// Where the host's markup would send the browser: any request here is a failure.
const hits: string[] = [];
const trap = createServer((req, res) => (hits.push(req.url ?? ''), res.end('trapped')));
await new Promise<void>((r) => trap.listen(0, '127.0.0.1', () => r()));
t.teardown(() => trap.close());
const TRAP = `http://127.0.0.1:${(trap.address() as { port: number }).port}/`;
const MARKUP = markup(TRAP);

const HOSTILE = `#!/bin/sh\ncase "$1" in ls) cat "$HOME/ls.json";; report) cat "$HOME/report.json";; esac\n`;
const fleet = await startFleet(t, root, { evil: { script: HOSTILE }, shape: { script: HOSTILE } });
// each host's one run: a real run socket (the web face forwards it), listed and reported by the host's script
for (const [host, id, model] of [
  ['evil', 'eeee0001', hostileStrings(MARKUP)],
  [
    'shape',
    'ssss0001',
    {
      ...fullModel,
      turns: MARKUP,
      generations: [{ ...fullModel.generations[0], n: MARKUP, turns: '<img src=x onerror=alert(1)>' }],
    },
  ],
] as const) {
  const home = fleet.hosts[host]!.home;
  const run = await startFakeRun(await openSocketDir({ XDG_RUNTIME_DIR: fleet.hosts[host]!.runtime }), id, {
    info: { cwd: `/srv/${host}`, workbench: `/srv/${host}/.flower` },
  });
  t.teardown(() => run.close());
  writeFileSync(
    join(home, 'ls.json'),
    JSON.stringify({ wire: WIRE_VERSION, runs: [{ ...run.info, socket: run.socket }] }),
  );
  writeFileSync(join(home, 'report.json'), JSON.stringify(model));
}

const local = join(root, 'local');
const runtime = join(local, 'run');
mkdirSync(runtime, { recursive: true, mode: 0o700 });
mkdirSync(join(local, 'config', 'flower-pty'), { recursive: true });
writeFileSync(join(local, 'config', 'flower-pty', 'config.json'), JSON.stringify({ hosts: ['evil', 'shape'] }));
const env = { ...fleet.env, HOME: local, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: join(local, 'config') };

function flower(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [FLOWER_BIN, ...args], { env, cwd: local, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** a loaded page holds and did nothing of the host's making: no element, script run, navigation or request */
async function nothingMadeByHost(t: Test, page: Page, url: string): Promise<void> {
  // a refresh of 0 s would have gone by now; an image's error would have run
  await sleep(1_500);
  t.equal(page.url(), url, 'no navigation (no refresh moved the page)');
  const elements = [
    await page.locator('script').count(),
    await page.locator('img').count(),
    await page.locator('meta[http-equiv]').count(),
  ];
  t.same(elements, [0, 0, 0], 'no script, image or refresh element');
  t.equal(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null),
    null,
    'no script ran',
  );
  t.ok(
    ((await page.locator('body').textContent()) ?? '').includes('<script>window.__pwned=1</script>'),
    "the host's markup is there as text",
  );
  t.same(hits, [], 'nothing reached the address the markup names');
}

const browser = await openBrowser(t);

t.test('report HOST:ID: the written page, hostile in every string, runs nothing and goes nowhere', async (t) => {
  const file = join(local, 'evil.html');
  const r = await flower(['report', 'evil:eeee0001', '-o', file]);
  t.equal(r.code, 0, r.stderr);
  const page = await browser.newPage();
  const url = pathToFileURL(file).href;
  await page.goto(url, { waitUntil: 'load' });
  await nothingMadeByHost(t, page, url);
  await page.close();
});

t.test('report HOST:ID: markup in a number refused in one line naming the host', async (t) => {
  const file = join(local, 'shape.html');
  const r = await flower(['report', 'shape:ssss0001', '-o', file]);
  t.equal(r.code, 2, 'a usage error');
  t.match(
    r.stderr,
    /^flower-pty: report: shape answered with something that is not a report this flower-pty draws: turns is not a finite number/,
  );
  t.equal(r.stderr.trim().split('\n').length, 1, 'one line');
  t.notOk(existsSync(file), 'no page written');
});

t.test("the web face's report tab of a remote run: nothing of the host's making", async (t) => {
  const web = await startWeb(t, {
    runtime,
    env: { HOME: local, XDG_CONFIG_HOME: join(local, 'config'), FLOWER_PTY_SSH_CONFIG: fleet.config },
  });
  const page = await browser.newPage();
  await logIn(page, web);
  await page.waitForFunction(() => document.querySelectorAll('#runs li').length === 2, undefined, { timeout: 30_000 });
  await page.goto(`${web.base}/run/${encodeURIComponent('evil:eeee0001')}`);
  const popup = browser.waitForEvent('page', { timeout: 30_000 });
  await page.waitForFunction(() => document.getElementById('report') !== null);
  await page.evaluate(() => document.getElementById('report')!.click());
  const tab = await popup;
  await tab.waitForLoadState('load');
  const url = tab.url();
  t.match(url, /^blob:/, 'the report tab');
  await tab.waitForFunction(() => document.body.textContent?.includes('flower-pty report'), undefined, {
    timeout: 30_000,
  });
  await nothingMadeByHost(t, tab, url);

  // the model with markup in its numbers: the web face says why in one line naming the host
  const login = await page.evaluate(() => sessionStorage.getItem('flower-secret'));
  const cookie = (await browser.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const refused = await get(web, `/api/run/${encodeURIComponent('shape:ssss0001')}/report`, {
    Cookie: cookie,
    'x-flower-secret': login ?? '',
  });
  t.equal(refused.status, 404);
  t.match(
    refused.body,
    /shape answered with something that is not a report this flower-pty draws: turns is not a finite number/,
  );
  t.notMatch(refused.body, /<script/, 'and none of the markup');
});
