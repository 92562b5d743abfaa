// One HTTP request to a web face as the hosts' web tests make them: a GET, or a POST when a Content-Type is
// given (its body in `x-body`), with the web face's own Host.
import { request } from 'node:http';
import type { WebFace } from '../web/web-helpers.js';

export function get(
  web: WebFace,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; cookie: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent: false,
        host: '127.0.0.1',
        port: web.port,
        method: headers['Content-Type'] ? 'POST' : 'GET',
        path,
        headers: { Host: `127.0.0.1:${web.port}`, ...headers },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            cookie: String((res.headers['set-cookie'] as string[] | undefined)?.[0] ?? '').split(';')[0]!,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(headers['Content-Type'] ? headers['x-body'] : undefined);
  });
}
