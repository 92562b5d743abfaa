#!/usr/bin/env node
// Loads a report page in headless Chromium (Debian's `chromium`), records every network request
// and console error, and takes a full-page screenshot. Used by the browser test and to make
// docs/report.png:  node scripts/report-screenshot.mjs .flower/report.html docs/report.png
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.FLOWER_PTY_CHROMIUM || '/usr/bin/chromium';
// No background traffic of Chromium's own: any request seen is the page's.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function loadInChromium(htmlFile, pngFile, { width = 1100, height = 900, fullPage = true } = {}) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: install it with apt-get install -y chromium (.ci/run does), or set FLOWER_PTY_CHROMIUM`,
    );
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage({ viewport: { width, height } });
    const requests = [];
    const errors = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    const url = pathToFileURL(resolve(htmlFile)).href;
    await page.goto(url, { waitUntil: 'load' });
    const polylines = await page.locator('svg.chart polyline').count();
    const title = await page.title();
    const scripts = await page.locator('script').count();
    // wider than the viewport: the page scrolls sideways
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    await page.screenshot({ path: pngFile, fullPage });
    // The page's own document load is a request too; everything else would be the network.
    return { url, requests: requests.filter((u) => u !== url), errors, polylines, scripts, title, scrollWidth };
  } finally {
    await browser.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [html, png, width, height] = process.argv.slice(2);
  if (!html || !png) {
    console.error('usage: node scripts/report-screenshot.mjs REPORT.html OUT.png [width] [height]');
    process.exit(2);
  }
  const result = await loadInChromium(html, png, { width: Number(width ?? 1100), height: Number(height ?? 900) });
  console.log(JSON.stringify(result));
}
