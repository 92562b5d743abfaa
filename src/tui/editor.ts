// Runs the person's editor on a file with the terminal handed over ($VISUAL, then $EDITOR, then vi).
// The command goes through the shell so "code --wait" style values work; the path is quoted.

import { spawn } from 'node:child_process';
import { shellQuote } from '../core/options/shell-word.js';

export function editorCommand(env: Record<string, string | undefined>): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

export { shellQuote };

export function runEditor(
  path: string,
  env: Record<string, string | undefined>,
): Promise<{ ok: boolean; problem?: string }> {
  const command = editorCommand(env);
  return new Promise((resolve) => {
    const child = spawn(`${command} ${shellQuote(path)}`, {
      shell: true,
      stdio: 'inherit',
      env: env as NodeJS.ProcessEnv,
    });
    child.on('error', (error) =>
      resolve({
        ok: false,
        problem: `could not start the editor "${command}": ${error.message}; set $VISUAL or $EDITOR`,
      }),
    );
    child.on('exit', (code, signal) => {
      if (code === 0) resolve({ ok: true });
      else
        resolve({
          ok: false,
          problem: `the editor "${command}" ended with ${signal ?? `code ${code}`}${code === 127 ? ': not found, set $VISUAL or $EDITOR' : ''}`,
        });
    });
  });
}

// Gives the terminal to `run` (a full-screen editor) and takes it back: the screen leaves, stdin
// stops reading (a paused tty stream stops reading the fd, so the editor gets every key), raw off.
// Nothing is taken back if the terminal was given back for good meanwhile (`ours` turned false).
export async function handOverTerminal<T>(
  io: { stdin: NodeJS.ReadStream; leave(): void; enter(): void; ours(): boolean },
  run: () => Promise<T>,
): Promise<T> {
  io.leave();
  if (io.stdin.isTTY) io.stdin.setRawMode(false);
  io.stdin.pause();
  try {
    return await run();
  } finally {
    if (io.ours()) {
      if (io.stdin.isTTY) io.stdin.setRawMode(true);
      io.stdin.resume();
      io.enter();
    }
  }
}
