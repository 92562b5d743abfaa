// A scripted mock of the Anthropic Messages API on 127.0.0.1 (node:http only), for running the real
// claude offline: every request is recorded and answered by the caller's `respond` function.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { MockReply, MockRequest, Respond } from './mock-reply.js';
import { cutEvents, formatSse, messageEvents, messageJson } from './sse.js';
import type { MessageIds } from './sse.js';
import { allText, lastUserText, messagesOf, modelOf, offersTools, wantsStream } from './request-text.js';
import { requestSessionId } from '../claude-code/requests.js';

export type { MockReply, MockRequest, MockUsage, Respond } from './mock-reply.js';
export { bash, promptTooLong, scripted, text, usageFor } from './mock-reply.js';

export interface MockApiOptions {
  respond: Respond;
  port?: number;
}

export interface MockApi {
  url: string;
  port: number;
  // Only POST /v1/messages calls, in arrival order (count_tokens and /api/hello are not recorded).
  requests: MockRequest[];
  // Every HTTP request as "METHOD /path" (query dropped), side endpoints included, in arrival order.
  hits: string[];
  // Resolves with the first recorded request (past or future) matching `predicate`; rejects after `timeoutMs`.
  waitForRequest(predicate: (req: MockRequest) => boolean, timeoutMs: number): Promise<MockRequest>;
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...extra });
  res.end(JSON.stringify(body));
}

function errorBody(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message } };
}

export async function startMockApi(opts: MockApiOptions): Promise<MockApi> {
  const requests: MockRequest[] = [];
  const hits: string[] = [];
  const waiters = new Set<{ predicate: (req: MockRequest) => boolean; resolve: (req: MockRequest) => void }>();
  const sockets = new Set<Socket>();
  let serial = 0;
  let closing = false;

  const ids = (model: string): MessageIds => {
    const n = (++serial).toString(16).padStart(6, '0');
    return { messageId: `msg_mock_${n}`, toolUseId: `toolu_mock_${n}`, model };
  };

  async function answer(reply: MockReply, request: MockRequest, res: ServerResponse): Promise<void> {
    const replyIds = ids(request.model);
    const requestId = replyIds.messageId.replace('msg_', 'req_');
    if (reply.kind === 'hang') return; // the socket is destroyed by close()
    if (reply.kind === 'error') {
      const extra: Record<string, string> = { ...reply.headers, 'request-id': requestId };
      if (reply.retry === false) extra['x-should-retry'] = 'false';
      sendJson(res, reply.status, errorBody(reply.type, reply.message), extra);
      return;
    }
    const streaming = wantsStream(request.body);
    if (reply.kind === 'cut') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': requestId });
      for (const event of cutEvents(reply.afterText, replyIds)) res.write(formatSse(event));
      // Give the bytes a moment to leave before the connection dies mid-stream.
      await sleep(50);
      res.socket?.destroy();
      return;
    }
    if (reply.delayMs !== undefined) await sleep(reply.delayMs);
    if (closing) return;
    if (!streaming) {
      sendJson(res, 200, messageJson(reply, replyIds), { 'request-id': requestId });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': requestId });
    res.end(messageEvents(reply, replyIds).map(formatSse).join(''));
  }

  async function onMessages(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const body = parseJson(await readBody(req));
    const messages = messagesOf(body);
    const headers = flatHeaders(req);
    const request: MockRequest = {
      index: requests.length,
      method: req.method ?? 'POST',
      path,
      headers,
      sessionId: requestSessionId(headers, body), // the header only from 2.1.86 (src/claude-code/requests.ts)
      model: modelOf(body),
      body,
      messages,
      lastUserText: lastUserText(messages),
      allText: allText(messages),
      isMain: offersTools(body),
      receivedAt: Date.now(),
    };
    requests.push(request);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(request)) {
        waiters.delete(waiter);
        waiter.resolve(request);
      }
    }
    let reply: MockReply;
    try {
      reply = await opts.respond(request);
    } catch (error) {
      // A broken script shows up in claude as an API error naming the cause, not as a hung test.
      reply = {
        kind: 'error',
        status: 500,
        type: 'api_error',
        message: `mock respond threw: ${String(error)}`,
        retry: false,
      };
    }
    await answer(reply, request, res);
  }

  function route(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    hits.push(`${req.method ?? '?'} ${path}`);
    if (path === '/api/hello') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.method === 'HEAD' ? undefined : '{}');
      return;
    }
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      void readBody(req).then((raw) => {
        sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) });
      });
      return;
    }
    if (req.method === 'POST' && path === '/v1/messages') {
      onMessages(req, res, path).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, errorBody('api_error', `mock failed: ${String(error)}`));
      });
      return;
    }
    sendJson(res, 404, errorBody('not_found_error', `mock has no ${req.method ?? '?'} ${path}`));
  }

  const server = createServer(route);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only: the mock ships in the package and must never be reachable from the network.
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    hits,
    waitForRequest(predicate, timeoutMs) {
      const seen = requests.find(predicate);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (req: MockRequest) => {
            clearTimeout(timer);
            resolve(req);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`mock API: no matching request within ${timeoutMs} ms (saw ${requests.length})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close() {
      closing = true;
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
