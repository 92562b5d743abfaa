// The files a page loads, all from this package: the pages and their scripts (src/web/assets, copied
// to dist/web/assets by the build), the one pure rule a page shares with the server (dist/core), and
// xterm.js with its fit addon straight from node_modules, so the face works on a machine with no
// network and never asks a CDN for anything. Every page is one <head> (head.html) and its own body:
// its stylesheets, its module and a modulepreload of each module it imports, so the browser fetches
// them all at once rather than one level of imports after another.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ASSETS = fileURLToPath(new URL('./assets/', import.meta.url));
const CORE = fileURLToPath(new URL('../core/', import.meta.url));
const XTERM = dirname(require.resolve('@xterm/xterm/package.json'));
const FIT = dirname(require.resolve('@xterm/addon-fit/package.json'));
const UNICODE11 = dirname(require.resolve('@xterm/addon-unicode11/package.json'));

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
  '/vendor/addon-unicode11.mjs': join(UNICODE11, 'lib', 'addon-unicode11.mjs'),
  '/core/web-resize-rule.js': join(CORE, 'web', 'web-resize-rule.js'),
  '/core/web-side-channels.js': join(CORE, 'web', 'web-side-channels.js'),
  '/core/side-channels.js': join(CORE, 'screen', 'side-channels.js'),
  '/core/kitty-keys.js': join(CORE, 'screen', 'kitty-keys.js'),
};

interface PageHead {
  title: string;
  body: string;
  styles: readonly string[];
  /** the page's module first, then every module it imports (preloaded) */
  modules: readonly string[];
}

export const PAGES = {
  dashboard: {
    title: 'runs',
    body: 'dashboard.html',
    styles: [],
    modules: ['/assets/dashboard.js', '/assets/common.js'],
  },
  run: {
    title: 'run',
    body: 'run.html',
    styles: ['/vendor/xterm.css'],
    modules: [
      '/assets/run.js',
      '/vendor/xterm.mjs',
      '/vendor/addon-fit.mjs',
      '/vendor/addon-unicode11.mjs',
      '/assets/common.js',
      '/core/web-resize-rule.js',
      '/core/web-side-channels.js',
      '/core/side-channels.js',
      '/core/kitty-keys.js',
    ],
  },
  login: { title: 'log in', body: 'login.html', styles: [], modules: ['/assets/login.js', '/assets/common.js'] },
  loggedOut: { title: 'not logged in', body: 'logged-out.html', styles: [], modules: [] },
} as const satisfies Record<string, PageHead>;

export const HTML_TYPE = TYPES['.html']!;

/** a page: the shared head with this page's links, then its body (no run's data: that needs the page's secret) */
export async function renderPage(page: PageHead): Promise<string> {
  const [head, body] = await Promise.all([readStatic(join(ASSETS, 'head.html')), readStatic(join(ASSETS, page.body))]);
  const [main, ...preloaded] = page.modules;
  const links = [
    ...page.styles.map((href) => `<link rel="stylesheet" href="${href}">`),
    '<link rel="stylesheet" href="/assets/style.css">',
    ...preloaded.map((href) => `<link rel="modulepreload" href="${href}">`),
    ...(main ? [`<script type="module" src="${main}"></script>`] : []),
  ];
  return `${head
    .toString('utf8')
    .replace('{{title}}', () => page.title)
    .replace('{{links}}', () => links.join('\n'))}${body.toString('utf8')}</html>\n`;
}

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
