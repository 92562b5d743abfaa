// Who is logged in to the web face, as pure decisions over hashes and times (the caller hashes and
// keeps the clock): a login token is good once, until it expires; a session cookie until its expiry;
// failed logins are limited per client so a token cannot be guessed (it has 256 bits: this also stops a
// flood), and never stand in the way of a valid token.

export const TOKEN_TTL_MS = 10 * 60_000;
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
export const FAILED_LOGINS_ALLOWED = 5;
export const FAILED_LOGIN_WINDOW_MS = 60_000;

export interface TokenEntry {
  /** sha256 of the token, hex */
  hash: string;
  expires: number;
}

export type TokenVerdict =
  | { ok: true; left: TokenEntry[] }
  | { ok: false; reason: 'unknown' | 'expired'; left: TokenEntry[] };

// Takes the token out whatever the verdict (used or expired, it is never good again); expired ones go too.
export function consumeToken(entries: readonly TokenEntry[], hash: string, now: number): TokenVerdict {
  const left = entries.filter((e) => e.hash !== hash && e.expires > now);
  const found = entries.find((e) => e.hash === hash);
  if (!found) return { ok: false, reason: 'unknown', left };
  if (found.expires <= now) return { ok: false, reason: 'expired', left };
  return { ok: true, left };
}

export function sessionValid(expires: number | undefined, now: number): boolean {
  return expires !== undefined && expires > now;
}

/** failed logins, per client (the connection's address and the cookie it sent): one client's guesses
 * never lock another out, and a valid token is never refused, however many failures came before it */
export interface LoginLimit {
  /** per client, the times of its failed logins within the window */
  failures: ReadonlyMap<string, readonly number[]>;
}

export const NO_FAILED_LOGINS: LoginLimit = { failures: new Map() };
/** clients remembered at most: a flood of new addresses forgets the oldest rather than growing without end */
export const LOGIN_CLIENTS_KEPT = 1024;

const recent = (times: readonly number[] | undefined, now: number): number[] =>
  (times ?? []).filter((at) => now - at < FAILED_LOGIN_WINDOW_MS);

export function loginAllowed(limit: LoginLimit, client: string, now: number): boolean {
  return recent(limit.failures.get(client), now).length < FAILED_LOGINS_ALLOWED;
}

export function loginFailed(limit: LoginLimit, client: string, now: number): LoginLimit {
  const failures = new Map<string, readonly number[]>();
  for (const [key, times] of limit.failures) {
    const left = recent(times, now);
    if (key !== client && left.length > 0) failures.set(key, left);
  }
  failures.set(client, [...recent(limit.failures.get(client), now), now]);
  while (failures.size > LOGIN_CLIENTS_KEPT) failures.delete(failures.keys().next().value!);
  return { failures };
}

/** the client a failed login counts against: where the connection came from, and the cookie it carried */
export const loginClient = (address: string | undefined, cookie: string | null): string =>
  `${address ?? '?'} ${cookie ?? ''}`;

// The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's request carries
// it), Secure when the browser speaks https, the whole site, and gone when it expires.
export function sessionCookie(name: string, value: string, o: { secure: boolean; maxAgeMs: number }): string {
  return `${name}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${Math.floor(o.maxAgeMs / 1000)}${o.secure ? '; Secure' : ''}`;
}

/** the value of one cookie in a Cookie header, or null */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
