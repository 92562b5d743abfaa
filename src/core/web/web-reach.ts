// Whether a phone could open a login URL: a QR code of 127.0.0.1 points a phone at itself. A URL on a
// loopback name gets, instead of a QR code, the line that says how another device reaches it (an SSH
// tunnel, tailscale serve); any other host is taken as reachable (the person chose it). Pure.

const URL_HOST = /^https?:\/\/(\[[^\]]*\]|[^/:#?]+)(?::(\d+))?/;

/** a name only this machine answers on */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::1';
}

/** null when a QR code of `url` is worth printing; else the line that says how another device reaches it */
export function phoneReach(url: string): string | null {
  const m = URL_HOST.exec(url);
  if (!m || !isLoopbackHost(m[1]!)) return null;
  const port = m[2] ?? (url.startsWith('https:') ? '443' : '80');
  return (
    `a phone cannot open ${m[1]}: from another machine, ssh -L ${port}:127.0.0.1:${port} this-host and open the URL there, ` +
    `or on this host tailscale serve --bg ${port} and restart with --public-host NAME --behind-proxy (docs/web.md)`
  );
}
