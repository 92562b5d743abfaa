// The hook command claude runs (`node dist/cli/hook-client.js <event>`): relays the hook's stdin to the
// supervisor over the hook channel and prints its answer. Node built-ins only: it starts on every tool call.
import { createConnection } from 'node:net';
import { spawn } from 'node:child_process';
// The one module of ours it loads: the variable names, pure and tiny (start-up stays small).
import { HOOK_ENV, FLOWER_ENV_PREFIX, STATUSLINE_EVENT } from '../claude-code/launch.js';
import { HOOK_LIMITS, hookTimeoutMs, nestedDeeperThan } from './hook-limits.js';

// Every failure path prints nothing and exits 0: claude must never be stuck or scolded because of flower-pty.
const USER_STATUSLINE_CAP_MS = HOOK_LIMITS.userStatusLineCapMs;

async function main(): Promise<void> {
  const event = process.argv[2] ?? '';
  const env = process.env;
  const timeoutMs = hookTimeoutMs(env[HOOK_ENV.timeoutMs]);
  // Belt and braces: whatever hangs (stdin never closed, a wedged socket), leave on time with nothing said.
  setTimeout(() => process.exit(0), timeoutMs + USER_STATUSLINE_CAP_MS + 1_000).unref();

  const stdin = await readStdin();
  const userCommand = event === STATUSLINE_EVENT ? env[HOOK_ENV.userStatusLine] : undefined;
  const [supervisorText, userText] = await Promise.all([
    askSupervisor(event, stdin, env, timeoutMs),
    userCommand ? runUserStatusLine(userCommand, stdin, env) : Promise.resolve(null),
  ]);
  // The user's own status line wins; the supervisor's text shows only when there is none (or it failed).
  await write(userText ?? supervisorText);
}

function readStdin(): Promise<Buffer> {
  // Run by hand in a terminal there is no payload; waiting for one would hang.
  if (process.stdin.isTTY) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks)));
    process.stdin.on('error', () => resolve(Buffer.concat(chunks)));
  });
}

// One round trip: resolves with the answer's `output`, or '' on any failure or after timeoutMs.
function askSupervisor(event: string, stdin: Buffer, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  const socketPath = env[HOOK_ENV.socket];
  const token = env[HOOK_ENV.token];
  const payload = stdin.length > HOOK_LIMITS.maxPayloadBytes ? null : parseObject(stdin);
  // A number too large for a double (1e999) is sent as JSON.stringify writes it: null (the native client too).
  if (!socketPath || !token || !event || !payload || nestedDeeperThan(stdin, HOOK_LIMITS.maxPayloadDepth))
    return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (text: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(text);
    };
    const timer = setTimeout(() => settle(''), timeoutMs);
    const socket = createConnection(socketPath);
    socket.on('error', () => settle('')); // ENOENT, ECONNREFUSED (stale socket), EPIPE...
    socket.on('connect', () => socket.write(JSON.stringify({ token, event, payload }) + '\n'));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (c.includes(0x0a)) settle(readOutput(Buffer.concat(chunks)));
    });
    socket.on('end', () => settle(readOutput(Buffer.concat(chunks))));
  });
}

function parseObject(bytes: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function readOutput(bytes: Buffer): string {
  const nl = bytes.indexOf(0x0a);
  const answer = parseObject(nl === -1 ? bytes : bytes.subarray(0, nl));
  const output = answer?.['output'];
  return typeof output === 'string' ? output : '';
}

// Runs the user's statusLine command as claude would (`/bin/sh -c`, same stdin); resolves with its
// stdout, or null when it could not run or outlived the cap (then the supervisor's text shows instead).
function runUserStatusLine(command: string, stdin: Buffer, env: NodeJS.ProcessEnv): Promise<string | null> {
  const childEnv = { ...env };
  // The user's script has no business with the run's secret.
  for (const key of Object.keys(childEnv)) if (key.startsWith(FLOWER_ENV_PREFIX)) delete childEnv[key];
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (text: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(text);
    };
    // Its own process group, so the cap kills the whole pipeline, not just the shell.
    const child = spawn('/bin/sh', ['-c', command], {
      env: childEnv,
      stdio: ['pipe', 'pipe', 'ignore'],
      detached: true,
    });
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      settle(null);
    }, USER_STATUSLINE_CAP_MS);
    child.on('error', () => settle(null));
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('close', () => settle(Buffer.concat(chunks).toString('utf8')));
    child.stdin.on('error', () => {}); // a command that never reads its stdin closes the pipe early (EPIPE)
    child.stdin.end(stdin);
  });
}

function write(text: string): Promise<void> {
  if (!text) return Promise.resolve();
  process.stdout.on('error', () => process.exit(0)); // claude stopped listening (EPIPE): nothing left to do
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}

main().then(
  () => process.exit(0),
  () => process.exit(0),
);
