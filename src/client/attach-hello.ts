// What an attaching terminal tells the run server first: its size, its face, and, when the server may
// draw on it itself, the path of its terminal with what drawing there needs (TERM, the prefix, the document).

import { readlinkSync } from 'node:fs';
import { computeLayout } from '../core/screen/layout.js';
import { WIRE_VERSION, type Hello } from '../server/wire.js';

/** the device of this process's terminal when stdin and stdout are both it (what the server may open) */
export function terminalPath(stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): string | null {
  if (!stdin.isTTY || !stdout.isTTY) return null;
  try {
    const input = readlinkSync('/proc/self/fd/0');
    return input === readlinkSync('/proc/self/fd/1') && input.startsWith('/dev/') ? input : null;
  } catch {
    return null; // no /proc (not Linux): the stream it is
  }
}

/** the size claude gets for this terminal: all of it (plain), or the split view's session pane */
export function faceSize(plain: boolean, stdout: NodeJS.WriteStream): { cols: number; rows: number } {
  const terminal = { cols: stdout.columns || 80, rows: stdout.rows || 24 };
  return plain ? terminal : computeLayout({ ...terminal, documentVisible: true }).inner;
}

export interface HelloFacts {
  plain: boolean;
  /** the terminal the server may open (null: this client draws from the stream) */
  tty: string | null;
  size: { cols: number; rows: number };
  starter: boolean;
  detachKey: string | null;
  documentPath: string | null;
  env: Record<string, string | undefined>;
  /** this client shows the chooser after "prefix s" */
  chooser?: boolean;
}

export function attachHello(f: HelloFacts): Hello {
  const hello: Hello = {
    t: 'hello',
    version: WIRE_VERSION,
    role: 'attach',
    cols: f.size.cols,
    rows: f.size.rows,
    face: f.plain ? 'plain' : 'split',
  };
  if (f.tty === null) return hello;
  Object.assign(hello, {
    tty: f.tty,
    starter: f.starter,
    term: f.env.TERM ?? 'xterm-256color',
    noColor: Boolean(f.env.NO_COLOR),
  });
  if (f.env.COLORTERM) hello.colorterm = f.env.COLORTERM.slice(0, 64);
  if (f.env.TERM_PROGRAM) hello.termProgram = f.env.TERM_PROGRAM.slice(0, 64);
  if (f.env.TMUX) hello.tmux = true;
  if (f.env.FLOWER_PTY_PREFIX) hello.prefix = f.env.FLOWER_PTY_PREFIX.slice(0, 16);
  if (f.plain && f.detachKey !== null) hello.detachKey = f.detachKey;
  if (f.documentPath) hello.documentPath = f.documentPath;
  if (f.chooser) hello.chooser = true;
  return hello;
}
