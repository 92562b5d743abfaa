// The web face's security model against the built server, from outside as an attacker would try it:
// a wrong Host (DNS rebinding), a wrong or missing Origin, no cookie, a used or expired token, too many
// failed logins, an oversized body and frame; non-loopback binds refused; one server per user; its
// files closed to other users.
import t from 'tap';
import { statSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { FIRST_REQUEST_MS, MAX_CONNECTIONS } from '../../src/core/web/web-request.js';
import { join } from 'node:path';
import WebSocket from 'ws';
import { runtimeDir } from '../helpers/run-servers.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { startWeb, type WebFace } from './web-helpers.js';
import { tempRoot } from '../helpers/temp-root.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function http(
  web: WebFace,
  o: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent: false,
        host: '127.0.0.1',
        port: web.port,
        method: o.method ?? 'GET',
        path: o.path,
        headers: { Host: `127.0.0.1:${web.port}`, ...o.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

const login = (web: WebFace, token: string, origin = web.base) =>
  http(web, {
    method: 'POST',
    path: '/api/login',
    headers: { Origin: origin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });

const cookieOf = (a: Answer) => String((a.headers['set-cookie'] as string[] | undefined)?.[0] ?? '').split(';')[0]!;

// An upgrade's outcome: the HTTP status of a refusal, or 'open'.
// `first`: the server's first message, listened for from the start: it can arrive in the same read as the
// upgrade's answer, and then 'message' is emitted before a listener added after 'open' would exist.
function upgrade(
  web: WebFace,
  path: string,
  headers: Record<string, string>,
  secret?: string,
): Promise<{ status: number | 'open'; ws?: WebSocket; first?: Promise<string> }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(
      `ws://127.0.0.1:${web.port}${path}`,
      secret === undefined ? [] : ['flower', `flower.${secret}`],
      { headers },
    );
    const first = new Promise<string>((r) => ws.once('message', (d) => r(d.toString())));
    ws.on('open', () => resolve({ status: 'open', ws, first }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('error', () => resolve({ status: 0 }));
  });
}

t.test('every refusal, one by one', async (t) => {
  const runtime = runtimeDir(tempRoot(t, 'flower-web-'));
  const web = await startWeb(t, { runtime });

  const pageOut = await http(web, { path: '/' });
  t.equal(pageOut.status, 401, 'no cookie: the dashboard is refused');
  t.match(pageOut.body, /Not logged in/);
  t.match(String(pageOut.headers['content-security-policy']), /script-src 'self';.*frame-ancestors 'none'/);
  t.equal(pageOut.headers['x-content-type-options'], 'nosniff');

  const rebound = await http(web, { path: '/', headers: { Host: `evil.example:${web.port}` } });
  t.equal(rebound.status, 421, 'a wrong Host (DNS rebinding) is refused');

  t.equal(
    (await login(web, web.token, 'http://evil.example')).status,
    403,
    'a login POST from another origin is refused',
  );
  t.equal(
    (await http(web, { method: 'POST', path: '/api/login', body: '{}' })).status,
    403,
    'a POST with no Origin is refused',
  );
  const big = await http(web, {
    method: 'POST',
    path: '/api/login',
    headers: { Origin: web.base },
    body: JSON.stringify({ token: 'x'.repeat(20_000) }),
  });
  t.equal(big.status, 413, 'an oversized body is refused');

  const good = await login(web, web.token);
  t.equal(good.status, 200, 'the printed token logs in once');
  const setCookie = String((good.headers['set-cookie'] as string[])[0]);
  t.match(setCookie, /^flower_session=[\w-]{43}; HttpOnly; SameSite=Strict; Path=\//);
  const cookie = cookieOf(good);
  const secret = (JSON.parse(good.body) as { secret: string }).secret;
  t.match(secret, /^[\w-]{43}$/, 'the login hands the page its secret');
  t.equal((await login(web, web.token)).status, 401, 'a used token is refused');
  t.notMatch(
    readFileSync(join(runtime, 'flower-pty', 'web', 'tokens.json'), 'utf8'),
    web.token,
    'the token file holds no token, only hashes',
  );
  const shell = await http(web, { path: '/', headers: { Cookie: cookie } });
  t.equal(shell.status, 200, "the cookie opens the dashboard's empty shell");
  t.notMatch(shell.body, /id="boot"/, "which carries no run's data");
  t.equal(
    (await http(web, { path: '/api/runs', headers: { Cookie: cookie } })).status,
    401,
    "the cookie alone gets no run's data",
  );
  t.equal(
    (await http(web, { path: '/api/runs', headers: { 'X-Flower-Secret': secret } })).status,
    401,
    'nor does the secret alone',
  );
  t.equal(
    (await http(web, { path: '/api/runs', headers: { Cookie: cookie, 'X-Flower-Secret': 'x'.repeat(43) } })).status,
    401,
    'nor a wrong secret',
  );
  t.equal(
    (await http(web, { path: '/api/runs', headers: { Cookie: cookie, 'X-Flower-Secret': secret } })).status,
    200,
    'the cookie and the secret of the same login do',
  );
  t.equal(
    (await http(web, { path: '/', headers: { Cookie: 'flower_session=forged' } })).status,
    401,
    'a forged cookie does not',
  );

  // An expired token: written as the server writes one, with its expiry in the past.
  const tokensFile = join(runtime, 'flower-pty', 'web', 'tokens.json');
  const expired = 'expired-token-abcdefghijklmnopqrstuvwxyz0123456';
  writeFileSync(
    tokensFile,
    JSON.stringify([{ hash: createHash('sha256').update(expired).digest('hex'), expires: Date.now() - 1000 }]),
    { mode: 0o600 },
  );
  const late = await login(web, expired);
  t.equal(late.status, 401, 'an expired token is refused');
  t.match(late.body, /expired/);

  const origin = web.base;
  t.equal(
    (await upgrade(web, '/ws/runs', { Origin: 'http://evil.example', Cookie: cookie }, secret)).status,
    403,
    'an upgrade from another origin is refused',
  );
  t.equal(
    (await upgrade(web, '/ws/runs', { Cookie: cookie }, secret)).status,
    403,
    'an upgrade with no Origin is refused',
  );
  t.equal(
    (await upgrade(web, '/ws/runs', { Origin: origin }, secret)).status,
    401,
    'an upgrade with no cookie is refused',
  );
  t.equal(
    (await upgrade(web, '/ws/runs', { Origin: origin, Cookie: cookie })).status,
    401,
    'an upgrade with the cookie but no secret is refused',
  );
  t.equal(
    (await upgrade(web, '/ws/runs', { Origin: origin, Cookie: cookie }, 'y'.repeat(43))).status,
    401,
    'an upgrade with a wrong secret is refused',
  );
  t.equal(
    (await upgrade(web, '/ws/runs', { Origin: origin, Cookie: cookie, Host: `evil.example:${web.port}` }, secret))
      .status,
    421,
    'an upgrade with a wrong Host is refused',
  );
  const open = await upgrade(web, '/ws/runs', { Origin: origin, Cookie: cookie }, secret);
  t.equal(open.status, 'open', 'this origin with the cookie and the secret connects');
  const first = await open.first!;
  t.match(JSON.parse(first), { t: 'runs', runs: [], allowInput: false });
  const closed = await new Promise<number>((r) => {
    open.ws!.once('close', (code) => r(code));
    open.ws!.send('x'.repeat(300 * 1024));
  });
  t.equal(closed, 1009, 'an oversized frame closes the socket (1009: message too big)');

  const dir = join(runtime, 'flower-pty', 'web');
  t.equal(statSync(dir).mode & 0o777, 0o700, 'its folder is 0700');
  for (const name of ['tokens.json', 'server.json', 'web.log'])
    t.equal(statSync(join(dir, name)).mode & 0o777, 0o600, `${name} is 0600`);
  const log = readFileSync(join(dir, 'web.log'), 'utf8');
  t.notMatch(log, web.token, 'the log holds no token');
  t.notMatch(log, cookie.split('=')[1]!, 'nor a cookie');
  t.notMatch(log, secret, 'nor a secret');

  const second = spawnSync(process.execPath, [FLOWER_BIN, 'web', '--listen', '127.0.0.1:0'], {
    env: { ...process.env, XDG_RUNTIME_DIR: runtime },
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.equal(second.status, 2, 'a second web face for the same user is refused');
  t.match(second.stderr, /a web face of yours is already running \(pid \d+/);
  const again = spawnSync(process.execPath, [FLOWER_BIN, 'web', '--login'], {
    env: { ...process.env, XDG_RUNTIME_DIR: runtime },
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.equal(again.status, 0, again.stderr);
  const fresh = /#(\S+)$/.exec(again.stdout.trim())![1]!;
  t.equal(again.stdout.trim().split('\n').length, 1, 'no QR code when stdout is not a terminal');
  t.equal((await login(web, fresh)).status, 200, '--login printed a new token that works');

  // Failed logins are limited per client (address and cookie); a valid token is never refused.
  const guesser = { Cookie: 'flower_session=guesser' };
  const guess = (token: string) =>
    http(web, {
      method: 'POST',
      path: '/api/login',
      headers: { Origin: web.base, 'Content-Type': 'application/json', ...guesser },
      body: JSON.stringify({ token }),
    });
  for (let i = 0; i < 5; i++) await guess(`wrong-${i}`);
  t.equal((await guess('wrong-again')).status, 429, 'too many failed logins from that client');
  t.equal((await login(web, 'wrong-mine')).status, 401, 'another client is not locked out by them');
  const valid = spawnSync(process.execPath, [FLOWER_BIN, 'web', '--login'], {
    env: { ...process.env, XDG_RUNTIME_DIR: runtime },
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.equal(
    (await guess(/#(\S+)$/.exec(valid.stdout.trim())![1]!)).status,
    200,
    'a valid token logs in even from the locked-out client',
  );

  // Logging out ends the session on the server: its cookie and secret open nothing after it.
  const both = { Cookie: cookie, 'X-Flower-Secret': secret, Origin: web.base };
  t.equal(
    (await http(web, { method: 'POST', path: '/api/logout', headers: { Cookie: cookie, Origin: web.base } })).status,
    401,
    'logging out needs the secret too',
  );
  const out = await http(web, { method: 'POST', path: '/api/logout', headers: both });
  t.equal(out.status, 204, 'logged out');
  t.match(String(out.headers['set-cookie']), /Max-Age=0/);
  t.equal(
    (await http(web, { path: '/api/runs', headers: both })).status,
    401,
    'the old cookie and secret are no longer valid on the server',
  );
  t.equal((await http(web, { path: '/', headers: both })).status, 401, 'not even for the shell');
});

t.test('a non-loopback bind is refused without TLS or --behind-proxy', async (t) => {
  const runtime = runtimeDir(tempRoot(t, 'flower-web-'));
  const r = spawnSync(process.execPath, [FLOWER_BIN, 'web', '--listen', '0.0.0.0:0'], {
    env: { ...process.env, XDG_RUNTIME_DIR: runtime },
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.equal(r.status, 2);
  t.match(r.stderr, /^flower-pty: refusing to listen on 0\.0\.0\.0: .*--tls-cert FILE --tls-key FILE.*--behind-proxy/);
  t.equal(r.stderr.trim().split('\n').length, 1, 'one line');
  const bad = spawnSync(process.execPath, [FLOWER_BIN, 'web', '--listen', 'nonsense'], {
    env: { ...process.env, XDG_RUNTIME_DIR: runtime },
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.equal(bad.status, 2);
  t.match(bad.stderr, /--listen expects HOST:PORT/);
});

t.test(
  '-d: in the background, the URL printed, a log written, a second one refused; on a terminal, how a phone reaches it',
  async (t) => {
    const runtime = runtimeDir(tempRoot(t, 'flower-web-'));
    const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
    const dir = join(runtime, 'flower-pty', 'web');
    t.teardown(() => {
      try {
        process.kill((JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8')) as { pid: number }).pid, 'SIGTERM');
      } catch {
        // not started, or gone
      }
    });
    const first = spawnSync(process.execPath, [FLOWER_BIN, 'web', '-d', '--listen', '127.0.0.1:0'], {
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    t.equal(first.status, 0, first.stderr);
    t.match(first.stdout.trim(), /^http:\/\/127\.0\.0\.1:\d+\/login#[\w-]{43}$/, 'the login URL alone on stdout');
    t.match(first.stderr, /runs in the background \(pid (\d+)\); its log: .*web\.log/);
    const pid = Number(/pid (\d+)/.exec(first.stderr)![1]);
    const state = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8')) as { pid: number; url: string };
    t.equal(state.pid, pid, 'the background server holds the claim');
    t.match(
      readFileSync(join(dir, 'web.log'), 'utf8'),
      /listening on http:\/\/127\.0\.0\.1:\d+ \(read-only\)/,
      'a log is written',
    );
    const second = spawnSync(process.execPath, [FLOWER_BIN, 'web', '-d'], { env, encoding: 'utf8', timeout: 30_000 });
    t.equal(second.status, 2, 'a second one for the same user is refused');
    t.match(second.stderr, new RegExp(`already running \\(pid ${pid}`));
    // --login on a terminal: the URL, then (a loopback address: a phone cannot open it) how to reach it, no QR code.
    const { spawn } = await import('@lydell/node-pty');
    const pty = spawn(process.execPath, [FLOWER_BIN, 'web', '--login'], {
      cols: 120,
      rows: 60,
      env: env as Record<string, string>,
    });
    let shown = '';
    pty.onData((d) => (shown += d));
    await new Promise((r) => pty.onExit(r));
    t.match(shown, /^http:\/\/127\.0\.0\.1:\d+\/login#[\w-]{43}\r?\n/, 'the URL on the first line');
    t.equal((shown.match(/[█▀▄]/g) ?? []).length, 0, 'no QR code of 127.0.0.1');
    t.match(
      shown,
      /a phone cannot open 127\.0\.0\.1: from another machine, ssh -L \d+:127\.0\.0\.1:\d+ this-host .*tailscale serve/,
      'how another device reaches it',
    );
    process.kill(pid, 'SIGTERM');
  },
);

t.test('connections that send nothing are closed, and no more than a bound are held', async (t) => {
  const runtime = runtimeDir(tempRoot(t, 'flower-web-'));
  const web = await startWeb(t, { runtime });
  const open = (): Promise<{ socket: Socket; closed: Promise<number> }> =>
    new Promise((resolve) => {
      const socket = connect(web.port, '127.0.0.1');
      const since = performance.now();
      const closed = new Promise<number>((r) => socket.once('close', () => r(performance.now() - since)));
      socket.on('error', () => undefined);
      socket.once('connect', () => resolve({ socket, closed }));
    });
  const idle = await open();
  const closedAfter = await idle.closed;
  t.ok(
    closedAfter >= FIRST_REQUEST_MS - 200 && closedAfter < FIRST_REQUEST_MS + 3_000,
    `an idle connection is closed after ${Math.round(closedAfter)} ms`,
  );
  // A flood: past the bound, new ones are dropped at once; the face still answers once they go.
  const flood = await Promise.all(Array.from({ length: MAX_CONNECTIONS + 40 }, () => open()));
  const dropped = await Promise.all(
    flood.map(({ closed }) =>
      Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 1_000))]),
    ),
  );
  t.ok(
    dropped.filter(Boolean).length >= 40,
    `past ${MAX_CONNECTIONS} held, new connections are refused (${dropped.filter(Boolean).length} dropped at once)`,
  );
  for (const { socket } of flood) socket.destroy();
  await new Promise((r) => setTimeout(r, 200));
  t.equal((await http(web, { path: '/login' })).status, 200, 'the face answers again');
});
