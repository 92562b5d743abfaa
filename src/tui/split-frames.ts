// The split view's frames: what one frame draws and when. Most frames are claude's output alone (an
// echo, a spinner): those repaint the session pane's rows the emulator changed and draw just those
// rows' diff (row-painter.ts), without blessed re-rendering every element, drawn where the parse ends
// when nothing else is pending (an echo waits for no turn of the loop), once a frame while output keeps
// coming (core/screen/frame-pacing.ts). Anything
// else (status, labels, layout, the document, help) asks for a whole render. No frame is drawn while
// an editor has the terminal (suspended) or after the face gave it back (disposed).
// Frames are drawn whole: none while claude is inside its own synchronized update (CSI ? 2026 h … l),
// so half of claude's frame is never painted (unless it never ends it: then after a while, as a
// terminal does: claude-sync-wait.ts), and on a terminal that takes synchronized output each frame is wrapped in one.

import type { Widgets } from 'blessed';

import type { ScreenProgram } from './outer-screen.js';
import type { SessionPane } from './session-pane.js';
import type { OuterModes } from './outer-modes.js';
import type { HelpOverlay } from './help-overlay.js';
import { createFrameScheduler } from './frame-scheduler.js';
import { paintRows } from './row-painter.js';
import { claudeSyncWait } from './claude-sync-wait.js';
import type { TerminalCaps } from '../core/screen/terminal-caps.js';

const SYNC_BEGIN = '\u001b[?2026h';
const SYNC_END = '\u001b[?2026l';
const SHOW_CURSOR = '\u001b[?25h';
const HIDE_CURSOR = '\u001b[?25l';

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
  /** claude has the person's keys now (its pane has the focus, no help shown): its cursor shape and
   * keyboard modes are asked of the terminal then, and taken back otherwise */
  claudeHasKeys?: () => boolean;
  /** what the person's terminal takes (synchronized output, the kitty keyboard protocol) */
  caps?: () => Pick<TerminalCaps, 'sync' | 'kittyKeys'>;
  /** a frame is out (`cursorShown`: with claude's cursor placed; `beyondPane`: it drew more than claude's
   * pane, which may have changed what is beside it), or (false) the terminal is handed to an editor:
   * whether the relay may draw the next echo itself is decided then */
  afterFrame?: (cursorShown: boolean, beyondPane: boolean) => void;
}): SplitFrames {
  const { screen, program, pane, help, outer } = o;
  let wholeFrame = true;
  let cursorShown = false;
  let suspended = false;
  let disposed = false;
  const frames = createFrameScheduler(drawFrame, undefined, undefined, o.held);
  const syncWait = claudeSyncWait(() => frames.request());

  function drawFrame(): void {
    if (disposed || suspended) return;
    // xterm's modes once a frame: each read of them builds its whole modes object again
    const modes = pane.frameModes();
    // the end of claude's update is parsed like any output: it asks for the frame this one leaves out
    if (syncWait.midFrame(modes.synchronizing)) return;
    const caps = o.caps?.() ?? { sync: false, kittyKeys: false };
    const whole = wholeFrame || !help.hidden;
    wholeFrame = false;
    const rows = whole ? null : pane.repaintChanged();
    let beyondPane = !rows;
    if (!rows) screen.render();
    else if (rows.top <= rows.bottom) {
      const cells = paintRows(screen, pane.ink, rows.top, rows.bottom, rows.left, rows.right);
      if (cells === null) screen.draw(rows.top, rows.bottom);
      else if (cells) program._write(cells);
      beyondPane = cells === null;
    }
    // The cursor as a plain CUP in the frame's text: blessed's cup() goes through its compiled terminfo
    // and its own position bookkeeping for the same few bytes. Whether it shows is kept where blessed
    // reads it (its whole renders hide the cursor while they draw only when it shows).
    const cursor = o.cursor();
    if (cursor) {
      program._write(`\u001b[${cursor.y + 1};${cursor.x + 1}H${cursorShown ? '' : SHOW_CURSOR}`);
      cursorShown = true;
      program.cursorHidden = false;
    } else if (cursorShown) {
      program._write(HIDE_CURSOR);
      cursorShown = false;
      program.cursorHidden = true;
    }
    // What the terminal's modes must change (rarely anything) goes in the same write as the frame.
    const keys = o.claudeHasKeys?.() ?? false;
    outer.sync(
      {
        paste: modes.bracketedPaste,
        focus: modes.sendFocus,
        mouse: modes.mouseTracking !== 'none',
        cursorShape: keys ? modes.cursorShape : 0,
        kitty: keys && caps.kittyKeys ? modes.keyboard.kitty : 0,
        modifyOtherKeys: keys ? modes.keyboard.modifyOtherKeys : 0,
      },
      false,
      (sequence) => program._write(sequence),
    );
    const buffered = program as unknown as { _buf?: string };
    if (caps.sync && buffered._buf) buffered._buf = SYNC_BEGIN + buffered._buf + SYNC_END;
    program.flush();
    o.afterFrame?.(cursor !== null && keys, beyondPane);
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
      if (on) o.afterFrame?.(false, true);
    },
    get live() {
      return !suspended && !disposed;
    },
    get disposed() {
      return disposed;
    },
    dispose() {
      disposed = true;
      syncWait.dispose();
      frames.dispose();
    },
  };
}
