// The files a page loads, all from this package: the pages and their scripts (src/web/assets, copied
// to dist/web/assets by the build) and xterm.js with its fit addon straight from node_modules, so
// the face works on a machine with no network and never asks a CDN for anything.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ASSETS = fileURLToPath(new URL('./assets/', import.meta.url));
const XTERM = dirname(require.resolve('@xterm/xterm/package.json'));
const FIT = dirname(require.resolve('@xterm/addon-fit/package.json'));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

// Only these names are served: a path never reaches the file system as the page wrote it.
const FILES: Record<string, string> = {
  '/assets/dashboard.js': join(ASSETS, 'dashboard.js'),
  '/assets/run.js': join(ASSETS, 'run.js'),
  '/assets/login.js': join(ASSETS, 'login.js'),
  '/assets/common.js': join(ASSETS, 'common.js'),
  '/assets/style.css': join(ASSETS, 'style.css'),
  '/assets/icon.svg': join(ASSETS, 'icon.svg'),
  '/vendor/xterm.mjs': join(XTERM, 'lib', 'xterm.mjs'),
  '/vendor/xterm.css': join(XTERM, 'css', 'xterm.css'),
  '/vendor/addon-fit.mjs': join(FIT, 'lib', 'addon-fit.mjs'),
};

export const PAGES = {
  dashboard: join(ASSETS, 'dashboard.html'),
  run: join(ASSETS, 'run.html'),
  login: join(ASSETS, 'login.html'),
  loggedOut: join(ASSETS, 'logged-out.html'),
} as const;

const cache = new Map<string, Buffer>();

export async function readStatic(path: string): Promise<Buffer> {
  let data = cache.get(path);
  if (!data) {
    data = await readFile(path);
    cache.set(path, data);
  }
  return data;
}

/** the file and type for a URL path, or null for anything not served */
export function staticFile(urlPath: string): { file: string; type: string } | null {
  const file = FILES[urlPath];
  if (!file) return null;
  return { file, type: typeOf(file) };
}

export function typeOf(file: string): string {
  const dot = file.lastIndexOf('.');
  return TYPES[file.slice(dot)] ?? 'application/octet-stream';
}
