// The web face's decisions, pure: where it may listen, which Host and Origin it answers, login tokens
// and sessions, the failed-login limit, what a page may do, the dashboard's order and notifications.
import t from 'tap';
import {
  baseUrl,
  bindProblem,
  isLoopbackHost,
  parseListen,
  DEFAULT_WEB_PORT,
} from '../../../src/core/web/web-listen.js';
import { hostAllowed, originAllowed, securityHeaders, splitHostHeader } from '../../../src/core/web/web-request.js';
import {
  consumeToken,
  cookieValue,
  loginAllowed,
  loginClient,
  type LoginLimit,
  loginFailed,
  LOGIN_CLIENTS_KEPT,
  NO_FAILED_LOGINS,
  sessionCookie,
  sessionValid,
  FAILED_LOGINS_ALLOWED,
  FAILED_LOGIN_WINDOW_MS,
} from '../../../src/core/web/web-login.js';
import { composeKeys, keyBarKeys, mayAct, permissionWaiting, KEY_BAR } from '../../../src/core/web/web-access.js';
import { pictureOrder } from '../../../src/core/picture/run-picture.js';
import {
  dashboardOrder,
  notificationFor,
  stateText,
  urgency,
  type DashboardRun,
} from '../../../src/core/web/web-dashboard.js';
import type { StatusView } from '../../../src/core/screen/status.js';

t.test('--listen: HOST:PORT, [v6]:PORT, a port alone; garbage refused', async (t) => {
  t.same(parseListen('127.0.0.1:8740'), { host: '127.0.0.1', port: 8740 });
  t.same(parseListen('[::1]:9000'), { host: '::1', port: 9000 });
  t.same(parseListen('9000'), { host: '127.0.0.1', port: 9000 });
  t.same(parseListen(':0'), { host: '127.0.0.1', port: 0 });
  t.match(parseListen('localhost'), { problem: /--listen expects HOST:PORT/ });
  t.match(parseListen('1.2.3.4:99999'), { problem: /not between 0 and 65535/ });
  t.match(parseListen('a b:1'), { problem: /HOST:PORT/ });
  t.equal(DEFAULT_WEB_PORT, 8740);
});

t.test('binding: loopback always; anything else only with TLS or --behind-proxy', async (t) => {
  for (const h of ['127.0.0.1', '127.8.9.1', 'localhost', '::1', '[::1]']) t.ok(isLoopbackHost(h), h);
  for (const h of ['0.0.0.0', '::', '192.168.1.4', 'box.tailnet.ts.net', '127.0.0.1.evil.com'])
    t.notOk(isLoopbackHost(h), h);
  t.equal(bindProblem('127.0.0.1', { tls: false, behindProxy: false }), null);
  t.match(
    bindProblem('0.0.0.0', { tls: false, behindProxy: false }),
    /refusing to listen on 0\.0\.0\.0: .*--tls-cert FILE --tls-key FILE.*--behind-proxy/,
  );
  t.equal(bindProblem('0.0.0.0', { tls: true, behindProxy: false }), null);
  t.equal(bindProblem('100.64.0.3', { tls: false, behindProxy: true }), null);
  t.equal(baseUrl({ host: '0.0.0.0', port: 1 }, false, null), 'http://127.0.0.1:1');
  t.equal(baseUrl({ host: '::1', port: 2 }, true, null), 'https://[::1]:2');
  t.equal(baseUrl({ host: '127.0.0.1', port: 2 }, false, 'box.ts.net'), 'http://box.ts.net');
});

t.test(
  'Host: loopback names on any port (ssh -L), the listen address, public names; a rebinding name is refused',
  async (t) => {
    const rules = { listenHost: '127.0.0.1', port: 8740, publicHosts: ['box.tailnet.ts.net'] };
    for (const h of [
      '127.0.0.1:8740',
      'localhost:9000',
      '[::1]:8740',
      'localhost',
      'box.tailnet.ts.net',
      'BOX.tailnet.ts.net',
    ])
      t.ok(hostAllowed(h, rules), h);
    for (const h of [
      undefined,
      '',
      'evil.com:8740',
      'evil.com',
      '127.0.0.1.evil.com:8740',
      'localhost:8740@evil',
      '[::1',
      'box.tailnet.ts.net.evil.com',
    ])
      t.notOk(hostAllowed(h, rules), String(h));
    const lan = { listenHost: '192.168.1.4', port: 8740, publicHosts: [] };
    t.ok(hostAllowed('192.168.1.4:8740', lan));
    t.notOk(hostAllowed('192.168.1.4:8741', lan), 'the listen address on another port is not this server');
    t.same(splitHostHeader('[::1]:80'), { host: '::1', port: 80 });
    t.equal(splitHostHeader('a/b'), null);
  },
);

t.test('Origin: this server as the browser reached it, or refused (missing included)', async (t) => {
  t.ok(originAllowed('http://127.0.0.1:8740', '127.0.0.1:8740', 'http', false));
  t.ok(originAllowed('http://localhost:9000', 'localhost:9000', 'http', false));
  t.notOk(originAllowed(undefined, '127.0.0.1:8740', 'http', false), 'no Origin');
  t.notOk(originAllowed('http://evil.com', '127.0.0.1:8740', 'http', false));
  t.notOk(originAllowed('https://127.0.0.1:8740', '127.0.0.1:8740', 'http', false), 'another scheme');
  t.ok(originAllowed('https://box.ts.net', 'box.ts.net', 'http', true), 'behind a proxy that speaks https');
  t.notOk(originAllowed('null', '127.0.0.1:8740', 'http', false), 'an opaque origin (a sandboxed frame, a file)');
});

t.test('headers: CSP with no inline script and no framing, nosniff', async (t) => {
  const h = securityHeaders('127.0.0.1:8740', false);
  t.match(h['Content-Security-Policy'], /script-src 'self';/);
  t.notMatch(h['Content-Security-Policy'], /script-src[^;]*unsafe-inline/);
  t.match(h['Content-Security-Policy'], /frame-ancestors 'none'/);
  t.match(h['Content-Security-Policy'], /default-src 'none'/);
  t.match(h['Content-Security-Policy'], /connect-src 'self' ws:\/\/127\.0\.0\.1:8740/);
  t.equal(h['X-Content-Type-Options'], 'nosniff');
});

t.test('a token is good once, until it expires; expired ones are dropped', async (t) => {
  const entries = [
    { hash: 'a', expires: 1000 },
    { hash: 'b', expires: 500 },
  ];
  const first = consumeToken(entries, 'a', 100);
  t.same(first, { ok: true, left: [{ hash: 'b', expires: 500 }] });
  t.same(
    consumeToken(first.left, 'a', 100),
    { ok: false, reason: 'unknown', left: [{ hash: 'b', expires: 500 }] },
    'used: never again',
  );
  t.same(consumeToken(entries, 'b', 600), { ok: false, reason: 'expired', left: [{ hash: 'a', expires: 1000 }] });
  t.same(
    consumeToken(entries, 'a', 1000),
    { ok: false, reason: 'expired', left: [] },
    'at the expiry itself it is gone',
  );
  t.ok(sessionValid(10, 9));
  t.notOk(sessionValid(10, 10));
  t.notOk(sessionValid(undefined, 0));
});

t.test(
  'failed logins: five a minute per client, then refused until the oldest ages out; another client is not',
  async (t) => {
    let limit: LoginLimit = NO_FAILED_LOGINS;
    const me = loginClient('127.0.0.1', null);
    const other = loginClient('127.0.0.1', 'their-cookie');
    for (let i = 0; i < FAILED_LOGINS_ALLOWED; i++) {
      t.ok(loginAllowed(limit, other, i), `attempt ${i + 1}`);
      limit = loginFailed(limit, other, i);
    }
    t.notOk(loginAllowed(limit, other, 10));
    t.ok(loginAllowed(limit, me, 10), 'another client (another cookie) is not locked out by them');
    t.ok(loginAllowed(limit, other, FAILED_LOGIN_WINDOW_MS + 1), 'a minute later');
    t.same(
      loginFailed(limit, other, FAILED_LOGIN_WINDOW_MS * 3).failures.get(other),
      [FAILED_LOGIN_WINDOW_MS * 3],
      'old failures are forgotten',
    );
    let flood = NO_FAILED_LOGINS;
    for (let i = 0; i < LOGIN_CLIENTS_KEPT + 50; i++) flood = loginFailed(flood, `client ${i}`, 0);
    t.equal(flood.failures.size, LOGIN_CLIENTS_KEPT, 'a flood of clients is bounded');
  },
);

t.test('the session cookie is HttpOnly, SameSite=Strict, Secure over https', async (t) => {
  t.equal(
    sessionCookie('s', 'v', { secure: false, maxAgeMs: 60_000 }),
    's=v; HttpOnly; SameSite=Strict; Path=/; Max-Age=60',
  );
  t.match(sessionCookie('s', 'v', { secure: true, maxAgeMs: 1000 }), /; Secure$/);
  t.equal(cookieValue('a=1; s=two; b=3', 's'), 'two');
  t.equal(cookieValue('ss=1', 's'), null);
  t.equal(cookieValue(undefined, 's'), null);
});

const view = (over: Partial<StatusView> = {}): StatusView => ({
  phase: 'working',
  context: 1000,
  window: 100_000,
  at: 50_000,
  warnAt: 30_000,
  generation: 1,
  maxGenerations: 8,
  handoff: true,
  reviewLeft: null,
  held: false,
  workbench: '/w',
  documentPath: '/w/notes/交接-work.md',
  note: '',
  attention: null,
  ...over,
});

t.test('read-only refuses every change; with --allow-input each action needs its state', async (t) => {
  for (const kind of [
    'input',
    'approve',
    'deny',
    'force-handoff',
    'hold',
    'release',
    'end',
    'save-document',
  ] as const) {
    t.match(
      mayAct(
        { kind },
        { allowInput: false, view: view({ phase: 'review', attention: 'waiting for your permission: Bash x' }) },
      ),
      { ok: false, problem: /read-only.*--allow-input/ },
      kind,
    );
  }
  const on = (v: StatusView | null) => ({ allowInput: true, view: v });
  t.same(mayAct({ kind: 'input' }, on(view())), { ok: true });
  t.match(mayAct({ kind: 'approve' }, on(view())), { ok: false, problem: /nothing is waiting/ });
  t.same(mayAct({ kind: 'approve' }, on(view({ attention: 'waiting for your permission: Bash touch x' }))), {
    ok: true,
  });
  t.same(mayAct({ kind: 'deny' }, on(view({ attention: 'waiting for your permission: Bash touch x' }))), { ok: true });
  t.match(mayAct({ kind: 'save-document' }, on(view())), { ok: false, problem: /only during its review/ });
  t.same(mayAct({ kind: 'save-document' }, on(view({ phase: 'review' }))), { ok: true });
  t.same(mayAct({ kind: 'hold' }, on(view({ phase: 'review' }))), { ok: true });
  t.match(mayAct({ kind: 'release' }, on(view())), { ok: false });
  t.same(mayAct({ kind: 'force-handoff' }, on(view({ phase: 'near' }))), { ok: true });
  t.match(mayAct({ kind: 'force-handoff' }, on(view({ phase: 'review' }))), { ok: false });
  t.match(mayAct({ kind: 'end' }, on(view({ phase: 'stopped' }))), { ok: false });
  t.equal(permissionWaiting(view({ attention: 'waiting for your permission: Bash touch x' })), 'Bash touch x');
  t.equal(permissionWaiting(view({ attention: 'parked until 03:00' })), null);
  t.equal(permissionWaiting(null), null);
});

t.test(
  'the compose box is one bracketed paste and Enter; its own end marker cannot close the paste early',
  async (t) => {
    t.equal(composeKeys('hi\nthere'), '\u001b[200~hi\nthere\u001b[201~\r');
    t.equal(composeKeys('a\u001b[201~b'), '\u001b[200~ab\u001b[201~\r');
    t.equal(
      composeKeys('a\u001b[20\u001b[201~1~b'),
      '\u001b[200~ab\u001b[201~\r',
      'a marker split by another is taken out too',
    );
    t.equal(composeKeys('\u001b[2\u001b[20\u001b[201~1~01~x'), '\u001b[200~x\u001b[201~\r', 'until none is left');
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      t.equal(keyBarKeys(name), undefined, `no key named ${name}`);
    t.equal(keyBarKeys('enter'), '\r');
    t.equal(KEY_BAR['shift-tab'], '\u001b[Z');
    t.equal(KEY_BAR['ctrl-c'], '\u0003');
  },
);

const row = (id: string, over: Partial<DashboardRun> = {}): DashboardRun => ({
  id,
  cwd: `/p/${id}`,
  step: 'work',
  started: `2026-12-01T00:00:0${id.length}Z`,
  clients: 0,
  generation: 1,
  phase: 'working',
  context: 0,
  window: 100_000,
  status: view(),
  since: 0,
  ...over,
});

t.test('the dashboard orders runs of equal urgency by last activity, as the chooser does', async (t) => {
  const at = (m: number) => Date.parse(`2026-12-01T04:${String(m).padStart(2, '0')}:00.000Z`);
  const rows = [
    row('old', { since: at(1), active: at(2) }),
    row('drew', { since: at(1), active: at(30) }),
    row('changed', { since: at(20) }),
    row('ask1', { since: at(5), status: view({ attention: 'waiting for your permission: Bash a' }) }),
    row('ask2', { since: at(9), status: view({ attention: 'waiting for your permission: Bash b' }) }),
  ];
  const order = dashboardOrder(rows).map((r) => r.id);
  t.same(order, ['ask2', 'ask1', 'drew', 'changed', 'old'], 'needs first, then the last to draw or change first');
  // the chooser's order of the same runs, as their servers report them (ISO times)
  const facts = rows.map(({ active, since, ...r }) => ({
    ...r,
    since: new Date(since).toISOString(),
    ...(active !== undefined ? { active: new Date(active).toISOString() } : {}),
  }));
  t.same(
    pictureOrder(facts).map((r) => r.id),
    order,
    'one order for the dashboard and the chooser',
  );
});

t.test(
  'the dashboard: needs-a-person first (permission, review, parked, idle), then working; notifications on the way in',
  async (t) => {
    const working = row('a');
    const idle = row('bb', { status: view({ attention: 'waiting for you' }) });
    const parked = row('ccc', { status: view({ attention: 'parked until 03:04' }) });
    const review = row('dddd', { phase: 'review', status: view({ phase: 'review', reviewLeft: 7.2 }) });
    const permission = row('eeeee', { status: view({ attention: 'waiting for your permission: Bash touch x' }) });
    t.same(
      dashboardOrder([working, idle, parked, review, permission]).map((r) => r.id),
      ['eeeee', 'dddd', 'ccc', 'bb', 'a'],
    );
    t.same([working, idle, parked, review, permission].map(urgency), [5, 3, 2, 1, 0]);
    t.equal(stateText(review), 'in review (8 s left)');
    t.equal(stateText(permission), 'waiting for your permission: Bash touch x');
    t.equal(
      stateText(
        row('f', {
          phase: 'review',
          status: view({ phase: 'review', reviewLeft: 3, deadEnds: '2 failures not in the document' }),
        }),
      ),
      'in review (3 s left) · 2 failures not in the document',
      'beside the countdown',
    );
    t.equal(
      stateText(row('g', { status: view({ deadEnds: '1 dead end repeated' }) })),
      'working · 1 dead end repeated',
    );
    t.equal(notificationFor(working, permission), 'waiting for your permission: Bash touch x');
    t.equal(notificationFor(working, review), 'in review (8 s left)');
    t.equal(
      notificationFor(review, { ...review, status: view({ phase: 'review', reviewLeft: 6 }) }),
      null,
      'the countdown is not news',
    );
    t.equal(notificationFor(permission, working), null, 'back to work is not news');
    t.equal(notificationFor(working, null), 'the run ended');
    t.equal(notificationFor(null, working), null);
  },
);
