// The web face's HTTP and WebSocket server. Every request passes the Host check first (DNS
// rebinding); a POST and a WebSocket upgrade pass the Origin check too; bodies and frames are bounded
// (core/web/web-request.ts). A browser sends a 127.0.0.1 cookie to every port of 127.0.0.1 (cookies are
// not port-scoped), so a page served by anyone on another port can make the person's browser hand it
// the session cookie: the cookie alone opens only the pages' empty shells. Everything that carries a
// run's data or acts on a run (every socket, every API request, the report, logging out) needs the
// page's secret of the same login too, which the page keeps in its own origin's sessionStorage and sends
// in a header (SECRET_HEADER) or, on a socket, as a subprotocol (browsers set no headers on one): never
// in a URL, so never in a log, a history or a Referer. The dashboard socket carries the runs' rows; a
// run page's socket is bridged to its run (run-bridge.ts).

import { createServer as createHttpServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  hostAllowed,
  originAllowed,
  securityHeaders,
  FIRST_REQUEST_MS,
  MAX_BODY_BYTES,
  MAX_CONNECTIONS,
  MAX_WS_FRAME_BYTES,
  type HostRules,
} from '../core/web/web-request.js';
import { cookieValue, loginClient, sessionCookie, SESSION_TTL_MS } from '../core/web/web-login.js';
import { dashboardOrder, notificationFor, stateText, urgency } from '../core/web/web-dashboard.js';
import type { Sessions } from './token-store.js';
import { runKey, type FollowedRun, type RunFollower } from './run-follower.js';
import { parseHostTarget, RUN_ID_RE } from '../core/hosts/host-name.js';
import { bridgeRun } from './run-bridge.js';
import type { HostFleet } from './host-fleet.js';
import { HTML_TYPE, PAGES, readStatic, renderPage, staticFile } from './static-files.js';
import { renderReportHtml } from '../core/report/report-html.js';
import type { ReportModel } from '../core/report/report-model.js';

export const SESSION_COOKIE = 'flower_session';
/** the header a page's requests carry its secret in (assets/common.js sends it) */
export const SECRET_HEADER = 'x-flower-secret';
/** a page's socket offers SOCKET_PROTOCOL, which the server picks, and SOCKET_PROTOCOL + '.' + its secret */
export const SOCKET_PROTOCOL = 'flower';

export interface WebServerOptions {
  rules: HostRules;
  tls: { cert: Buffer; key: Buffer } | null;
  /** --behind-proxy: the browser may speak https to a proxy that speaks http to us */
  behindProxy: boolean;
  allowInput: boolean;
  sessions: Sessions;
  follower: RunFollower;
  /** the configured hosts' health (web/host-fleet.ts): shown on the dashboard beside their runs */
  hosts?: Pick<HostFleet, 'health' | 'onHealth'>;
  /** the report's model of a run's lineage (commands/report.ts): read now for the live report (`fresh`), or
   * as last read in the run's current generation and phase for the lineage every run page asks for */
  report(run: FollowedRun, o: { fresh: boolean }): Promise<ReportModel>;
  log: (line: string) => void;
}

/** what a run page's lineage shows of the report: each generation, how it ended, its document */
export function lineageOf(model: ReportModel) {
  return {
    generations: model.generations.map((g) => ({
      n: g.n,
      startedAt: g.startedAt,
      endedAt: g.endedAt,
      end: g.end,
      endWords: g.endWords,
      peak: g.peak,
      document: g.document ? { path: g.document.path, text: g.document.text, truncated: g.document.truncated } : null,
    })),
    notes: model.notes,
  };
}

/** one dashboard row: what the page shows, nothing it would have to work out */
export function dashboardRow(r: FollowedRun) {
  return {
    id: r.id,
    host: r.host ?? null,
    /** how the run's page names it: its id here, HOST:ID on another machine (two hosts' ids may be the same) */
    key: runKey(r),
    cwd: r.cwd,
    step: r.step,
    generation: r.generation,
    maxGenerations: r.status?.maxGenerations ?? null,
    phase: r.phase,
    state: stateText(r),
    urgency: urgency(r),
    context: r.context,
    window: r.window,
    at: r.status?.at ?? null,
    warnAt: r.status?.warnAt ?? null,
    clients: r.clients,
    since: r.since,
    started: r.started,
  };
}

export interface WebServer {
  server: Server;
  /** every page's socket closed and every connection cut (a refused upgrade's too), then the server closed */
  close(): Promise<void>;
}

export function createWebServer(o: WebServerOptions): WebServer {
  const scheme = o.tls ? 'https' : 'http';
  const secure = Boolean(o.tls) || o.behindProxy;
  // No per-message deflate (ws's server default, said here): a key's echo is a few bytes, and zlib on
  // its way would only add latency (and memory per page).
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_WS_FRAME_BYTES,
    perMessageDeflate: false,
    handleProtocols: () => SOCKET_PROTOCOL,
  });
  const dashboards = new Set<WebSocket>();
  const pages = new Set<WebSocket>();

  // A run page's address names its run by key, one path segment: `ID` here, `HOST:ID` (URL-encoded) elsewhere.
  const keyOf = (segment: string | undefined): string | null => {
    if (segment === undefined || segment.length > 600) return null;
    let key: string;
    try {
      key = decodeURIComponent(segment);
    } catch {
      return null;
    }
    const target = parseHostTarget(key);
    if (target === null) return RUN_ID_RE.test(key) ? key : null;
    return 'problem' in target ? null : key;
  };
  const cookieOf = (req: IncomingMessage) => cookieValue(req.headers.cookie, SESSION_COOKIE);
  const headerSecret = (req: IncomingMessage): string | null => {
    const value = req.headers[SECRET_HEADER];
    return typeof value === 'string' ? value : null;
  };
  const socketSecret = (req: IncomingMessage): string | null => {
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    const mine = offered.find((p) => p.startsWith(`${SOCKET_PROTOCOL}.`));
    return mine ? mine.slice(SOCKET_PROTOCOL.length + 1) : null;
  };
  const authorised = (req: IncomingMessage, secret: string | null) => o.sessions.valid(cookieOf(req), secret);
  const originOk = (req: IncomingMessage) => originAllowed(req.headers.origin, req.headers.host, scheme, o.behindProxy);

  const send = (
    res: ServerResponse,
    status: number,
    type: string,
    body: string | Buffer,
    extra: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...extra });
    res.end(body);
  };
  const refuse = (res: ServerResponse, status: number, text: string) =>
    send(res, status, 'text/plain; charset=utf-8', text + '\n');

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host, o.rules)) {
      o.log(`refused a request with Host ${JSON.stringify(String(req.headers.host).slice(0, 80))}`);
      res.writeHead(421, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      return void res.end('this server does not answer to that host name\n');
    }
    for (const [name, value] of Object.entries(securityHeaders(String(req.headers.host), Boolean(o.tls))))
      res.setHeader(name, value);
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    if (req.method === 'POST') {
      if (!originOk(req)) return refuse(res, 403, "refused: this request did not come from this server's own page");
      if (path === '/api/login') return login(req, res);
      if (path === '/api/logout') {
        if (!o.sessions.end(cookieOf(req), headerSecret(req))) return refuse(res, 401, 'not logged in');
        o.log('a browser logged out');
        return send(res, 204, 'text/plain', '', {
          'Set-Cookie': sessionCookie(SESSION_COOKIE, '', { secure, maxAgeMs: 0 }),
        });
      }
      return refuse(res, 404, 'not found');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method not allowed');
    const asset = staticFile(path);
    // The package's own code, the same for everyone: cached by the browser (pages and data never are).
    if (asset)
      return send(res, 200, asset.type, await readStatic(asset.file), { 'Cache-Control': 'private, max-age=3600' });
    if (path === '/login') return send(res, 200, HTML_TYPE, await renderPage(PAGES.login));
    // The pages themselves are empty shells (their data comes on requests that carry the secret).
    const shell =
      path === '/' ? PAGES.dashboard : keyOf(/^\/run\/([^/]+)$/.exec(path)?.[1]) !== null ? PAGES.run : null;
    if (shell)
      return o.sessions.shell(cookieOf(req))
        ? send(res, 200, HTML_TYPE, await renderPage(shell))
        : send(res, 401, HTML_TYPE, await renderPage(PAGES.loggedOut));
    if (!authorised(req, headerSecret(req)))
      return refuse(res, 401, "not logged in: this needs the page's secret of a login (open a login URL in this tab)");
    if (path === '/api/runs') return send(res, 200, 'application/json', JSON.stringify(rows()));
    if (path === '/api/hosts') return send(res, 200, 'application/json', JSON.stringify(hostRows()));
    const run = /^\/api\/run\/([^/]+)\/(report|lineage)$/.exec(path);
    const key = keyOf(run?.[1]);
    if (run && key !== null) return runRoute(res, key, run[2] as 'report' | 'lineage');
    return refuse(res, 404, 'not found');
  }

  async function runRoute(res: ServerResponse, id: string, what: 'report' | 'lineage'): Promise<void> {
    const run = o.follower.get(id);
    if (!run) return refuse(res, 404, `no live run has id ${id}`);
    let model: ReportModel;
    try {
      model = await o.report(run, { fresh: what === 'report' });
    } catch (error) {
      return refuse(res, 404, `no lineage to show: ${error instanceof Error ? error.message : String(error)}`);
    }
    // The report's own page, as `flower-pty report` writes it: inline style and SVG, no script (the CSP holds).
    if (what === 'report') {
      let html: string;
      try {
        html = renderReportHtml(model);
      } catch (error) {
        // a model the page cannot draw (its checks passed, a value still out of a drawing's range): one line
        return refuse(
          res,
          502,
          `the lineage of ${run.host ?? 'this machine'}'s run ${id} cannot be drawn: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return send(res, 200, HTML_TYPE, html);
    }
    return send(res, 200, 'application/json', JSON.stringify(lineageOf(model)));
  }

  function login(req: IncomingMessage, res: ServerResponse): void {
    let size = 0;
    const chunks: Buffer[] = [];
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        over = true;
        // answered, then the connection goes: the rest of the body is never read
        res.setHeader('Connection', 'close');
        refuse(res, 413, 'request body too large');
        res.once('finish', () => req.destroy());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return;
      let token: unknown;
      try {
        token = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { token?: unknown }).token;
      } catch {
        return refuse(res, 400, 'expected {"token": "..."}');
      }
      if (typeof token !== 'string' || token.length > 200) return refuse(res, 400, 'expected {"token": "..."}');
      const result = o.sessions.login(token, loginClient(req.socket.remoteAddress, cookieOf(req)));
      if (!result.ok) {
        o.log(`a login was refused (${result.status})`);
        return refuse(res, result.status, result.reason);
      }
      o.log('a browser logged in');
      send(res, 200, 'application/json', JSON.stringify({ ok: true, secret: result.secret }), {
        'Set-Cookie': sessionCookie(SESSION_COOKIE, result.session, { secure, maxAgeMs: SESSION_TTL_MS }),
      });
    });
  }

  const rows = () => dashboardOrder(o.follower.runs()).map(dashboardRow);
  const hostRows = () => o.hosts?.health() ?? [];
  o.hosts?.onHealth(() => {
    if (dashboards.size > 0 && !pending) pending = setTimeout(pushRows, 100);
  });
  let pending: NodeJS.Timeout | null = null;
  const pushRows = () => {
    pending = null;
    const message = JSON.stringify({ t: 'runs', runs: rows(), hosts: hostRows() });
    for (const ws of dashboards) ws.send(message);
  };
  o.follower.onChange((before, after) => {
    // A burst of status frames (the meter while claude writes) is one update of the rows.
    if (dashboards.size > 0 && !pending) pending = setTimeout(pushRows, 100);
    const text = notificationFor(before, after);
    const changed = after ?? before;
    const id = changed ? runKey(changed) : undefined;
    if (text && id) {
      const message = JSON.stringify({ t: 'notify', id, text, cwd: (after ?? before)!.cwd });
      for (const ws of pages) ws.send(message);
    }
  });
  // A run tells the web server when a terminal attaches or goes; one served by an older flower-pty does
  // not, and is asked every few seconds while someone looks at the dashboard. Nothing ticks otherwise:
  // an idle web server with its pages open wakes for nothing.
  let refresher: NodeJS.Timeout | null = null;
  const refreshOlder = () => {
    if (dashboards.size > 0 && o.follower.refresh() > 0) {
      refresher ??= setInterval(refreshOlder, 5_000);
      refresher.unref();
    } else if (refresher) {
      if (refresher) clearInterval(refresher);
      refresher = null;
    }
  };

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const deny = (status: number, text: string) => {
      o.log(`refused a WebSocket: ${text}`);
      socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n`);
      // a client that never closes its side must not hold the connection (nor the server's close) open
      setTimeout(() => socket.destroy(), 2_000).unref();
    };
    if (!hostAllowed(req.headers.host, o.rules)) return deny(421, 'Misdirected Request');
    if (!originOk(req)) return deny(403, 'Forbidden Origin');
    if (!authorised(req, socketSecret(req))) return deny(401, 'Unauthorized');
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const seqParam = url.searchParams.get('seq');
    const seq = seqParam !== null && /^\d{1,15}$/.test(seqParam) ? Number(seqParam) : null;
    const runSegment = /^\/ws\/run\/([^/]+)$/.exec(path)?.[1];
    const runId = runSegment === undefined ? undefined : (keyOf(runSegment) ?? undefined);
    if (path !== '/ws/runs' && runId === undefined) return deny(404, 'Not Found');
    wss.handleUpgrade(req, socket, head, async (ws) => {
      pages.add(ws);
      ws.on('close', () => {
        pages.delete(ws);
        dashboards.delete(ws);
      });
      ws.on('error', () => undefined);
      if (runId === undefined) {
        dashboards.add(ws);
        ws.send(JSON.stringify({ t: 'runs', runs: rows(), hosts: hostRows(), allowInput: o.allowInput }));
        refreshOlder();
        // the dashboard says nothing: anything it sends is refused
        ws.on('message', () => ws.close(1003, 'the dashboard socket takes no messages'));
        return;
      }
      // a remote run's forward is opened for its pages only (web/host-fleet.ts), and released when they go
      let released = false;
      // what the page says while its forward opens is kept, and handed to the bridge once it listens
      const early: Array<[unknown, boolean]> = [];
      const keep = (data: unknown, binary: boolean) => void early.push([data, binary]);
      ws.on('message', keep);
      const problem = await (o.follower.open?.(runId) ?? Promise.resolve(null));
      ws.off('message', keep);
      if (problem !== null) {
        ws.send(JSON.stringify({ t: 'ended', reason: 'gone', message: problem }));
        return ws.close(1000, 'not opened');
      }
      const release = () => {
        if (!released) o.follower.release?.(runId);
        released = true;
      };
      if (ws.readyState !== ws.OPEN) return release();
      ws.on('close', release);
      const link = o.follower.feed(runId);
      if (!link) {
        ws.send(JSON.stringify({ t: 'ended', reason: 'gone', message: `no live run has id ${runId}` }));
        return ws.close(1000, 'no such run');
      }
      bridgeRun(ws, {
        ...link,
        view: () => o.follower.get(runId)?.status ?? null,
        seq,
        allowInput: o.allowInput,
        log: o.log,
      });
      for (const [data, binary] of early) ws.emit('message', data, binary);
    });
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      o.log(`a request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, 500, 'internal error');
    });
  };
  const server = o.tls ? createHttpsServer({ cert: o.tls.cert, key: o.tls.key }, listener) : createHttpServer(listener);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.on('upgrade', upgrade);
  // Upgraded sockets stay counted by the server: close() would wait on them for ever.
  // A connection that sends nothing is closed once FIRST_REQUEST_MS pass without a whole request (the
  // header timeout only starts with a first byte), and no more than MAX_CONNECTIONS are held at once.
  const connections = new Set<Duplex>();
  const waiting = new WeakMap<Duplex, NodeJS.Timeout>();
  const answered = (socket: Duplex) => {
    clearTimeout(waiting.get(socket));
    waiting.delete(socket);
  };
  server.maxConnections = MAX_CONNECTIONS;
  server.on('connection', (socket: Duplex) => {
    connections.add(socket);
    const timer = setTimeout(() => socket.destroy(), FIRST_REQUEST_MS);
    timer.unref();
    waiting.set(socket, timer);
    socket.on('close', () => {
      answered(socket);
      connections.delete(socket);
    });
  });
  // over TLS the request's socket is the TLS socket, whose underlying connection is the one counted
  const counted = (socket: Duplex): Duplex => (socket as Duplex & { _parent?: Duplex })._parent ?? socket;
  server.on('request', (req: IncomingMessage) => answered(counted(req.socket)));
  server.on('upgrade', (req: IncomingMessage) => answered(counted(req.socket)));
  return {
    server,
    close() {
      if (refresher) clearInterval(refresher);
      if (pending) clearTimeout(pending);
      for (const ws of pages) ws.terminate();
      for (const socket of connections) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
