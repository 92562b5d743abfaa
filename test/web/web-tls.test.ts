// The web face over TLS, with a self-signed certificate made here (openssl, no network): https and wss
// answer on a loopback bind and on a non-loopback one (which TLS is what allows), the cookie is Secure,
// and what is refused is refused in one line: a non-loopback bind without TLS or --behind-proxy, a
// certificate file that is missing or unreadable, a file that is no certificate, one flag of the two.
import t from 'tap';
import { readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { request } from 'node:https';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import WebSocket from 'ws';
import { runtimeDir } from '../helpers/run-servers.js';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { startWeb, type WebFace } from './web-helpers.js';
import { tempRoot } from '../helpers/temp-root.js';

const dir = tempRoot(t, 'flower-web-tls-');
const certFile = join(dir, 'cert.pem');
const keyFile = join(dir, 'key.pem');
const made = spawnSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ],
  { encoding: 'utf8' },
);
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const ca = made.status === 0 ? readFileSync(certFile) : Buffer.alloc(0);

function get(
  web: WebFace,
  o: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    // the certificate made above is the one trusted: no verification is switched off
    const req = request(
      {
        host: '127.0.0.1',
        port: web.port,
        ca,
        agent: false,
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

const refused = (args: string[]) => {
  const runtime = runtimeDir(tempRoot(t, 'flower-web-'));
  return spawnSync(process.execPath, [FLOWER_BIN, 'web', ...args], {
    env: { ...process.env, XDG_RUNTIME_DIR: runtime },
    encoding: 'utf8',
    timeout: 30_000,
  });
};

t.test('openssl made a self-signed certificate', async (t) => {
  t.equal(made.status, 0, `openssl req -x509 (${made.stderr})`);
});

for (const listen of ['127.0.0.1:0', '0.0.0.0:0']) {
  t.test(`https and wss on ${listen} with --tls-cert/--tls-key`, async (t) => {
    const runtime = runtimeDir(tempRoot(t, 'flower-web-'));
    const web = await startWeb(t, { runtime, listen, args: ['--tls-cert', certFile, '--tls-key', keyFile] });
    t.match(web.url, /^https:\/\/127\.0\.0\.1:\d+\/login#[\w-]{43}$/, 'the login URL is https');
    const page = await get(web, { path: '/login' });
    t.equal(page.status, 200, 'the login page over https, the certificate verified');
    t.match(
      String(page.headers['content-security-policy']),
      /connect-src 'self' wss:\/\/127\.0\.0\.1:\d+;/,
      'the pages may open wss only',
    );
    const login = await get(web, {
      method: 'POST',
      path: '/api/login',
      headers: { Origin: web.base, 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: web.token }),
    });
    t.equal(login.status, 200);
    const setCookie = String((login.headers['set-cookie'] as string[])[0]);
    t.match(setCookie, /; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+; Secure$/, 'the session cookie is Secure');
    const cookie = setCookie.split(';')[0]!;
    t.equal((await get(web, { path: '/', headers: { Cookie: cookie } })).status, 200, 'the dashboard with the cookie');
    t.equal(
      (await get(web, { method: 'POST', path: '/api/logout', headers: { Origin: web.base.replace('https', 'http') } }))
        .status,
      403,
      'an http:// Origin is not this server',
    );

    const secret = (JSON.parse(login.body) as { secret: string }).secret;
    const ws = new WebSocket(`wss://127.0.0.1:${web.port}/ws/runs`, ['flower', `flower.${secret}`], {
      ca,
      headers: { Origin: web.base, Cookie: cookie },
    });
    const first = await new Promise<string>((resolve, reject) => {
      ws.once('message', (d) => resolve(d.toString()));
      ws.once('error', reject);
    });
    t.match(JSON.parse(first), { t: 'runs', runs: [] }, 'the dashboard socket over wss');
    ws.close();
    const plain = await new Promise<string>((resolve) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: web.port, path: '/login', agent: false, timeout: 5_000 },
        (res) => resolve(String(res.statusCode)),
      );
      req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      req.on('timeout', () => req.destroy());
      req.end();
    });
    t.not(plain, '200', `plain http is not served on the TLS port (${plain})`);
  });
}

t.test(
  'refused in one line: no TLS off loopback, a missing or unreadable or bad certificate, one flag alone',
  async (t) => {
    const cases: Array<[string, string[], RegExp]> = [
      [
        'non-loopback without TLS',
        ['--listen', '0.0.0.0:0'],
        /^flower-pty: refusing to listen on 0\.0\.0\.0: .*--tls-cert FILE --tls-key FILE.*--behind-proxy/,
      ],
      [
        'a missing certificate',
        ['--listen', '0.0.0.0:0', '--tls-cert', join(dir, 'nope.pem'), '--tls-key', keyFile],
        /^flower-pty: --tls-cert .*nope\.pem: cannot read it \(ENOENT\)/,
      ],
      [
        'a folder for a key',
        ['--tls-cert', certFile, '--tls-key', dir],
        /^flower-pty: --tls-key .*: cannot read it \(EISDIR\)/,
      ],
      [
        'a file that is no certificate',
        ['--tls-cert', join(dir, 'junk.pem'), '--tls-key', keyFile],
        /^flower-pty: --tls-cert .*junk\.pem --tls-key .*key\.pem: not a usable certificate and its key \(.+\); give both as PEM files\n$/,
      ],
      ['one flag alone', ['--tls-cert', certFile], /^flower-pty: --tls-cert and --tls-key go together/],
      [
        'a device for a certificate (read without end before)',
        ['--tls-cert', '/dev/zero', '--tls-key', keyFile],
        /^flower-pty: --tls-cert \/dev\/zero: not a regular file; give a PEM file\n$/,
      ],
    ];
    writeFileSync(join(dir, 'junk.pem'), 'not a certificate\n');
    if (process.getuid?.() !== 0) {
      writeFileSync(join(dir, 'locked.pem'), 'x');
      chmodSync(join(dir, 'locked.pem'), 0o000);
      cases.push([
        'an unreadable certificate',
        ['--tls-cert', join(dir, 'locked.pem'), '--tls-key', keyFile],
        /^flower-pty: --tls-cert .*locked\.pem: cannot read it \(EACCES\)/,
      ]);
    }
    for (const [what, args, line] of cases) {
      const r = refused(args);
      t.equal(r.status, 2, `${what}: refused with the usage code`);
      t.match(r.stderr, line, what);
      t.equal(r.stderr.trim().split('\n').length, 1, `${what}: one line`);
    }
  },
);
