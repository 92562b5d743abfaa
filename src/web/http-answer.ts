// How the web server answers a plain HTTP request: a whole body with its type and length, or a refusal
// as one line of text (a person reads it in the browser or in curl).

import type { ServerResponse } from 'node:http';

export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...extra });
  res.end(body);
}

export function refuse(res: ServerResponse, status: number, text: string): void {
  send(res, status, 'text/plain; charset=utf-8', text + '\n');
}
