// Who sent a request, as the web server checks it: the session cookie, the page's secret (in a header on a
// request, as a subprotocol on a socket, never in a URL) and the Origin. The cookie alone opens only a
// page's empty shell; anything with a run's data needs the cookie and the secret of the same login
// (http-server.ts says why).

import type { IncomingMessage } from 'node:http';
import { originAllowed } from '../core/web/web-request.js';
import { cookieValue } from '../core/web/web-login.js';
import type { Sessions } from './token-store.js';

export const SESSION_COOKIE = 'flower_session';
/** the header a page's requests carry its secret in (assets/common.js sends it) */
export const SECRET_HEADER = 'x-flower-secret';
/** a page's socket offers SOCKET_PROTOCOL, which the server picks, and SOCKET_PROTOCOL + '.' + its secret */
export const SOCKET_PROTOCOL = 'flower';

export function cookieOf(req: IncomingMessage): string | null {
  return cookieValue(req.headers.cookie, SESSION_COOKIE);
}

export function headerSecret(req: IncomingMessage): string | null {
  const value = req.headers[SECRET_HEADER];
  return typeof value === 'string' ? value : null;
}

export function socketSecret(req: IncomingMessage): string | null {
  const offered = String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  const mine = offered.find((p) => p.startsWith(`${SOCKET_PROTOCOL}.`));
  return mine ? mine.slice(SOCKET_PROTOCOL.length + 1) : null;
}

export interface RequestAuth {
  /** the cookie and the page's secret of the same login */
  authorised(req: IncomingMessage, secret: string | null): boolean;
  /** the request came from this server's own page */
  originOk(req: IncomingMessage): boolean;
}

export function requestAuth(o: { sessions: Sessions; scheme: 'http' | 'https'; behindProxy: boolean }): RequestAuth {
  return {
    authorised: (req, secret) => o.sessions.valid(cookieOf(req), secret),
    originOk: (req) => originAllowed(req.headers.origin, req.headers.host, o.scheme, o.behindProxy),
  };
}
