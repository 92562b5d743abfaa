// The web face as the tests drive it: the BUILT `flower-pty web` in its own process (ended by pid at
// teardown), logged in through its one-time URL, and headless Chromium (playwright-core, Debian's
// chromium) with a fresh profile.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import type { Teardown } from '../helpers/real-claude.js';
import { oneRun } from '../helpers/run-servers.js';

export const CHROMIUM = process.env.FLOWER_PTY_CHROMIUM || '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface WebFace {
  url: string;
  base: string;
  token: string;
  port: number;
  child: ChildProcess;
  stderr(): string;
}

export async function startWeb(
  t: Teardown,
  o: { runtime: string; args?: string[]; env?: Record<string, string>; listen?: string },
): Promise<WebFace> {
  const child = spawn(process.execPath, [FLOWER_BIN, 'web', '--listen', o.listen ?? '127.0.0.1:0', ...(o.args ?? [])], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...o.env, XDG_RUNTIME_DIR: o.runtime },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`flower-pty web exited ${code}: ${err}`)));
  });
  const m = /^(https?:\/\/127\.0\.0\.1:(\d+))\/login#(\S+)$/.exec(url);
  if (!m) throw new Error(`not a login URL: ${url}`);
  return { url, base: m[1]!, port: Number(m[2]), token: m[3]!, child, stderr: () => err };
}

export async function openBrowser(t: Teardown, viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), 'flower-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    viewport,
    headless: true,
  });
  t.teardown(async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });
  return context;
}

/** logs the page in with the face's one-time URL; it lands on the dashboard */
export async function logIn(page: Page, web: WebFace): Promise<void> {
  await page.goto(web.url);
  await page.waitForURL(`${web.base}/`, { timeout: 15_000 });
}

/** the run of a live flower-pty (its only one) on the web face with input allowed, its page open in Chromium */
export async function openRunPage(
  t: Teardown,
  runtime: string,
): Promise<{ run: { id: string }; web: WebFace; context: BrowserContext; page: Page }> {
  const run = await oneRun(runtime);
  const web = await startWeb(t, { runtime, args: ['--allow-input'] });
  const context = await openBrowser(t);
  const page = await context.newPage();
  await logIn(page, web);
  await page.goto(`${web.base}/run/${run.id}`);
  return { run, web, context, page };
}

/** the text of the page's terminal (xterm.js's buffer), one line per row; empty before the page made it */
export function pageScreen(page: Page): Promise<string> {
  return page.evaluate(() => {
    const term = (
      window as unknown as {
        flowerTerm?: {
          buffer: {
            active: { length: number; getLine(i: number): { translateToString(trim: boolean): string } | undefined };
          };
        };
      }
    ).flowerTerm;
    // (the page's script makes its terminal a moment after the page loads: nothing shown yet)
    if (!term) return '';
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n');
  });
}

export async function waitForPageScreen(page: Page, needle: RegExp, ms: number): Promise<string> {
  const deadline = performance.now() + ms;
  for (;;) {
    const screen = await pageScreen(page);
    if (needle.test(screen)) return screen;
    if (performance.now() > deadline)
      throw new Error(`the page's terminal never showed ${needle}; it shows:\n${screen}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
