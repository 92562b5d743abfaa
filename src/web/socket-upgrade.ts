// A page's WebSocket: the upgrade checked (Host, Origin, the page's secret as a subprotocol) and
// accepted for the dashboard (`/ws/runs`) or for one run's page (`/ws/run/KEY`), whose socket is
// bridged to its run's feed (run-bridge.ts) once the run is ready to be fed (a remote run's forward).
// Frames are bounded and not compressed.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { hostAllowed, MAX_WS_FRAME_BYTES, type HostRules } from '../core/web/web-request.js';
import { runKeyOfSegment } from '../core/web/page-address.js';
import type { RunFollower } from './run-follower.js';
import { bridgeRun } from './run-bridge.js';
import { socketSecret, SOCKET_PROTOCOL, type RequestAuth } from './request-auth.js';
import type { PageSockets } from './page-sockets.js';

export interface SocketUpgradeOptions {
  rules: HostRules;
  auth: RequestAuth;
  sockets: PageSockets;
  follower: RunFollower;
  allowInput: boolean;
  log: (line: string) => void;
}

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export function socketUpgrade(o: SocketUpgradeOptions): UpgradeHandler {
  // No per-message deflate (ws's server default, said here): a key's echo is a few bytes, and zlib on
  // its way would only add latency (and memory per page).
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_WS_FRAME_BYTES,
    perMessageDeflate: false,
    handleProtocols: () => SOCKET_PROTOCOL,
  });
  return (req, socket, head) => {
    const deny = (status: number, text: string) => {
      o.log(`refused a WebSocket: ${text}`);
      socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n`);
      // a client that never closes its side must not hold the connection (nor the server's close) open
      setTimeout(() => socket.destroy(), 2_000).unref();
    };
    if (!hostAllowed(req.headers.host, o.rules)) return deny(421, 'Misdirected Request');
    if (!o.auth.originOk(req)) return deny(403, 'Forbidden Origin');
    if (!o.auth.authorised(req, socketSecret(req))) return deny(401, 'Unauthorized');
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const seqParam = url.searchParams.get('seq');
    const seq = seqParam !== null && /^\d{1,15}$/.test(seqParam) ? Number(seqParam) : null;
    const runSegment = /^\/ws\/run\/([^/]+)$/.exec(path)?.[1];
    const runId = runSegment === undefined ? undefined : (runKeyOfSegment(runSegment) ?? undefined);
    if (path !== '/ws/runs' && runId === undefined) return deny(404, 'Not Found');
    wss.handleUpgrade(req, socket, head, (ws) => {
      o.sockets.addPage(ws);
      if (runId === undefined) return o.sockets.addDashboard(ws, o.allowInput);
      void openRunPage(ws, runId, seq, o);
    });
  };
}

// A run page's socket, bridged to its run's feed once the run is ready to be fed.
async function openRunPage(ws: WebSocket, runId: string, seq: number | null, o: SocketUpgradeOptions): Promise<void> {
  // a remote run's forward is opened for its pages only (web/host-fleet.ts), and released when they go
  let released = false;
  // what the page says while its forward opens is kept, and handed to the bridge once it listens
  const early: Array<[unknown, boolean]> = [];
  const keep = (data: unknown, binary: boolean) => void early.push([data, binary]);
  ws.on('message', keep);
  const problem = await (o.follower.open?.(runId) ?? Promise.resolve(null));
  ws.off('message', keep);
  if (problem !== null) {
    ws.send(JSON.stringify({ t: 'ended', reason: 'gone', message: problem }));
    return ws.close(1000, 'not opened');
  }
  const release = () => {
    if (!released) o.follower.release?.(runId);
    released = true;
  };
  if (ws.readyState !== ws.OPEN) return release();
  ws.on('close', release);
  const link = o.follower.feed(runId);
  if (!link) {
    ws.send(JSON.stringify({ t: 'ended', reason: 'gone', message: `no live run has id ${runId}` }));
    return ws.close(1000, 'no such run');
  }
  bridgeRun(ws, {
    ...link,
    view: () => o.follower.get(runId)?.status ?? null,
    seq,
    allowInput: o.allowInput,
    log: o.log,
  });
  for (const [data, binary] of early) ws.emit('message', data, binary);
}
