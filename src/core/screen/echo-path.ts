// When the native relay may draw claude's echo into the split view's session pane itself, before
// JavaScript has parsed it (native/echo-path.h draws it: plain printable ASCII where the emulator will put
// it), and which cells it drew. After each frame the face asks echoArm() with what its emulator and
// layout say; the relay is armed only when nothing the relay does not model could move a character
// elsewhere: the cursor shown in claude's pane, which has the keys, the whole of claude's screen shown,
// every byte parsed and the parser between sequences, the default pen and character set, no insert mode,
// wraparound on, no scroll region, not inside claude's synchronized update. Anything else, and JavaScript
// draws the echo as before. A wrap on the pane's last row scrolls it: the relay scrolls the terminal's rows
// and puts back what is beside the pane in them (`beside`, which the face makes from what the terminal
// shows there), or leaves that echo to JavaScript when the face gave it nothing to put back.

/** where claude's echo goes on the person's terminal: the cursor in the pane (x may be `cols`: at the
 * edge, the next character wraps), the pane's size and its top-left cell (0-based) */
export interface EchoArm {
  x: number;
  y: number;
  cols: number;
  rows: number;
  left: number;
  top: number;
  /** the terminal takes synchronized output: a scroll is drawn as one update */
  sync?: boolean;
  /** what redraws the cells beside the pane on its rows (row-painter.ts paintBeside), put back after
   * the relay scrolled the pane; null or left out: the relay does not scroll it */
  beside?: string | null;
}

/** what the emulator and the layout say after a frame */
export interface PaneEchoFacts {
  /** claude has the keys and its cursor is shown on the person's terminal, in its pane */
  cursorShown: boolean;
  cursorX: number;
  cursorY: number;
  /** claude's terminal */
  cols: number;
  rows: number;
  /** the part of it the pane shows, and where */
  shownCols: number;
  shownRows: number;
  left: number;
  top: number;
  /** the emulator has parsed every byte it was given and is between sequences */
  parsedAll: boolean;
  /** the pen is the default one (no colour, no attribute, no link) and G0 is ASCII */
  plainPen: boolean;
  insertMode: boolean;
  wraparound: boolean;
  /** DECSTBM's region is the whole screen */
  wholeScrollRegion: boolean;
  synchronizing: boolean;
}

export function echoArm(f: PaneEchoFacts): EchoArm | null {
  if (
    !f.cursorShown ||
    !f.parsedAll ||
    !f.plainPen ||
    f.insertMode ||
    !f.wraparound ||
    !f.wholeScrollRegion ||
    f.synchronizing
  )
    return null;
  // a pane that shows part of claude's screen would have the relay draw past its edge
  if (f.shownCols !== f.cols || f.shownRows !== f.rows || f.cols < 1 || f.rows < 1) return null;
  if (f.cursorX < 0 || f.cursorX > f.cols || f.cursorY < 0 || f.cursorY >= f.rows) return null;
  return { x: f.cursorX, y: f.cursorY, cols: f.cols, rows: f.rows, left: f.left, top: f.top };
}

/** the cells of the pane an echo of `length` characters drawn at `arm` covers, row by row (columns
 * from..to-1, rows as they are once the pane scrolled), how many rows the pane scrolled up (a wrap on its
 * last row), and where the cursor is after it: what echo_plan (native/echo-path.h) wrote */
export function echoCells(
  arm: EchoArm,
  length: number,
): { rows: Array<{ y: number; from: number; to: number }>; scrolled: number; next: EchoArm } {
  const rows: Array<{ y: number; from: number; to: number }> = [];
  let { x, y } = arm;
  let left = length;
  while (left > 0) {
    if (x >= arm.cols) {
      y++;
      x = 0;
    }
    const take = Math.min(left, arm.cols - x);
    rows.push({ y, from: x, to: x + take });
    x += take;
    left -= take;
  }
  const scrolled = Math.max(0, y - (arm.rows - 1));
  return {
    rows: rows.map((r) => ({ ...r, y: r.y - scrolled })).filter((r) => r.y >= 0),
    scrolled,
    next: { ...arm, x, y: y - scrolled },
  };
}
