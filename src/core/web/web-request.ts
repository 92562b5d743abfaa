// The checks every request to the web face passes before anything else: the Host header names this
// server (a page on another site whose name an attacker re-pointed at 127.0.0.1, DNS rebinding, sends
// its own name), and a WebSocket upgrade or a state-changing request comes from this server's own
// pages (Origin: a page of another site cannot drive a person's logged-in browser against it).

import { isLoopbackHost } from './web-listen.js';

export interface HostRules {
  /** the address the server listens on */
  listenHost: string;
  port: number;
  /** names a proxy in front uses (tailscale serve's machine name, the TLS certificate's name) */
  publicHosts: readonly string[];
}

/** host and port of a Host header ("127.0.0.1:8740", "[::1]:8740", "box.ts.net"), or null when malformed */
export function splitHostHeader(value: string): { host: string; port: number | null } | null {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([a-zA-Z0-9.-]+))(?::(\d{1,5}))?$/.exec(value);
  if (!m) return null;
  return { host: (m[1] ?? m[2]!).toLowerCase(), port: m[3] === undefined ? null : Number(m[3]) };
}

// A loopback name is allowed on any port: `ssh -L 9000:127.0.0.1:8740` makes the browser say
// localhost:9000, and no rebinding attacker can make a browser send a loopback name for its own site.
export function hostAllowed(value: string | undefined, rules: HostRules): boolean {
  if (value === undefined) return false;
  const parsed = splitHostHeader(value);
  if (!parsed) return false;
  if (isLoopbackHost(parsed.host)) return true;
  if (rules.publicHosts.some((h) => h.toLowerCase() === parsed.host || h.toLowerCase() === value.toLowerCase()))
    return true;
  return parsed.host === rules.listenHost.toLowerCase() && (parsed.port === null || parsed.port === rules.port);
}

// The Origin of the request must be this very server as the browser reached it: the scheme it
// speaks and the Host header it sent (already checked). A missing Origin is refused: browsers
// always send one on a WebSocket upgrade and on a POST.
export function originAllowed(
  origin: string | undefined,
  hostHeader: string | undefined,
  scheme: 'http' | 'https',
  proxiedSchemes: boolean,
): boolean {
  if (origin === undefined || hostHeader === undefined) return false;
  const o = origin.toLowerCase();
  const h = hostHeader.toLowerCase();
  if (o === `${scheme}://${h}`) return true;
  // Behind tailscale serve the browser speaks https to the proxy, which speaks http to us.
  return proxiedSchemes && o === `https://${h}`;
}

export const MAX_BODY_BYTES = 16 * 1024;
/** a connection that has sent no whole request (nor an upgrade) by then is closed: idle ones never pile up */
export const FIRST_REQUEST_MS = 5_000;
/** connections held at once, pages' sockets included; past it a new one is refused at once */
export const MAX_CONNECTIONS = 256;
// a page's frames: a compose box's text, a document (the run server cuts one at 1 MiB; a person's edit is far smaller)
export const MAX_WS_FRAME_BYTES = 256 * 1024;

// Content Security Policy: no inline script and nothing from elsewhere. Styles may be inline: xterm.js
// writes its own <style> elements for the terminal's theme and cell sizes.
export function securityHeaders(hostHeader: string, tls: boolean): Record<string, string> {
  const ws = `${tls ? 'wss' : 'ws'}://${hostHeader}`;
  return {
    'Content-Security-Policy':
      `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; ` +
      `font-src 'self'; connect-src 'self' ${ws}; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}
