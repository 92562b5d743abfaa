#!/usr/bin/env node
// The web face measured: a key sent by a run page to its echo parsed by the page's own xterm.js
// (Chromium driven here, the key path from the page's socket on: web server, run server, claude's pty
// and back), the first frame of a run page (navigation until the terminal shows the screen), and the
// web server's idle CPU and memory with two pages open (a dashboard and a run page). The child is cat
// in a pty, as in scripts/bench-terminal.mjs; the references (flower-pty attach, tmux) are measured
// there in the same run by scripts/bench.mjs. Alone: node scripts/bench-web.mjs [keys] [idle seconds]
import { spawn } from '@lydell/node-pty';
import { spawn as spawnProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { cpuOf, endServers, rssOf } from './bench-terminal.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const FLOWER = join(REPO, 'bin', 'flower-pty.js');
const CHROMIUM = process.env.FLOWER_PTY_CHROMIUM || '/usr/bin/chromium';
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
const CAT_KEYS = `#!/bin/sh\nprintf 'ready\\r\\n'\nexec cat\n`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A process's CPU time in seconds to the nanosecond, all its threads (the scheduler's own count,
// /proc/<pid>/task/*/schedstat): an idle web server spends a few ms a minute, under the 10 ms tick
// that utime and stime count in. A thread that ends meanwhile takes its share with it (none does when idle).
function cpuNs(pid) {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e9;
  } catch {
    return cpuOf(pid);
  }
}
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// Returns { keys: { p50, p99, count }, firstFrameMs, firstFrameOutsideMs, firstFrameSteps: { html, module, opened, parsed,
// painted, socket } (ms from the page's navigation start, medians), idle: { cpu, seconds, percent, rss } }
// or { error }.
// `webEnv`: more of the web server's environment (scripts/bench-hosts.mjs gives it hosts to follow).
export async function webBench({ keys = 200, idleS = 30, frames = 5, webEnv = {} } = {}) {
  if (!existsSync(CHROMIUM)) return { error: `no Chromium at ${CHROMIUM} (apt-get install -y chromium)` };
  const dir = mkdtempSync(join(tmpdir(), 'flower-bench-web-'));
  const runtime = join(dir, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  const prog = join(dir, 'cat.sh');
  writeFileSync(prog, CAT_KEYS);
  chmodSync(prog, 0o755);
  const env = {
    ...process.env,
    TERM: 'xterm-256color',
    HOME: dir,
    CLAUDE_CONFIG_DIR: join(dir, 'cfg'),
    XDG_RUNTIME_DIR: runtime,
  };
  const terminal = spawn(
    process.execPath,
    [FLOWER, '--plain', '--no-handoff', '--no-workbench', '--no-notify', '--claude', prog],
    { name: 'xterm-256color', cols: 120, rows: 40, cwd: dir, env },
  );
  let out = '';
  terminal.onData((d) => (out += d).length > 8192 && (out = out.slice(-4096)));
  let web = null;
  let context = null;
  try {
    for (let i = 0; i < 400 && !out.includes('ready'); i++) await sleep(50);
    if (!out.includes('ready')) throw new Error('the run did not start');
    web = spawnProcess(process.execPath, [FLOWER, 'web', '--listen', '127.0.0.1:0', '--allow-input'], {
      env: { ...env, ...webEnv },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const url = await new Promise((resolve, reject) => {
      let text = '';
      web.stdout.on('data', (d) => {
        text += d;
        if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
      });
      web.once('exit', () => reject(new Error('flower-pty web exited')));
    });
    const base = url.slice(0, url.indexOf('/login'));
    const profile = join(dir, 'chromium');
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ARGS,
      viewport: { width: 1280, height: 800 },
      headless: true,
    });
    const dashboard = await context.newPage();
    await dashboard.goto(url);
    await dashboard.waitForURL(`${base}/`);
    await dashboard.waitForFunction(() => document.querySelectorAll('#runs li').length === 1);
    const id = await dashboard.locator('#runs li').first().getAttribute('data-id');
    const page = await context.newPage();

    // First frame: navigation until the page's terminal holds the screen's text, `frames` times,
    // timed from here; and each step as the page marks it, from its navigation's start: the HTML in
    // (it carries the screen), the modules run, the terminal open, the screen parsed, then painted
    // (the frame after it), and the socket open (which the first frame does not wait for).
    const firstFrames = [];
    const steps = [];
    for (let i = 0; i < frames; i++) {
      // from the dashboard each time, as a person opens a run: the figure is this page's, not the
      // teardown of the run page before it
      await page.goto(`${base}/`);
      await page.waitForFunction(() => document.querySelectorAll('#runs li').length === 1);
      const t0 = performance.now();
      await page.goto(`${base}/run/${id}`, { waitUntil: 'commit' });
      await page.waitForFunction(
        () => {
          const b = window.flowerTerm?.buffer.active;
          return b?.getLine(0)?.translateToString(true).includes('ready');
        },
        undefined,
        { polling: 'raf' },
      );
      firstFrames.push(performance.now() - t0);
      await page.waitForFunction(
        () =>
          performance.getEntriesByName('flower:painted').length > 0 &&
          performance.getEntriesByName('flower:socket-open').length > 0,
      );
      steps.push(
        await page.evaluate(() => {
          const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
          const nav = performance.getEntriesByType('navigation')[0];
          return {
            html: nav.responseEnd,
            module: at('flower:module'),
            opened: at('flower:opened'),
            parsed: at('flower:screen-parsed'),
            painted: at('flower:painted'),
            socket: at('flower:socket-open'),
          };
        }),
      );
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const firstFrameSteps = Object.fromEntries(Object.keys(steps[0]).map((k) => [k, median(steps.map((s) => s[k]))]));

    // Key to echo, timed inside the page: the key goes out on the page's socket; the echo is in when
    // xterm.js has parsed the output that brought it.
    await page.waitForFunction(() => typeof window.flowerSend === 'function');
    const times = await page.evaluate(async (count) => {
      const term = window.flowerTerm;
      const result = [];
      for (let i = 0; i < count; i++) {
        const key = String.fromCharCode(97 + (i % 26));
        const t0 = performance.now();
        await new Promise((resolve) => {
          const d = term.onWriteParsed(() => {
            d.dispose();
            resolve();
          });
          window.flowerSend({ t: 'input', data: key });
        });
        result.push(performance.now() - t0);
        if (i % 100 === 99) window.flowerSend({ t: 'input', data: '\r' });
        await new Promise((r) => setTimeout(r, 2));
      }
      return result;
    }, keys);
    times.sort((a, b) => a - b);

    // Idle: the web server with a dashboard and a run page open, nothing happening. It settles first:
    // V8's memory reducer collects the heap the key burst grew some seconds after it (measured: 0.06 CPU s
    // in the 20 s after a 3 s settle, 0.01 CPU s over 60 s), which is the burst's cost, not idling's.
    await sleep(10_000);
    const c0 = cpuNs(web.pid);
    await sleep(idleS * 1000);
    const cpu = cpuNs(web.pid) - c0;
    return {
      keys: { p50: percentile(times, 50), p99: percentile(times, 99), count: times.length },
      // the first frame as the browser clocks it (navigation start to the frame painted with the screen),
      // and as seen from here (Playwright's navigation command until its poll sees the screen's text)
      firstFrameMs: firstFrameSteps.painted,
      firstFrameOutsideMs: median(firstFrames),
      firstFrameSteps,
      idle: { cpu, seconds: idleS, percent: (cpu / idleS) * 100, rss: rssOf(web.pid).rss },
    };
  } catch (error) {
    return { error: String(error.message ?? error).slice(0, 160) };
  } finally {
    await context?.close().catch(() => undefined);
    if (web && web.exitCode === null) {
      web.kill('SIGTERM');
      await Promise.race([new Promise((r) => web.once('exit', r)), sleep(5000)]);
    }
    terminal.write('\u0004');
    try {
      process.kill(-terminal.pid, 'SIGKILL');
    } catch {
      // gone
    }
    try {
      terminal.kill('SIGKILL');
    } catch {
      // gone
    }
    endServers(runtime);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [keys, idleS] = process.argv.slice(2).map(Number);
  console.log(JSON.stringify(await webBench({ keys: keys || 200, idleS: idleS || 10 }), null, 1));
}
