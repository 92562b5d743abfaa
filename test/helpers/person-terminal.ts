// A person's terminal for the server's tests: a pty whose slave a program holds (as a shell would),
// opened by path as the run server opens a client's terminal; `seen` is what reached its screen.
import type { Test } from 'tap';
import { writeSync } from 'node:fs';
import { spawn } from '@lydell/node-pty';
import { openClientTerminal } from '../../src/adapters/client-terminal.js';

export function personTerminal(t: Test, size = { cols: 100, rows: 30 }) {
  const pty = spawn('sleep', ['600'], size);
  t.teardown(() => pty.kill('SIGKILL'));
  let seen = '';
  pty.onData((d) => (seen += d));
  const path = (pty as unknown as { _pty: string })._pty;
  const master = (pty as unknown as { _fd: number })._fd;
  return {
    path,
    terminal: openClientTerminal(path),
    seen: () => seen,
    /** through node-pty's own write (its queue) */
    type: (keys: string) => pty.write(keys),
    /** written onto the master at once (synchronously), not through node-pty's queue */
    typeNow: (keys: string) => writeSync(master, keys),
  };
}

// A flower-pty command in a terminal of its own (attach over ssh, say): what reached the screen and how it
// ended, read as it goes; killed at the test's end if it is still running.
export function commandTerminal(
  t: Test,
  file: string,
  args: string[],
  opts: { cols: number; rows: number; env: Record<string, string>; cwd: string; name?: string },
) {
  const pty = spawn(file, args, opts);
  let seen = '';
  pty.onData((d) => (seen += d));
  let exit: number | null = null;
  pty.onExit((e) => (exit = e.exitCode));
  t.teardown(() => {
    if (exit === null) pty.kill('SIGKILL');
  });
  return { pty, seen: () => seen, exit: () => exit };
}
