// The web face's security model against the built server, from outside as an attacker would try it:
// a wrong Host (DNS rebinding), a wrong or missing Origin, no cookie, a used or expired token, too many
// failed logins, an oversized body and frame; non-loopback binds refused; one server per user; its
// files closed to other users.
import t from 'tap';
import { mkdtempSync, statSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { runtimeDir } from '../helpers/run-servers.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { startWeb, type WebFace } from './web-helpers.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function http(web: WebFace, o: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ agent: false, host: '127.0.0.1', port: web.port, method: o.method ?? 'GET', path: o.path, headers: { Host: `127.0.0.1:${web.port}`, ...o.headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

const login = (web: WebFace, token: string, origin = web.base) =>
  http(web, { method: 'POST', path: '/api/login', headers: { Origin: origin, 'Content-Type': 'application/json' }, body: JSON.stringify({ token }) });

const cookieOf = (a: Answer) => String((a.headers['set-cookie'] as string[] | undefined)?.[0] ?? '').split(';')[0]!;

// An upgrade's outcome: the HTTP status of a refusal, or 'open'.
// `first`: the server's first message, listened for from the start: it can arrive in the same read as the
// upgrade's answer, and then 'message' is emitted before a listener added after 'open' would exist.
function upgrade(web: WebFace, path: string, headers: Record<string, string>): Promise<{ status: number | 'open'; ws?: WebSocket; first?: Promise<string> }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}${path}`, { headers });
    const first = new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));
    ws.on('open', () => resolve({ status: 'open', ws, first }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('error', () => resolve({ status: 0 }));
  });
}

t.test('every refusal, one by one', async (t) => {
  const runtime = runtimeDir(mkdtempSync(join(tmpdir(), 'flower-web-')));
  const web = await startWeb(t, { runtime });

  const pageOut = await http(web, { path: '/' });
  t.equal(pageOut.status, 401, 'no cookie: the dashboard is refused');
  t.match(pageOut.body, /Not logged in/);
  t.match(String(pageOut.headers['content-security-policy']), /script-src 'self';.*frame-ancestors 'none'/);
  t.equal(pageOut.headers['x-content-type-options'], 'nosniff');

  const rebound = await http(web, { path: '/', headers: { Host: `evil.example:${web.port}` } });
  t.equal(rebound.status, 421, 'a wrong Host (DNS rebinding) is refused');

  t.equal((await login(web, web.token, 'http://evil.example')).status, 403, 'a login POST from another origin is refused');
  t.equal((await http(web, { method: 'POST', path: '/api/login', body: '{}' })).status, 403, 'a POST with no Origin is refused');
  const big = await http(web, { method: 'POST', path: '/api/login', headers: { Origin: web.base }, body: JSON.stringify({ token: 'x'.repeat(20_000) }) });
  t.equal(big.status, 413, 'an oversized body is refused');

  const good = await login(web, web.token);
  t.equal(good.status, 200, 'the printed token logs in once');
  const setCookie = String((good.headers['set-cookie'] as string[])[0]);
  t.match(setCookie, /^flower_session=[\w-]{43}; HttpOnly; SameSite=Strict; Path=\//);
  const cookie = cookieOf(good);
  t.equal((await login(web, web.token)).status, 401, 'a used token is refused');
  t.notMatch(readFileSync(join(runtime, 'flower-pty', 'web', 'tokens.json'), 'utf8'), web.token, 'the token file holds no token, only hashes');
  t.equal((await http(web, { path: '/', headers: { Cookie: cookie } })).status, 200, 'the cookie opens the dashboard');
  t.equal((await http(web, { path: '/', headers: { Cookie: 'flower_session=forged' } })).status, 401, 'a forged cookie does not');

  // An expired token: written as the server writes one, with its expiry in the past.
  const tokensFile = join(runtime, 'flower-pty', 'web', 'tokens.json');
  const expired = 'expired-token-abcdefghijklmnopqrstuvwxyz0123456';
  writeFileSync(tokensFile, JSON.stringify([{ hash: createHash('sha256').update(expired).digest('hex'), expires: Date.now() - 1000 }]), { mode: 0o600 });
  const late = await login(web, expired);
  t.equal(late.status, 401, 'an expired token is refused');
  t.match(late.body, /expired/);

  const origin = web.base;
  t.equal((await upgrade(web, '/ws/runs', { Origin: 'http://evil.example', Cookie: cookie })).status, 403, 'an upgrade from another origin is refused');
  t.equal((await upgrade(web, '/ws/runs', { Cookie: cookie })).status, 403, 'an upgrade with no Origin is refused');
  t.equal((await upgrade(web, '/ws/runs', { Origin: origin })).status, 401, 'an upgrade with no cookie is refused');
  t.equal((await upgrade(web, '/ws/runs', { Origin: origin, Cookie: cookie, Host: `evil.example:${web.port}` })).status, 421, 'an upgrade with a wrong Host is refused');
  const open = await upgrade(web, '/ws/runs', { Origin: origin, Cookie: cookie });
  t.equal(open.status, 'open', 'this origin with the cookie connects');
  const first = await open.first!;
  t.match(JSON.parse(first), { t: 'runs', runs: [], allowInput: false });
  const closed = await new Promise<number>((r) => {
    open.ws!.once('close', (code) => r(code));
    open.ws!.send('x'.repeat(300 * 1024));
  });
  t.equal(closed, 1009, 'an oversized frame closes the socket (1009: message too big)');

  const dir = join(runtime, 'flower-pty', 'web');
  t.equal(statSync(dir).mode & 0o777, 0o700, 'its folder is 0700');
  for (const name of ['tokens.json', 'server.json', 'web.log']) t.equal(statSync(join(dir, name)).mode & 0o777, 0o600, `${name} is 0600`);
  const log = readFileSync(join(dir, 'web.log'), 'utf8');
  t.notMatch(log, web.token, 'the log holds no token');
  t.notMatch(log, cookie.split('=')[1]!, 'nor a cookie');

  const second = spawnSync(process.execPath, [FLOWER_BIN, 'web', '--listen', '127.0.0.1:0'], { env: { ...process.env, XDG_RUNTIME_DIR: runtime }, encoding: 'utf8', timeout: 30_000 });
  t.equal(second.status, 2, 'a second web face for the same user is refused');
  t.match(second.stderr, /a web face of yours is already running \(pid \d+/);
  const again = spawnSync(process.execPath, [FLOWER_BIN, 'web', '--login'], { env: { ...process.env, XDG_RUNTIME_DIR: runtime }, encoding: 'utf8', timeout: 30_000 });
  t.equal(again.status, 0, again.stderr);
  const fresh = /#(\S+)$/.exec(again.stdout.trim())![1]!;
  t.equal(again.stdout.trim().split('\n').length, 1, 'no QR code when stdout is not a terminal');
  t.equal((await login(web, fresh)).status, 200, '--login printed a new token that works');

  // Failed logins are limited: after five, even a good token waits.
  for (let i = 0; i < 5; i++) await login(web, `wrong-${i}`);
  const limited = await login(web, 'wrong-again');
  t.equal(limited.status, 429, 'too many failed logins');

});

t.test('a non-loopback bind is refused without TLS or --behind-proxy', async (t) => {
  const runtime = runtimeDir(mkdtempSync(join(tmpdir(), 'flower-web-')));
  const r = spawnSync(process.execPath, [FLOWER_BIN, 'web', '--listen', '0.0.0.0:0'], { env: { ...process.env, XDG_RUNTIME_DIR: runtime }, encoding: 'utf8', timeout: 30_000 });
  t.equal(r.status, 2);
  t.match(r.stderr, /^flower-pty: refusing to listen on 0\.0\.0\.0: .*--tls-cert FILE --tls-key FILE.*--behind-proxy/);
  t.equal(r.stderr.trim().split('\n').length, 1, 'one line');
  const bad = spawnSync(process.execPath, [FLOWER_BIN, 'web', '--listen', 'nonsense'], { env: { ...process.env, XDG_RUNTIME_DIR: runtime }, encoding: 'utf8', timeout: 30_000 });
  t.equal(bad.status, 2);
  t.match(bad.stderr, /--listen expects HOST:PORT/);
});

t.test('-d: in the background, the URL printed, a log written, a second one refused; on a terminal, how a phone reaches it', async (t) => {
  const runtime = runtimeDir(mkdtempSync(join(tmpdir(), 'flower-web-')));
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
  const dir = join(runtime, 'flower-pty', 'web');
  t.teardown(() => {
    try {
      process.kill((JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8')) as { pid: number }).pid, 'SIGTERM');
    } catch {
      // not started, or gone
    }
  });
  const first = spawnSync(process.execPath, [FLOWER_BIN, 'web', '-d', '--listen', '127.0.0.1:0'], { env, encoding: 'utf8', timeout: 30_000 });
  t.equal(first.status, 0, first.stderr);
  t.match(first.stdout.trim(), /^http:\/\/127\.0\.0\.1:\d+\/login#[\w-]{43}$/, 'the login URL alone on stdout');
  t.match(first.stderr, /runs in the background \(pid (\d+)\); its log: .*web\.log/);
  const pid = Number(/pid (\d+)/.exec(first.stderr)![1]);
  const state = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8')) as { pid: number; url: string };
  t.equal(state.pid, pid, 'the background server holds the claim');
  t.match(readFileSync(join(dir, 'web.log'), 'utf8'), /listening on http:\/\/127\.0\.0\.1:\d+ \(read-only\)/, 'a log is written');
  const second = spawnSync(process.execPath, [FLOWER_BIN, 'web', '-d'], { env, encoding: 'utf8', timeout: 30_000 });
  t.equal(second.status, 2, 'a second one for the same user is refused');
  t.match(second.stderr, new RegExp(`already running \\(pid ${pid}`));
  // --login on a terminal: the URL, then (a loopback address: a phone cannot open it) how to reach it, no QR code.
  const { spawn } = await import('@lydell/node-pty');
  const pty = spawn(process.execPath, [FLOWER_BIN, 'web', '--login'], { cols: 120, rows: 60, env: env as Record<string, string> });
  let shown = '';
  pty.onData((d) => (shown += d));
  await new Promise((r) => pty.onExit(r));
  t.match(shown, /^http:\/\/127\.0\.0\.1:\d+\/login#[\w-]{43}\r?\n/, 'the URL on the first line');
  t.equal((shown.match(/[█▀▄]/g) ?? []).length, 0, 'no QR code of 127.0.0.1');
  t.match(shown, /a phone cannot open 127\.0\.0\.1: from another machine, ssh -L \d+:127\.0\.0\.1:\d+ this-host .*tailscale serve/, 'how another device reaches it');
  process.kill(pid, 'SIGTERM');
});
