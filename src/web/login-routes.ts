// The login and the logout: a login URL's token, posted by the login page, is traded for a session
// cookie and the page's secret (core/web/web-login.ts decides; token-store.ts keeps them); a logout ends
// the session on the server. The body is bounded: past MAX_BODY_BYTES the request is answered and cut.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from '../core/web/web-request.js';
import { loginClient, sessionCookie, SESSION_TTL_MS } from '../core/web/web-login.js';
import type { Sessions } from './token-store.js';
import { refuse, send } from './http-answer.js';
import { cookieOf, headerSecret, SESSION_COOKIE } from './request-auth.js';

export interface LoginRouteOptions {
  sessions: Sessions;
  /** the cookie is marked Secure: the browser speaks https (to us, or to a proxy in front) */
  secure: boolean;
  log: (line: string) => void;
}

export function answerLogin(req: IncomingMessage, res: ServerResponse, o: LoginRouteOptions): void {
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
      'Set-Cookie': sessionCookie(SESSION_COOKIE, result.session, { secure: o.secure, maxAgeMs: SESSION_TTL_MS }),
    });
  });
}

export function answerLogout(req: IncomingMessage, res: ServerResponse, o: LoginRouteOptions): void {
  if (!o.sessions.end(cookieOf(req), headerSecret(req))) return refuse(res, 401, 'not logged in');
  o.log('a browser logged out');
  send(res, 204, 'text/plain', '', {
    'Set-Cookie': sessionCookie(SESSION_COOKIE, '', { secure: o.secure, maxAgeMs: 0 }),
  });
}
