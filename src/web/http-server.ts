// The web face's HTTP and WebSocket server. Every request passes the Host check first (DNS
// rebinding); a POST and a WebSocket upgrade pass the Origin check too; bodies and frames are bounded
// (core/web/web-request.ts). A browser sends a 127.0.0.1 cookie to every port of 127.0.0.1 (cookies are
// not port-scoped), so a page served by anyone on another port can make the person's browser hand it
// the session cookie: the cookie alone opens only the pages' empty shells. Everything that carries a
// run's data or acts on a run (every socket, every API request, the report, logging out) needs the
// page's secret of the same login too, which the page keeps in its own origin's sessionStorage and sends
// in a header (SECRET_HEADER) or, on a socket, as a subprotocol (browsers set no headers on one): never
// in a URL, so never in a log, a history or a Referer. The dashboard socket carries the runs' rows; a
// run page's socket is bridged to its run (run-bridge.ts). Here: the routes and the wiring; the checks of
// who asks are request-auth.ts, the login login-routes.ts, a run's report and lineage run-routes.ts, the
// pages' sockets page-sockets.ts and socket-upgrade.ts, the connections' limits connection-limits.ts.

import { createServer as createHttpServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { hostAllowed, securityHeaders, type HostRules } from '../core/web/web-request.js';
import { runKeyOfSegment } from '../core/web/page-address.js';
import type { Sessions } from './token-store.js';
import type { FollowedRun, RunFollower } from './run-follower.js';
import type { HostFleet } from './host-fleet.js';
import { HTML_TYPE, PAGES, readStatic, renderPage, staticFile } from './static-files.js';
import type { ReportModel } from '../core/report/report-model.js';
import { refuse, send } from './http-answer.js';
import { cookieOf, headerSecret, requestAuth, type RequestAuth } from './request-auth.js';
import { answerLogin, answerLogout, type LoginRouteOptions } from './login-routes.js';
import { answerRunRoute } from './run-routes.js';
import { holdPageSockets, type PageSockets } from './page-sockets.js';
import { socketUpgrade } from './socket-upgrade.js';
import { limitConnections } from './connection-limits.js';

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

export interface WebServer {
  server: Server;
  /** every page's socket closed and every connection cut (a refused upgrade's too), then the server closed */
  close(): Promise<void>;
}

export function createWebServer(o: WebServerOptions): WebServer {
  const auth = requestAuth({ sessions: o.sessions, scheme: o.tls ? 'https' : 'http', behindProxy: o.behindProxy });
  const sockets = holdPageSockets({ follower: o.follower, hosts: o.hosts });
  const login: LoginRouteOptions = { sessions: o.sessions, secure: Boolean(o.tls) || o.behindProxy, log: o.log };
  const routes: RouteContext = { ...o, auth, sockets, login };
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    answerRequest(req, res, routes).catch((error: unknown) => {
      o.log(`a request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, 500, 'internal error');
    });
  };
  const server = o.tls ? createHttpsServer({ cert: o.tls.cert, key: o.tls.key }, listener) : createHttpServer(listener);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.on('upgrade', socketUpgrade({ ...o, auth, sockets }));
  const connections = limitConnections(server);
  return {
    server,
    close() {
      sockets.close();
      connections.cutAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface RouteContext extends WebServerOptions {
  auth: RequestAuth;
  sockets: PageSockets;
  login: LoginRouteOptions;
}

// The routes: the Host check first, then a POST (the Origin checked), the package's own files, the pages'
// empty shells (the cookie alone), and everything with a run's data (the cookie and the page's secret).
async function answerRequest(req: IncomingMessage, res: ServerResponse, o: RouteContext): Promise<void> {
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
    if (!o.auth.originOk(req))
      return refuse(res, 403, "refused: this request did not come from this server's own page");
    if (path === '/api/login') return answerLogin(req, res, o.login);
    if (path === '/api/logout') return answerLogout(req, res, o.login);
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
    path === '/' ? PAGES.dashboard : runKeyOfSegment(/^\/run\/([^/]+)$/.exec(path)?.[1]) !== null ? PAGES.run : null;
  if (shell)
    return o.sessions.shell(cookieOf(req))
      ? send(res, 200, HTML_TYPE, await renderPage(shell))
      : send(res, 401, HTML_TYPE, await renderPage(PAGES.loggedOut));
  if (!o.auth.authorised(req, headerSecret(req)))
    return refuse(res, 401, "not logged in: this needs the page's secret of a login (open a login URL in this tab)");
  if (path === '/api/runs') return send(res, 200, 'application/json', JSON.stringify(o.sockets.rows()));
  if (path === '/api/hosts') return send(res, 200, 'application/json', JSON.stringify(o.sockets.hostRows()));
  const run = /^\/api\/run\/([^/]+)\/(report|lineage)$/.exec(path);
  const key = runKeyOfSegment(run?.[1]);
  if (run && key !== null) return answerRunRoute(res, key, run[2] as 'report' | 'lineage', o);
  return refuse(res, 404, 'not found');
}
