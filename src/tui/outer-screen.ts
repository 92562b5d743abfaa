// The split view's outer screen: blessed on the person's terminal, with the parts of blessed its
// typings leave out (leave/enter the alternate screen, a buffered cursor) named once here.

import { PassThrough } from 'node:stream';
import type { Widgets } from 'blessed';
import { unicode11Widths } from './blessed-char-width.js';
import { screen as blessedScreen, Tput } from './blessed-parts.js';

export interface ScreenProgram {
  /** blessed's own word on the cursor, which its renders read */
  cursorHidden: boolean;
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

// blessed compiles the terminal's terminfo entry into JavaScript for every screen it opens (10–30 ms
// here), and a run server opens one screen per split view attached to it: the compiled entry is kept per
// terminal name. It depends only on that name, the options below (the same for every screen) and this
// process's LANG, and its functions are called on each screen's own Tput (`inject` binds them per instance).
// A failure is kept too: blessed cannot parse the system's entry in ncurses 6's 32-bit number format
// (magic 01036, as Debian's xterm-256color is); it reads the file, fails an assertion (whose message
// costs more than the read), then falls back to its own copy, a millisecond of every attach for the same answer.
interface TputProto {
  compileTerminfo(this: { terminal?: string }, term?: string): unknown;
}
let terminfoKept = false;
function keepCompiledTerminfo(): void {
  if (terminfoKept) return;
  terminfoKept = true;
  const proto = Tput.prototype as TputProto;
  const compile = proto.compileTerminfo;
  const compiled = new Map<string, { info: unknown } | { failed: unknown }>();
  proto.compileTerminfo = function (this: { terminal?: string }, term?: string) {
    const key = `${term ?? ''}\0${this.terminal ?? ''}`;
    let kept = compiled.get(key);
    if (!kept) {
      try {
        kept = { info: compile.call(this, term) };
      } catch (failed) {
        kept = { failed };
      }
      compiled.set(key, kept);
    }
    if ('failed' in kept) throw kept.failed;
    return kept.info;
  };
}

export function openOuterScreen(stdout: NodeJS.WriteStream, term: string | undefined): OuterScreen {
  keepCompiledTerminfo();
  unicode11Widths();
  // blessed gets a dead input: every byte from the person is ours to route (Esc, Alt, paste), and
  // blessed never puts stdin in raw mode behind our back (docs/libraries.md §2).
  const screen = blessedScreen({
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
