// The hook channel: a Unix socket in a private run folder where flower-pty's hook client delivers
// Claude Code hook events (one JSON line in, one JSON line out) to the supervisor's handler.
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { chmod, rm } from 'node:fs/promises';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowerError, EXIT } from '../core/errors.js';
import { HOOK_ENV } from '../claude-code/launch.js';
import { HOOK_DIR_PREFIX, makeRunDir } from './run-dir.js';

export interface HookMessage {
  event: string; // hook_event_name, or 'statusline'
  payload: Record<string, unknown>;
}

export interface HookChannel {
  readonly socketPath: string;
  readonly token: string; // per-run secret, 32 random bytes hex
  readonly dir: string; // the private run folder (0700) holding the socket
  readonly rejected: number; // requests refused (wrong token, bad JSON, over-long line); for tests and logs
  close(): Promise<void>; // closes the server and removes the folder
}

// The variables claude's environment needs so the hook client finds this run: defined once in the
// dialect (src/cli/hook-client.ts reads the same constant).
export { HOOK_ENV };

// The env entries to add to claude's environment for `channel`; the user's statusLine command, if any, is chained.
export function hookChannelEnv(channel: HookChannel, userStatusLine: string | null): Record<string, string> {
  const env: Record<string, string> = { [HOOK_ENV.socket]: channel.socketPath, [HOOK_ENV.token]: channel.token };
  if (userStatusLine !== null) env[HOOK_ENV.userStatusLine] = userStatusLine;
  return env;
}

export type HookHandler = (msg: HookMessage) => Promise<string> | string;

// A statusLine payload is a few KiB and a hook payload rarely more; 8 MB only guards the supervisor's memory.
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
// sun_path is 108 bytes on Linux (104 on macOS) including the NUL; past it listen() fails or truncates.
const MAX_SOCKET_PATH_BYTES = 103;
// Claude runs a handful of hooks at once (one per event, parallel tool calls); each connection may hold a
// line of up to MAX_LINE_BYTES, so their number is what bounds the channel's memory (Node refuses more).
export const MAX_HOOK_CONNECTIONS = 64;
// A client that connects and never finishes its line must not hold a socket forever.
const READ_IDLE_MS = 30_000;
const EMPTY_ANSWER = JSON.stringify({ output: '' }) + '\n';

// Opens the channel in a fresh 0700 folder made under `dir` (default os.tmpdir()); the socket is 0600.
export async function openHookChannel(opts: { handler: HookHandler; dir?: string }): Promise<HookChannel> {
  // it names its owner, so the next run sweeps it if this one is killed (adapters/run-dir.ts)
  const runDir = await makeRunDir(opts.dir ?? tmpdir(), HOOK_DIR_PREFIX);
  try {
    await chmod(runDir, 0o700); // mkdtemp already uses 0700; say it anyway so a lax platform cannot widen it
    const socketPath = join(runDir, 'h.sock');
    if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
      throw new FlowerError(
        `Expected a hook socket path of at most ${MAX_SOCKET_PATH_BYTES} bytes, ` +
          `got ${Buffer.byteLength(socketPath)} (${socketPath}); set TMPDIR to a shorter folder`,
        EXIT.usage,
      );
    }
    const token = randomBytes(32).toString('hex');
    const state = { rejected: 0 };
    const sockets = new Set<Socket>();
    const server = createServer({ allowHalfOpen: true }, (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      serveConnection(socket, token, opts.handler, () => state.rejected++);
    });
    server.maxConnections = MAX_HOOK_CONNECTIONS;
    await listen(server, socketPath);
    // The folder is already 0700, so the window before this chmod exposes nothing to other users.
    await chmod(socketPath, 0o600);
    let closing: Promise<void> | undefined;
    return {
      socketPath,
      token,
      dir: runDir,
      get rejected() {
        return state.rejected;
      },
      close() {
        closing ??= (async () => {
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          for (const socket of sockets) socket.destroy();
          await closed;
          await rm(runDir, { recursive: true, force: true });
        })();
        return closing;
      },
    };
  } catch (error) {
    await rm(runDir, { recursive: true, force: true });
    throw error;
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      // A failing accept() later must not crash the supervisor: the hooks just go unanswered.
      server.on('error', () => {});
      resolve();
    });
  });
}

// Reads one line, checks it, asks the handler, answers one line, closes. Never throws.
function serveConnection(socket: Socket, token: string, handler: HookHandler, reject: () => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  // The client may vanish at any moment (a killed hook); a write to it must not become an uncaught error.
  socket.on('error', () => {});
  socket.setTimeout(READ_IDLE_MS, () => socket.destroy());

  const answer = (text: string): void => {
    if (socket.destroyed) return;
    socket.end(JSON.stringify({ output: text }) + '\n');
  };
  const refuse = (): void => {
    reject();
    if (!socket.destroyed) socket.end(EMPTY_ANSWER);
  };
  const finish = (line: Buffer): void => {
    done = true;
    const msg = parseRequest(line, token);
    if (!msg) return refuse(); // the idle timer stays on: a refused client gets no more of our time
    socket.setTimeout(0); // from here the handler decides how long this takes
    Promise.resolve()
      .then(() => handler(msg))
      .then(
        (out) => answer(typeof out === 'string' ? out : ''),
        () => answer(''), // fail open: a broken handler leaves claude to carry on
      );
  };

  socket.on('data', (chunk: Buffer) => {
    if (done) return;
    const nl = chunk.indexOf(0x0a);
    const take = nl === -1 ? chunk : chunk.subarray(0, nl);
    size += take.length;
    if (size > MAX_LINE_BYTES) {
      done = true;
      return refuse();
    }
    chunks.push(take);
    if (nl !== -1) finish(Buffer.concat(chunks));
  });
  // A client that half-closes without a newline still sent one whole line.
  socket.on('end', () => {
    if (!done) finish(Buffer.concat(chunks));
  });
}

// The request line as a message, or null when it is not JSON, lacks a field, or carries the wrong token.
export function parseRequest(line: Buffer, token: string): HookMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { token: got, event, payload } = value;
  if (typeof got !== 'string' || !sameSecret(got, token)) return null;
  if (typeof event !== 'string' || event === '' || !isRecord(payload)) return null;
  return { event, payload };
}

function sameSecret(got: string, want: string): boolean {
  const a = Buffer.from(got);
  const b = Buffer.from(want);
  // Constant-time compare: the socket is private, but a secret check costs nothing to do properly.
  return a.length === b.length && timingSafeEqual(a, b);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
