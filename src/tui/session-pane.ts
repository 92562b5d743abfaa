// The session pane: the child's output parsed by @xterm/headless and painted cell by cell into a
// blessed box's area of the screen buffer: each cell's look as a number (pane-styles.ts) that our own
// painter (row-painter.ts) draws with every attribute, 24-bit colour and link; wide characters; the cursor.

import type { MouseTracking } from '../core/screen/mouse.js';
import type { Rect } from '../core/screen/layout.js';
import type { Widgets } from 'blessed';
import type { Terminal as XTerminal } from '@xterm/headless';
import { createEmulator, type Emulator } from '../adapters/emulator.js';
import { drawClaudeFirst, type PaneInk } from './row-painter.js';
import { box as blessedBox } from './blessed-parts.js';
import { createPaneStyles } from './pane-styles.js';
import { panePaint, type PaneArea } from './pane-paint.js';
import type { StyleCaps } from '../core/screen/cell-style.js';
import type { KeyboardModes } from '../core/screen/side-channels.js';
import type { PaneEchoFacts } from '../core/screen/echo-path.js';

export const SCROLLBACK = 1000;

export interface SessionPane {
  readonly box: Widgets.BoxElement;
  readonly term: XTerminal;
  /** the looks of claude's cells and what the terminal shows of them, for the painter */
  readonly ink: PaneInk;
  /** child output; `parsed` runs once the emulator has applied it */
  write(data: string, parsed?: () => void): void;
  /** repaints the rows the emulator changed since the last paint into the screen buffer, where the
   * last full render put them: the outer screen's rows whose cells changed (top > bottom: none did)
   * and the pane's columns (left..right-1), for the caller to draw; null when never rendered */
  repaintChanged(): { top: number; bottom: number; left: number; right: number } | null;
  /** a person's keys for the child: they come back through `onReply` */
  input(data: string): void;
  resize(cols: number, rows: number): void;
  /** forget the previous child's screen and modes */
  reset(): void;
  /** where the child's cursor is on the outer screen, or null when hidden or scrolled away */
  cursor(): { x: number; y: number } | null;
  readonly applicationCursor: boolean;
  readonly bracketedPaste: boolean;
  readonly sendFocus: boolean;
  /** the mouse tracking the child asked for (9 / 1000 / 1002 / 1003) */
  readonly mouseTracking: MouseTracking;
  /** DECSCUSR's shape as the child set it (0: the terminal's own) */
  readonly cursorShape: number;
  /** the keyboard modes the child asked for (kitty flags, modifyOtherKeys) */
  readonly keyboard: KeyboardModes;
  /** the child is between its CSI ? 2026 h and l: its frame is not whole yet */
  readonly synchronizing: boolean;
  /** every mode a frame mirrors, read from the emulator at once (each of the getters above builds xterm's
   *  whole modes object again: a frame reads this once) */
  frameModes(): FrameModes;
  /** what decides whether the relay may draw claude's next echo here (core/screen/echo-path.ts);
   * `cursorShown`: the frame just drawn shows claude's cursor */
  echoFacts(cursorShown: boolean): PaneEchoFacts;
  /** the relay drew these cells (rows of the pane, columns from..to-1), after scrolling the pane's rows up
   * `scrolled` rows: the next repaint writes them again from the emulator, whatever the terminal is
   * thought to show there */
  forgetCells(rows: ReadonlyArray<{ y: number; from: number; to: number }>, scrolled?: number): void;
  dispose(): void;
}

export interface FrameModes {
  bracketedPaste: boolean;
  sendFocus: boolean;
  mouseTracking: MouseTracking;
  synchronizing: boolean;
  cursorShape: number;
  keyboard: KeyboardModes;
}

// Where claude's cursor is on the outer screen: null when hidden, scrolled away or never rendered.
function paneCursor(emulator: Emulator, area: PaneArea | null): { x: number; y: number } | null {
  const buffer = emulator.term.buffer.active;
  if (!emulator.cursorVisible || !area || buffer.viewportY !== buffer.baseY) return null;
  return { x: area.x0 + buffer.cursorX, y: area.y0 + buffer.cursorY };
}

// The emulator's echo facts, with where the pane shows them and whether its cursor is on the screen.
function paneEchoFacts(emulator: Emulator, area: PaneArea | null, cursorShown: boolean): PaneEchoFacts {
  const buffer = emulator.term.buffer.active;
  const shown = cursorShown && emulator.cursorVisible && area !== null && buffer.viewportY === buffer.baseY;
  return {
    ...emulator.echoFacts(),
    cursorShown: shown,
    shownCols: area?.width ?? 0,
    shownRows: area?.height ?? 0,
    left: area?.x0 ?? 0,
    top: area?.y0 ?? 0,
  };
}

// Every mode a frame mirrors, read at once (each getter of xterm's builds its whole modes object again).
function frameModesOf(emulator: Emulator): FrameModes {
  const modes = emulator.term.modes;
  return {
    bracketedPaste: modes.bracketedPasteMode,
    sendFocus: modes.sendFocusMode,
    mouseTracking: modes.mouseTrackingMode,
    synchronizing: modes.synchronizedOutputMode,
    cursorShape: emulator.cursorShape,
    keyboard: emulator.keyboard,
  };
}

export function createSessionPane(opts: {
  screen: Widgets.Screen;
  cols: number;
  rows: number;
  /** what the emulator answers (DA, CPR...): it must reach the child (docs/libraries.md §3) */
  onReply: (data: string) => void;
  /** the child rang the bell (the emulator swallows BEL; the person should still hear it) */
  onBell?: () => void;
  /** the child sent a clipboard write or a notification for the person's terminal */
  onSideChannel?: (sequence: string) => void;
  /** the run server's one emulator, painted from and never written here: its owner parses claude's output
   * once for every face and answers claude's queries; `onParsed` is told each time it has parsed some */
  shared?: Emulator;
  onParsed?: () => void;
  label?: string;
  border?: Widgets.Border | 'line';
  /** what the person's terminal shows (24-bit colour, styled underlines, links); default: all of it */
  caps?: () => StyleCaps;
  /** where the box starts (a face's first layout) */
  at?: Rect;
}): SessionPane {
  const shared = opts.shared ?? null;
  const emulator = shared ?? createEmulator({ cols: opts.cols, rows: opts.rows, scrollback: SCROLLBACK });
  const term = emulator.term;
  const replies = shared
    ? [term.onWriteParsed(() => opts.onParsed?.()), term.onBell(() => opts.onBell?.())]
    : [term.onData(opts.onReply), term.onBinary(opts.onReply), term.onBell(() => opts.onBell?.())];
  replies.push(emulator.onSideChannel((sequence) => opts.onSideChannel?.(sequence)));

  const box = blessedBox({
    parent: opts.screen,
    ...opts.at,
    border: opts.border ?? 'line',
    ...(opts.label ? { label: opts.label } : {}),
    tags: false,
  });

  const styles = createPaneStyles(term);
  const allCaps: StyleCaps = { truecolor: true, styledUnderline: true, hyperlinks: true };
  const ink: PaneInk = { styles, caps: opts.caps ?? (() => allCaps) };

  const paint = panePaint(opts.screen, term, styles);
  const rowsChanged = emulator.onRowsChanged((start, end) => paint.rowsChanged(start, end));

  // Runs inside screen.render(), after blessed drew the box: overwrite the inner area with the emulator.
  drawClaudeFirst(opts.screen, ink, () => {
    const area = paint.area();
    return area ? { left: area.x0, right: area.x0 + area.width } : null;
  });

  box.on('render', (coords: { xi: number; xl: number; yi: number; yl: number }) => {
    const el = box as unknown as { ileft: number; itop: number; iright: number; ibottom: number };
    const x0 = coords.xi + el.ileft;
    const y0 = coords.yi + el.itop;
    paint.placed({
      x0,
      y0,
      width: Math.min(term.cols, coords.xl - el.iright - x0),
      height: Math.min(term.rows, coords.yl - el.ibottom - y0),
    });
  });

  return {
    box,
    term,
    ink,
    write(data, parsed) {
      if (shared) return; // its owner writes it
      term.write(data, parsed);
    },
    repaintChanged: () => paint.repaintChanged(),
    echoFacts: (cursorShown) => paneEchoFacts(emulator, paint.area(), cursorShown),
    forgetCells: (rows, scrolled = 0) => paint.forgetCells(rows, scrolled),
    input(data) {
      // Through the emulator rather than straight to the child: after user input xterm parses the next
      // write (the echo) synchronously instead of a setTimeout later, a millisecond off every keystroke.
      // A shared one is only told that a key was typed (its data listeners are its owner's), once the key
      // is on its way: the echo cannot come back before this returns.
      if (!shared) return term.input(data, true);
      opts.onReply(data);
      emulator.typed();
    },
    resize(cols, rows) {
      if (shared) return; // the pty's size, which its owner follows
      if (cols !== term.cols || rows !== term.rows) term.resize(Math.max(1, cols), Math.max(1, rows));
    },
    reset() {
      if (shared) return;
      term.reset();
      emulator.resetCursor();
    },
    cursor: () => paneCursor(emulator, paint.area()),
    get applicationCursor() {
      return term.modes.applicationCursorKeysMode;
    },
    get bracketedPaste() {
      return term.modes.bracketedPasteMode;
    },
    get sendFocus() {
      return term.modes.sendFocusMode;
    },
    get mouseTracking() {
      return term.modes.mouseTrackingMode;
    },
    get cursorShape() {
      return emulator.cursorShape;
    },
    get keyboard() {
      return emulator.keyboard;
    },
    get synchronizing() {
      return term.modes.synchronizedOutputMode;
    },
    frameModes: () => frameModesOf(emulator),
    dispose() {
      rowsChanged.dispose();
      for (const d of replies) d.dispose();
      if (!shared) emulator.dispose();
    },
  };
}
