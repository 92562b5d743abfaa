#!/usr/bin/env node
// Makes the README's picture of the terminal's split view, from a real run: the demo (the real claude
// against the scripted model, offline) in a tmux session of a fixed size; at its first review (held for the
// person) it is told to go on (C-] p), and the successor is captured with its colours while it works from the
// frozen document shown below it, then drawn by xterm.js in headless Chromium. The document's headings are
// Chinese: a CJK font (Debian's fonts-wqy-zenhei) makes them readable in the picture.
//   node scripts/split-view-screenshot.mjs docs/split-view.png
// Needs tmux and Debian's chromium (.ci/run installs both) and a build (`npm run build`).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import stripAnsi from 'strip-ansi';
import { CHROMIUM } from './report-screenshot.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = process.argv[2];
if (!out) {
  console.error(
    'split-view-screenshot: name the PNG to write: node scripts/split-view-screenshot.mjs docs/split-view.png',
  );
  process.exit(2);
}
const COLS = 120;
const ROWS = 34;
// The first frozen document waits for the person in the split view (the demo holds its first review); the
// status bar's separator is blessed's line-drawing bullet, a "~" in a plain capture.
const READY = /review \W held/;
const SUCCESSOR = /Done: report\.txt[\s\S]*gen 2\/\d/;

const session = `flower-pty-shot-${process.pid}`;
const tmux = (...args) => spawnSync('tmux', ['-L', session, ...args], { encoding: 'utf8' });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let screen = '';
try {
  const started = tmux(
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    String(COLS),
    '-y',
    String(ROWS),
    `cd ${JSON.stringify(root)} && LANG=C.UTF-8 NCURSES_NO_UTF8_ACS=1 node bin/flower-pty.js demo; sleep 5`,
  );
  if (started.status !== 0) throw new Error(`tmux could not start: ${started.stderr.trim()}`);
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const plain = tmux('capture-pane', '-p', '-t', session).stdout;
    if (READY.test(plain)) break;
    await sleep(500);
  }
  if (!READY.test(tmux('capture-pane', '-p', '-t', session).stdout)) {
    throw new Error(
      `the demo never reached its first review within 180 s; its screen:\n${tmux('capture-pane', '-p', '-t', session).stdout}`,
    );
  }
  tmux('send-keys', '-t', session, 'C-]', 'p');
  // Captured the moment the successor has done its first step: the demo ends soon after, and a capture
  // taken later could be the shell's screen. The coloured capture itself is checked, not an earlier one.
  const successor = Date.now() + 90_000;
  while (Date.now() < successor && screen === '') {
    const coloured = tmux('capture-pane', '-p', '-e', '-t', session).stdout;
    if (SUCCESSOR.test(stripAnsi(coloured))) screen = coloured;
    else await sleep(200);
  }
  if (screen === '') throw new Error('the successor never showed its first step within 90 s');
} finally {
  tmux('send-keys', '-t', session, 'C-]', 'q');
  await sleep(1_000);
  tmux('kill-server');
}

const require = createRequire(import.meta.url);
const xtermDir = dirname(require.resolve('@xterm/xterm/package.json'));
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 }, deviceScaleFactor: 1 });
  await page.setContent('<body style="margin:0;background:#000"><div id="t"></div></body>');
  await page.addStyleTag({ content: readFileSync(join(xtermDir, 'css/xterm.css'), 'utf8') });
  await page.addScriptTag({ content: readFileSync(join(xtermDir, 'lib/xterm.js'), 'utf8') });
  await page.evaluate(
    ([text, cols, rows]) =>
      new Promise((done) => {
        const term = new window.Terminal({ cols, rows, fontSize: 14, allowProposedApi: true });
        term.open(document.getElementById('t'));
        term.write(text.replace(/\n$/, '').replace(/\n/g, '\r\n'), done);
      }),
    [screen, COLS, ROWS],
  );
  await page.locator('.xterm-screen').screenshot({ path: out });
  console.log(`wrote ${out} (${COLS}×${ROWS}, the demo's second generation at work)`);
} finally {
  await browser.close();
}
