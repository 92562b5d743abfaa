// The split view's outer screen: blessed on the person's terminal, with the parts of blessed its
// typings leave out (leave/enter the alternate screen, a buffered cursor) named once here.

import { PassThrough } from 'node:stream';
import blessed from 'blessed';
import type { Widgets } from 'blessed';

export interface ScreenProgram {
  cup(y: number, x: number): void;
  showCursor(): void;
  hideCursor(): void;
  flush(): void;
  _write(text: string): void;
}

export interface OuterScreen {
  screen: Widgets.Screen;
  program: ScreenProgram;
  leave(): void;
  enter(): void;
}

interface ScreenInternals {
  leave(): void;
  enter(): void;
  program: ScreenProgram;
}

export function openOuterScreen(stdout: NodeJS.WriteStream, term: string | undefined): OuterScreen {
  // blessed gets a dead input: every byte from the person is ours to route (Esc, Alt, paste), and
  // blessed never puts stdin in raw mode behind our back (docs/libraries.md §2).
  const screen = blessed.screen({
    input: new PassThrough() as unknown as NodeJS.ReadableStream,
    output: stdout,
    fullUnicode: true,
    smartCSR: true,
    warnings: false,
    title: 'flower-pty',
    terminal: term || 'xterm-256color',
  } as unknown as Widgets.IScreenOptions);
  const internals = screen as unknown as ScreenInternals;
  return { screen, program: internals.program, leave: () => internals.leave(), enter: () => internals.enter() };
}
