// Login tokens and sessions of the web face. A token is 256 random bits shown once (in the login URL)
// and kept only as its sha256 in the 0600 tokens file, so `flower-pty web --login` can add one for a
// server that is already running; it is good once, for ten minutes. A login trades it for a session:
// another 256 random bits in an HttpOnly cookie, and a third 256 the page keeps in its own origin's
// sessionStorage (the page's secret), both kept (hashed) in this process's memory only, so a restart
// logs every page out. A browser sends a 127.0.0.1 cookie to every port of 127.0.0.1, so the cookie
// alone opens only an empty page shell: a run's data and every action need the secret of the same
// login, which no page of another origin can read. Neither is ever written to a log.

import { createHash, randomBytes } from 'node:crypto';
import { openSync, closeSync, writeSync, readFileSync, renameSync } from 'node:fs';
import {
  consumeToken,
  loginAllowed,
  loginFailed,
  NO_FAILED_LOGINS,
  sessionValid,
  SESSION_TTL_MS,
  TOKEN_TTL_MS,
  type LoginLimit,
  type TokenEntry,
} from '../core/web/web-login.js';
import { ownCommandHere } from '../adapters/own-command-here.js';

// the way to a new login link, flower-pty typed as it works in the folder the web face was started from
const loginStep = (): string => `${ownCommandHere(process.env, process.cwd())} web --login prints a new one`;

export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');
const newSecret = (): string => randomBytes(32).toString('base64url');

function readEntries(file: string): TokenEntry[] {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(value)
      ? value.filter((e): e is TokenEntry => typeof e?.hash === 'string' && typeof e?.expires === 'number')
      : [];
  } catch {
    return [];
  }
}

function writeEntries(file: string, entries: TokenEntry[]): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  writeSync(fd, JSON.stringify(entries));
  closeSync(fd);
  renameSync(temp, file);
}

/** a new login token: its hash goes to the file, the token itself only to the caller */
export function issueToken(file: string, now: number = Date.now()): string {
  const token = newSecret();
  const entries = readEntries(file).filter((e) => e.expires > now);
  writeEntries(file, [...entries, { hash: hashSecret(token), expires: now + TOKEN_TTL_MS }]);
  return token;
}

export type LoginResult =
  | { ok: true; session: string; secret: string }
  | { ok: false; status: 401 | 429; reason: string };

export interface Sessions {
  /** `client`: who tries (core/web/web-login.ts loginClient), for the failed-login limit */
  login(token: string, client: string, now?: number): LoginResult;
  /** the cookie alone: enough for a page's empty shell (no run's data is in it), nothing more */
  shell(session: string | null, now?: number): boolean;
  /** the cookie and the page's secret of the same login: what everything with a run's data needs */
  valid(session: string | null, secret: string | null, now?: number): boolean;
  /** logged out: the session is gone on the server, whatever still holds its cookie or secret */
  end(session: string | null, secret: string | null): boolean;
}

interface Session {
  expires: number;
  /** sha256 of the page's secret */
  secret: string;
}

export function openSessions(tokensFile: string): Sessions {
  // by the cookie's sha256
  const sessions = new Map<string, Session>();
  let limit: LoginLimit = NO_FAILED_LOGINS;
  const find = (session: string | null, now: number): Session | null => {
    if (session === null) return null;
    const found = sessions.get(hashSecret(session));
    return found && sessionValid(found.expires, now) ? found : null;
  };
  const valid = (session: string | null, secret: string | null, now = Date.now()): boolean => {
    const found = find(session, now);
    return found !== null && secret !== null && hashSecret(secret) === found.secret;
  };
  return {
    login(token, client, now = Date.now()) {
      const verdict = consumeToken(readEntries(tokensFile), hashSecret(token), now);
      writeEntries(tokensFile, verdict.left);
      // A valid token logs in whatever failed before it: the limit slows guessing, never the owner.
      if (!verdict.ok) {
        if (!loginAllowed(limit, client, now))
          return { ok: false, status: 429, reason: 'too many failed logins: wait a minute' };
        limit = loginFailed(limit, client, now);
        return {
          ok: false,
          status: 401,
          reason:
            verdict.reason === 'expired'
              ? `this login link has expired: ${loginStep()}`
              : `this login link is not valid (each one works once): ${loginStep()}`,
        };
      }
      const session = newSecret();
      const secret = newSecret();
      for (const [hash, s] of sessions) if (!sessionValid(s.expires, now)) sessions.delete(hash);
      sessions.set(hashSecret(session), { expires: now + SESSION_TTL_MS, secret: hashSecret(secret) });
      return { ok: true, session, secret };
    },
    shell(session, now = Date.now()) {
      return find(session, now) !== null;
    },
    valid,
    end(session, secret) {
      if (!valid(session, secret)) return false;
      sessions.delete(hashSecret(session!));
      return true;
    },
  };
}
