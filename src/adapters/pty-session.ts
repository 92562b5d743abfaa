// node-pty behind a narrow port. Owns its quirks: resize after exit throws
// (microsoft/node-pty#827), output just before exit can be lost (#726), kill() defaults to SIGHUP.

import { spawn as ptySpawn, type IPty } from '@lydell/node-pty';

export interface PtyExit {
  exitCode: number;
  signal?: number;
}

export interface PtySession {
  readonly pid: number;
  readonly exited: boolean;
  onData(listener: (data: string) => void): void;
  onExit(listener: (exit: PtyExit) => void): void;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** SIGTERM, then SIGKILL after graceMs; resolves when the child is gone */
  terminate(graceMs?: number): Promise<PtyExit>;
}

export function spawnPty(opts: { file: string; args: string[]; cwd: string; env: Record<string, string>; cols: number; rows: number }): PtySession {
  // Args go as an array straight to execvp: no shell ever sees them.
  const pty: IPty = ptySpawn(opts.file, opts.args, {
    name: 'xterm-256color',
    cols: Math.max(2, opts.cols),
    rows: Math.max(2, opts.rows),
    cwd: opts.cwd,
    env: opts.env,
  });
  let exited: PtyExit | null = null;
  const exitWaiters: Array<(e: PtyExit) => void> = [];
  pty.onExit(({ exitCode, signal }) => {
    exited = signal ? { exitCode, signal } : { exitCode };
    for (const w of exitWaiters.splice(0)) w(exited);
  });
  return {
    pid: pty.pid,
    get exited() {
      return exited !== null;
    },
    onData(listener) {
      pty.onData(listener);
    },
    onExit(listener) {
      if (exited) listener(exited);
      else exitWaiters.push(listener);
    },
    write(data) {
      if (!exited) pty.write(data);
    },
    resize(cols, rows) {
      if (exited) return;
      try {
        pty.resize(Math.max(2, cols), Math.max(2, rows));
      } catch {
        // the child exited between our check and the ioctl (node-pty#827)
      }
    },
    terminate(graceMs = 5_000) {
      return new Promise<PtyExit>((resolve) => {
        if (exited) return resolve(exited);
        exitWaiters.push(resolve);
        try {
          pty.kill('SIGTERM');
        } catch {
          // already gone
        }
        const force = setTimeout(() => {
          try {
            if (!exited) pty.kill('SIGKILL');
          } catch {
            // already gone
          }
        }, graceMs);
        force.unref();
      });
    },
  };
}
