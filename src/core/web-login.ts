// Who is logged in to the web face, as pure decisions over hashes and times (the caller hashes and
// keeps the clock): a login token is good once, until it expires; a session cookie until its expiry;
// failed logins are limited so a token cannot be guessed (it has 256 bits: this also stops a flood).

export const TOKEN_TTL_MS = 10 * 60_000;
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
export const FAILED_LOGINS_ALLOWED = 5;
export const FAILED_LOGIN_WINDOW_MS = 60_000;

export interface TokenEntry {
  /** sha256 of the token, hex */
  hash: string;
  expires: number;
}

export type TokenVerdict = { ok: true; left: TokenEntry[] } | { ok: false; reason: 'unknown' | 'expired'; left: TokenEntry[] };

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

export interface LoginLimit {
  /** times of the failed logins within the window */
  failures: readonly number[];
}

export function loginAllowed(limit: LoginLimit, now: number): boolean {
  return limit.failures.filter((at) => now - at < FAILED_LOGIN_WINDOW_MS).length < FAILED_LOGINS_ALLOWED;
}

export function loginFailed(limit: LoginLimit, now: number): LoginLimit {
  return { failures: [...limit.failures.filter((at) => now - at < FAILED_LOGIN_WINDOW_MS), now] };
}

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
