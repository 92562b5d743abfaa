// The live runs of this user: every <id>.sock in the socket directory whose server answers `info`.
// A socket nobody listens on any more (its server was SIGKILLed) is removed; one request helper.

import { createConnection } from 'node:net';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { FlowerError } from '../core/errors.js';
import { pickRun } from '../core/server/run-list.js';
import {
  createFrameReader,
  encodeFrame,
  parseServerMessage,
  WIRE_VERSION,
  type ClientMessage,
  type RunInfo,
  type ServerMessage,
} from './wire.js';
import { socketId, tempSocketPid } from './socket-dir.js';
import { processAlive } from '../adapters/process-alive.js';

// short: a live server answers info at once; a loaded machine (and a busy server) still gets two seconds
export const QUERY_TIMEOUT_MS = 2000;

export type QueryResult =
  | { ok: true; answer: ServerMessage | null }
  /** stale: nothing listens on the socket (ECONNREFUSED) or it is gone (ENOENT) */
  | { ok: false; stale: boolean; reason: string };

// The message that answers a request: `info` answers info, `bye` answers kill. Other requests have
// no answer: the result is null once the server has read them (it closed or said nothing for a beat).
function isAnswer(request: ClientMessage, message: ServerMessage): boolean {
  if (request.t === 'info') return message.t === 'info';
  if (request.t === 'kill') return message.t === 'bye';
  return false;
}

// One request as a `query` client: hello, the request, then the answer. Never throws. A server that
// closes after `kill` without a bye has ended all the same: the answer is null.
export function requestRun(
  socketPath: string,
  request: ClientMessage,
  timeoutMs: number = QUERY_TIMEOUT_MS,
): Promise<QueryResult> {
  return new Promise((resolve) => {
    let settled = false;
    const socket = createConnection(socketPath);
    const finish = (result: QueryResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          stale: false,
          reason: `the run did not answer within ${Math.round(timeoutMs / 100) / 10} s`,
        }),
      timeoutMs,
    );
    const reader = createFrameReader<ServerMessage>({
      validate: parseServerMessage,
      onMessage: (message) => {
        if (message.t === 'refused') finish({ ok: false, stale: false, reason: message.reason });
        else if (isAnswer(request, message)) finish({ ok: true, answer: message });
      },
      onError: (reason) => finish({ ok: false, stale: false, reason: `the run sent ${reason}` }),
    });
    socket.on('connect', () => {
      socket.write(encodeFrame({ t: 'hello', version: WIRE_VERSION, role: 'query' }));
      socket.write(encodeFrame(request));
      if (request.t !== 'info' && request.t !== 'kill') socket.end();
    });
    socket.on('data', (chunk) => reader.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const stale = error.code === 'ECONNREFUSED' || error.code === 'ENOENT';
      finish({
        ok: false,
        stale,
        reason: stale ? 'nothing listens on its socket' : `its socket failed (${error.code ?? error.message})`,
      });
    });
    socket.on('close', () => {
      reader.end();
      if (request.t !== 'info') finish({ ok: true, answer: null });
      else finish({ ok: false, stale: false, reason: 'the run hung up without answering' });
    });
  });
}

// queryRun: one request, its answer, or a FlowerError in one line.
export async function queryRun(
  socketPath: string,
  message: ClientMessage,
  timeoutMs: number = QUERY_TIMEOUT_MS,
): Promise<ServerMessage | null> {
  const result = await requestRun(socketPath, message, timeoutMs);
  if (!result.ok) throw new FlowerError(`the run at ${socketPath}: ${result.reason}`);
  return result.answer;
}

export interface LiveRun extends RunInfo {
  socket: string;
}

export interface RunListing {
  runs: LiveRun[];
  /** stale sockets removed on the way */
  removed: string[];
  /** sockets whose server is there but did not answer (busy, or another version): kept, not listed */
  silent: Array<{ socket: string; reason: string }>;
}

// Removes a socket nobody listens on, but only a socket of ours: never a file someone put there.
async function removeStale(path: string): Promise<boolean> {
  try {
    const st = await lstat(path);
    if (!st.isSocket() || st.uid !== process.getuid?.()) return false;
    await unlink(path);
    return true;
  } catch {
    return false;
  }
}

// Asks every socket in `dir` for its run, all at once, oldest run first.
export async function listRuns(dir: string, timeoutMs: number = QUERY_TIMEOUT_MS): Promise<RunListing> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { runs: [], removed: [], silent: [] };
  }
  const listing: RunListing = { runs: [], removed: [], silent: [] };
  const sockets = names.filter((n) => socketId(n) !== null).map((n) => join(dir, n));
  const results = await Promise.all(
    sockets.map((socket) => requestRun(socket, { t: 'info' }, timeoutMs).then((result) => ({ socket, result }))),
  );
  for (const { socket, result } of results) {
    if (result.ok && result.answer?.t === 'info') listing.runs.push({ ...result.answer.run, socket });
    else if (!result.ok && result.stale) {
      if (await removeStale(socket)) listing.removed.push(socket);
    } else listing.silent.push({ socket, reason: result.ok ? 'no info' : result.reason });
  }
  // a server SIGKILLed between listen and link leaves its temp name: swept once its pid is gone
  for (const name of names) {
    const pid = tempSocketPid(name);
    if (pid !== null && !processAlive(pid) && (await removeStale(join(dir, name))))
      listing.removed.push(join(dir, name));
  }
  listing.runs.sort((a, b) => a.started.localeCompare(b.started) || a.id.localeCompare(b.id));
  return listing;
}

// The run `attach`/`kill` mean (see pickRun), or a FlowerError listing the runs.
export function resolveRun(
  runs: readonly LiveRun[],
  want: { id?: string; cwd: string; workbench: string | null; command: string; own: string },
): LiveRun {
  const pick = pickRun(runs, want);
  if ('problem' in pick) throw new FlowerError(pick.problem);
  return pick.run;
}
