// Login tokens and sessions of the web face. A token is 256 random bits shown once (in the login URL)
// and kept only as its sha256 in the 0600 tokens file, so `flower-pty web --login` can add one for a
// server that is already running; it is good once, for ten minutes. A login trades it for a session:
// another 256 random bits in an HttpOnly cookie, kept (hashed) in this process's memory only, so a
// restart logs every page out. Neither a token nor a cookie is ever written to a log.

import { createHash, randomBytes } from 'node:crypto';
import { openSync, closeSync, writeSync, readFileSync, renameSync } from 'node:fs';
import { consumeToken, loginAllowed, loginFailed, sessionValid, SESSION_TTL_MS, TOKEN_TTL_MS, type LoginLimit, type TokenEntry } from '../core/web-login.js';

export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');
const newSecret = (): string => randomBytes(32).toString('base64url');

function readEntries(file: string): TokenEntry[] {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(value) ? value.filter((e): e is TokenEntry => typeof e?.hash === 'string' && typeof e?.expires === 'number') : [];
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

export type LoginResult = { ok: true; session: string } | { ok: false; status: 401 | 429; reason: string };

export interface Sessions {
  login(token: string, now?: number): LoginResult;
  valid(session: string | null, now?: number): boolean;
}

export function openSessions(tokensFile: string): Sessions {
  const sessions = new Map<string, number>();
  let limit: LoginLimit = { failures: [] };
  return {
    login(token, now = Date.now()) {
      if (!loginAllowed(limit, now)) return { ok: false, status: 429, reason: 'too many failed logins: wait a minute' };
      const verdict = consumeToken(readEntries(tokensFile), hashSecret(token), now);
      writeEntries(tokensFile, verdict.left);
      if (!verdict.ok) {
        limit = loginFailed(limit, now);
        return { ok: false, status: 401, reason: verdict.reason === 'expired' ? 'this login link has expired: flower-pty web --login prints a new one' : 'this login link is not valid (each one works once): flower-pty web --login prints a new one' };
      }
      const session = newSecret();
      for (const [hash, expires] of sessions) if (!sessionValid(expires, now)) sessions.delete(hash);
      sessions.set(hashSecret(session), now + SESSION_TTL_MS);
      return { ok: true, session };
    },
    valid(session, now = Date.now()) {
      return session !== null && sessionValid(sessions.get(hashSecret(session)), now);
    },
  };
}
