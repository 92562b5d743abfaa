// One print-mode claude call (`claude -p … --output-format json`), for `eval fork`: spawned with no stdin
// (a piped stdin is read as more prompt, and the call waits on it), its output gathered, ended by pid when
// it runs past its time or the eval is interrupted. Never in a pty: print mode needs none.

import { spawn } from 'node:child_process';

export interface PrintCall {
  code: number | null;
  stdout: string;
  stderr: string;
  /** ended by us: out of time, or interrupted */
  ended: 'timeout' | 'interrupted' | null;
}

export function runPrint(
  bin: string,
  args: readonly string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; signal?: AbortSignal },
): Promise<PrintCall> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let ended: PrintCall['ended'] = null;
    let child;
    try {
      child = spawn(bin, [...args], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      resolve({ code: null, stdout: '', stderr: String(error), ended: null });
      return;
    }
    const end = (why: 'timeout' | 'interrupted'): void => {
      ended = why;
      child.kill('SIGTERM');
    };
    const timer = setTimeout(() => end('timeout'), opts.timeoutMs);
    const onAbort = (): void => end('interrupted');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', (error) => (stderr += String(error)));
    child.on('close', (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({ code, stdout, stderr, ended });
    });
  });
}
