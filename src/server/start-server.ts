// The client's side of starting a run server: write the spec, spawn `flower-pty __serve <spec>` as
// a session leader with no controlling terminal (detached, stdio to a log in the socket folder), and
// wait on a pipe for its one line: `ready` once it listens and holds the workbench, or the error.

import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { EXIT, FlowerError } from '../core/errors.js';
import { openSocketDir, socketPath } from './socket-dir.js';
import { writeRunSpec, type RunSpec } from './run-spec.js';

const BIN = fileURLToPath(new URL('../../bin/flower-pty.js', import.meta.url));
// V8 lets a process's young generation grow to 16 MB semi-spaces while it allocates fast, as the server's
// emulator does while claude writes, and an idle server kept them: 76 MB resident after a 10 MB stream against
// 58 MB with 2 MB semi-spaces, for no slower a stream (scripts/bench-terminal.mjs `throughput`, beside the old
// build). V8's memory reducer is off: 8 s after any full collection, while the process allocates little (a
// person typing), it ran up to three more (incremental marking steps of a few ms, then a pause of 6–18 ms on a
// loaded machine), and a key that came then waited for them: the split view's echo p99 (measured inside the
// server with the GC's performance entries). The server collects instead when it trims, quiet and with
// nobody attached (adapters/memory-trim.ts: `--expose-gc` is for that one call). The bin's own flags would
// reach every command; these reach only the run server.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=2', '--no-memory-reducer', '--expose-gc'];
const READY_TIMEOUT_MS = 30_000;

/** a run id: 6 lowercase base36 characters */
export function newRunId(): string {
  const n = randomBytes(5).readUIntBE(0, 5);
  return n.toString(36).padStart(6, '0').slice(-6);
}

export function serverLogPath(dir: string, id: string): string {
  return join(dir, `${id}.log`);
}

export interface StartedServer {
  id: string;
  socketPath: string;
  pid: number;
  logPath: string;
  /** resolves when the server exits while this process is still its parent */
  exited: Promise<void>;
}

export async function startRunServer(spec: Omit<RunSpec, 'id'>, env: NodeJS.ProcessEnv): Promise<StartedServer> {
  const dir = await openSocketDir(env);
  let id = newRunId();
  while (existsSync(socketPath(dir, id))) id = newRunId();
  const specPath = join(dir, `.${id}.spec.json`);
  const logPath = serverLogPath(dir, id);
  writeRunSpec(specPath, { ...spec, id });
  const log = openSync(logPath, 'a', 0o600);
  let child;
  try {
    child = spawn(process.execPath, [...SERVER_NODE_FLAGS, BIN, '__serve', specPath], {
      detached: true, // its own session: no controlling terminal, so a hang-up here never reaches it
      stdio: ['ignore', log, log, 'pipe'],
      env,
      cwd: spec.options.cwd,
    });
  } finally {
    closeSync(log);
  }
  const pipe = child.stdio[3] as Readable;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Ctrl-C, SIGTERM or a hang-up while the server starts is honoured at once: the half-started run is
  // ended (the server takes SIGTERM as a quit) rather than left going in the background.
  let interrupted: ((signal: NodeJS.Signals) => void) | null = null;
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const stopped = new Promise<never>((_, reject) => {
    interrupted = (signal) => {
      try {
        child.kill('SIGTERM');
      } catch {
        // already gone
      }
      reject(
        new FlowerError(
          `stopped by ${signal} while the run server was starting; nothing is left running`,
          128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15),
        ),
      );
    };
  });
  const onSignal = (signal: NodeJS.Signals) => interrupted?.(signal);
  for (const s of signals) process.on(s, onSignal);
  try {
    const line = await Promise.race([readyLine(pipe, child, logPath), stopped]);
    if (line !== 'ready') {
      const m = /^error (\d+) (.*)$/.exec(line);
      throw new FlowerError(m ? m[2]! : `the run server did not start: ${line}`, m ? Number(m[1]) : EXIT.internal);
    }
  } catch (error) {
    rmSync(specPath, { force: true });
    // a server that never came up leaves nothing behind; its log goes unless it says why, or the line
    // names it (a server that did not answer in time may still write there)
    if (!(error instanceof Error && error.message.includes(logPath))) removeIfEmpty(logPath);
    throw error;
  } finally {
    for (const s of signals) process.off(s, onSignal);
    pipe.destroy();
    child.unref();
  }
  return { id, socketPath: socketPath(dir, id), pid: child.pid ?? 0, logPath, exited };
}

function readyLine(pipe: Readable, child: ReturnType<typeof spawn>, logPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () =>
        reject(
          new FlowerError(
            `the run server did not answer within ${READY_TIMEOUT_MS / 1000} s; its log: ${logPath}`,
            EXIT.internal,
          ),
        ),
      READY_TIMEOUT_MS,
    );
    const done = (fn: () => void) => {
      clearTimeout(timer);
      fn();
    };
    pipe.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const nl = text.indexOf('\n');
      if (nl !== -1) done(() => resolve(text.slice(0, nl)));
    });
    pipe.on('error', () => undefined);
    child.once('exit', (code) => {
      // No line and gone: the reason is the last line of its log.
      setTimeout(
        () =>
          done(() =>
            reject(
              new FlowerError(
                `the run server exited (code ${code}) before it was ready: ${lastLine(logPath)}`,
                EXIT.internal,
              ),
            ),
          ),
        50,
      );
    });
  });
}

function lastLine(path: string): string {
  try {
    const text = readFileSync(path, 'utf8').trim();
    // an empty log is removed below: it is not named
    if (text === '') return 'it wrote nothing';
    return `${text.split('\n').at(-1)?.slice(0, 300) ?? ''} (log: ${path})`;
  } catch {
    return `no log (${path})`;
  }
}

/** a log with nothing in it says nothing: it goes, so the socket folder stays tidy */
export function removeIfEmpty(path: string): void {
  try {
    if (statSync(path).size === 0) rmSync(path, { force: true });
  } catch {
    // not there
  }
}
