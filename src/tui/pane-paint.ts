// The session pane's paint: where blessed placed the pane's inner area on the outer screen, and claude's
// cells copied from the emulator's viewport into blessed's screen buffer there, only the rows that changed
// (the emulator's changed rows, and the rows the relay drew itself, which are written again whatever the
// terminal is thought to show). A row is marked for blessed's diff only when one of its cells changed.

import type { Terminal as XTerminal } from '@xterm/headless';
import type { Widgets } from 'blessed';
import type { PaneStyles } from './pane-styles.js';

type Cell = [number, string];
type Row = Cell[] & { dirty?: boolean };

/** the outer screen's rows a paint changed (top > bottom: none did) and the pane's columns (left..right-1) */
export interface Painted {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** the pane's inner area on the outer screen */
export interface PaneArea {
  x0: number;
  y0: number;
  width: number;
  height: number;
}

export interface PanePaint {
  /** the inner area, once blessed rendered the box (null before) */
  area(): PaneArea | null;
  /** blessed rendered the box: its inner area placed, every row painted */
  placed(area: PaneArea): void;
  /** the emulator changed these viewport rows */
  rowsChanged(start: number, end: number): void;
  /** the rows changed (or forced) since the last paint, painted; null when never rendered */
  repaintChanged(): Painted | null;
  /** the relay drew these cells (see SessionPane.forgetCells) */
  forgetCells(rows: ReadonlyArray<{ y: number; from: number; to: number }>, scrolled: number): void;
}

export function panePaint(screen: Widgets.Screen, term: XTerminal, styles: PaneStyles): PanePaint {
  let area: PaneArea | null = null;
  const reuse = term.buffer.active.getNullCell();
  const blank = term.buffer.active.getNullCell();
  const lines = () => (screen as unknown as { lines: Row[] }).lines;
  // The viewport rows the emulator changed since the last paint (an echo: one row of forty).
  let changedFrom = Infinity;
  let changedTo = -1;
  // Rows the relay drew cells of (forgetCells): repainted whether or not the emulator changed them.
  let forcedFrom = Infinity;
  let forcedTo = -1;

  // Copies the emulator's viewport rows from..to into the screen buffer's cells in `area`; a row is
  // marked for blessed's diff only when one of its cells changed. Returns the screen rows that changed.
  function paint(from = 0, to = Infinity): Painted {
    const painted = { top: Infinity, bottom: -1, left: area?.x0 ?? 0, right: (area?.x0 ?? 0) + (area?.width ?? 0) };
    changedFrom = Infinity;
    changedTo = -1;
    if (!area) return painted;
    if (styles.startOver()) {
      forget();
      from = 0;
      to = Infinity;
    }
    const { x0, y0, width, height } = area;
    const rows = lines();
    const buffer = term.buffer.active;
    for (let y = Math.max(0, from); y < Math.min(height, to + 1); y++) {
      const row = rows[y0 + y];
      if (!row) continue;
      const line = buffer.getLine(buffer.viewportY + y);
      let changed = false;
      for (let x = 0; x < width; x++) {
        const target = row[x0 + x];
        if (!target) continue;
        const cell = line?.getCell(x, reuse) ?? blank;
        // The right half of a wide character is an empty cell: the painter writes the character once.
        const attr = styles.of(cell);
        const ch = cell.getWidth() === 0 ? '' : cell.getChars() || ' ';
        if (target[0] !== attr || target[1] !== ch) {
          target[0] = attr;
          target[1] = ch;
          changed = true;
        }
      }
      if (changed || (y >= forcedFrom && y <= forcedTo)) {
        row.dirty = true;
        painted.top = Math.min(painted.top, y0 + y);
        painted.bottom = y0 + y;
      }
    }
    return painted;
  }

  // The looks were numbered anew: the pane's cells in blessed's buffer and in its record of what the
  // terminal shows are in the old numbers, which now mean other looks. Every cell is made to differ.
  function forget(): void {
    if (!area) return;
    const s = screen as unknown as { lines: Row[]; olines: Row[] };
    for (const rows of [s.lines, s.olines]) {
      for (let y = area.y0; y < area.y0 + area.height; y++) {
        const row = rows[y];
        if (!row) continue;
        for (let x = area.x0; x < area.x0 + area.width; x++) if (row[x]) row[x] = [-1, '\u0000'];
      }
    }
  }

  return {
    area: () => area,
    placed(placedArea) {
      area = placedArea;
      paint();
    },
    rowsChanged(start, end) {
      changedFrom = Math.min(changedFrom, start);
      changedTo = Math.max(changedTo, end);
    },
    repaintChanged() {
      if (!area) return null;
      const painted = paint(Math.min(changedFrom, forcedFrom), Math.max(changedTo, forcedTo));
      forcedFrom = Infinity;
      forcedTo = -1;
      return painted;
    },
    forgetCells(rows, scrolled) {
      if (!area) return;
      const shown = (screen as unknown as { olines: Row[] }).olines;
      if (scrolled > 0) {
        // The relay scrolled the pane's rows on the terminal (and put back what is beside them): every
        // cell of the pane is drawn again. Not the record moved up with them: a frame of ours may have
        // reached the terminal between the relay's scroll and this (the relay tells of its echo a moment
        // after drawing it), drawn as if nothing had scrolled.
        forget();
        forcedFrom = 0;
        forcedTo = Math.max(forcedTo, area.height - 1);
      }
      for (const { y, from, to } of rows) {
        const row = shown[area.y0 + y];
        if (!row || y >= area.height) continue;
        for (let x = area.x0 + from; x < area.x0 + Math.min(to, area.width); x++) if (row[x]) row[x] = [-1, '\u0000'];
        forcedFrom = Math.min(forcedFrom, y);
        forcedTo = Math.max(forcedTo, y);
      }
    },
  };
}
