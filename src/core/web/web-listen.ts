// Where `flower-pty web` may listen: a HOST:PORT read from --listen, and whether binding it is allowed.
// A page that can type into claude can run anything claude can, so anything but loopback needs TLS
// or the person's explicit word that something else (an SSH tunnel, tailscale serve) protects it.

export const DEFAULT_WEB_PORT = 8740;
export const DEFAULT_WEB_HOST = '127.0.0.1';

export interface ListenAddress {
  host: string;
  port: number;
}

// "127.0.0.1:8740", "[::1]:8740", "0.0.0.0:9000", ":9000" (loopback), "8740" (a port alone).
export function parseListen(text: string): ListenAddress | { problem: string } {
  const bad = {
    problem: `--listen expects HOST:PORT (for example 127.0.0.1:${DEFAULT_WEB_PORT} or [::1]:${DEFAULT_WEB_PORT}), got "${text.slice(0, 80)}"`,
  };
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(text) ?? /^()()(\d{1,5})$/.exec(text);
  if (!m) return bad;
  const port = Number(m[3]);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return { problem: `--listen: port ${m[3]} is not between 0 and 65535` };
  const host = (m[1] || m[2] || DEFAULT_WEB_HOST).toLowerCase();
  if (!/^[a-z0-9.:-]+$/.test(host)) return bad;
  return { host, port };
}

/** a name or literal that only ever reaches this machine */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

// Null when binding `host` is allowed; else the one line that says why not and how to go on.
export function bindProblem(host: string, o: { tls: boolean; behindProxy: boolean }): string | null {
  if (isLoopbackHost(host) || o.tls || o.behindProxy) return null;
  return (
    `refusing to listen on ${host}: a page of the web face can type into claude, so anything but loopback needs TLS ` +
    `(--tls-cert FILE --tls-key FILE) or --behind-proxy to say an SSH tunnel or tailscale serve protects it`
  );
}

// How a browser names this server: the URL printed for logging in.
export function baseUrl(address: ListenAddress, tls: boolean, publicHost: string | null): string {
  const scheme = tls ? 'https' : 'http';
  if (publicHost) return `${scheme}://${publicHost}`;
  const host =
    address.host === '0.0.0.0'
      ? DEFAULT_WEB_HOST
      : address.host === '::'
        ? '[::1]'
        : address.host.includes(':')
          ? `[${address.host}]`
          : address.host;
  return `${scheme}://${host}:${address.port}`;
}
