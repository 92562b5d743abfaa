// The split view's frames: what one frame draws and when. Most frames are claude's output alone (an
// echo, a spinner): those repaint the session pane's rows the emulator changed and draw just those
// rows' diff (row-painter.ts), without blessed re-rendering every element, drawn where the parse ends
// when nothing else is pending (an echo waits for no turn of the loop), once a frame while output keeps
// coming (core/frame-pacing.ts). Anything
// else (status, labels, layout, the document, help) asks for a whole render. No frame is drawn while
// an editor has the terminal (suspended) or after the face gave it back (disposed).

import type { Widgets } from 'blessed';

import type { ScreenProgram } from './outer-screen.js';
import type { SessionPane } from './session-pane.js';
import type { OuterModes } from './outer-modes.js';
import type { HelpOverlay } from './help-overlay.js';
import { createFrameScheduler } from './frame-scheduler.js';
import { paintRows } from './row-painter.js';

export interface SplitFrames {
  /** a whole render, at the next frame */
  redraw(): void;
  /** claude's screen changed: its rows alone, at once when nothing is pending */
  sessionChanged(): void;
  /** a person typed a key for claude: its echo is drawn at once, even in a flood */
  typed(): void;
  suspend(on: boolean): void;
  /** neither suspended nor disposed: the terminal is ours to draw on */
  readonly live: boolean;
  readonly disposed: boolean;
  dispose(): void;
}

export function createSplitFrames(o: {
  screen: Widgets.Screen;
  program: ScreenProgram;
  pane: SessionPane;
  help: HelpOverlay;
  outer: OuterModes;
  /** where the child's cursor is shown, or null to hide it */
  cursor: () => { x: number; y: number } | null;
  /** the terminal has not taken the last frame yet (in a flood, the next waits for it) */
  held?: () => boolean;
}): SplitFrames {
  const { screen, program, pane, help, outer } = o;
  let wholeFrame = true;
  let cursorShown = false;
  let suspended = false;
  let disposed = false;
  const frames = createFrameScheduler(drawFrame, undefined, undefined, o.held);

  function drawFrame(): void {
    if (disposed || suspended) return;
    const whole = wholeFrame || !help.hidden;
    wholeFrame = false;
    const rows = whole ? null : pane.repaintChanged();
    if (!rows) screen.render();
    else if (rows.top <= rows.bottom) {
      const cells = paintRows(screen, pane.ink, rows.top, rows.bottom, rows.left, rows.right);
      if (cells === null) screen.draw(rows.top, rows.bottom);
      else if (cells) program._write(cells);
    }
    const cursor = o.cursor();
    if (cursor) {
      program.cup(cursor.y, cursor.x);
      if (!cursorShown) program.showCursor();
      cursorShown = true;
    } else if (cursorShown) {
      program.hideCursor();
      cursorShown = false;
    }
    program.flush();
    outer.sync({ paste: pane.bracketedPaste, focus: pane.sendFocus, mouse: pane.mouseTracking !== 'none' });
  }

  return {
    redraw() {
      wholeFrame = true;
      frames.request();
    },
    sessionChanged: () => frames.request(true),
    typed: () => frames.typed(),
    suspend(on) {
      suspended = on;
      frames.suspend(on);
    },
    get live() {
      return !suspended && !disposed;
    },
    get disposed() {
      return disposed;
    },
    dispose() {
      disposed = true;
      frames.dispose();
    },
  };
}
