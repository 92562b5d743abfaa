// Claude's screen as the run server keeps it: every byte of its output parsed by @xterm/headless,
// so a client that attaches late is painted the current screen at once (tmux keeps its grid the same way).

import { createRequire } from 'node:module';
import { createEmulator, type Emulator } from '../adapters/emulator.js';
import { linkOverlay } from './screen-links.js';

// CommonJS, so required rather than imported, as the emulator is (docs/libraries.md §3: no export-name scan
// of its source at start-up). It reads the same buffer the split view paints.
const { SerializeAddon } = createRequire(import.meta.url)(
  '@xterm/addon-serialize',
) as typeof import('@xterm/addon-serialize');

export interface ScreenModel {
  /** the one emulator of the run: the split views the server draws paint from it, parsing nothing themselves */
  readonly emulator: Emulator;
  readonly cols: number;
  readonly rows: number;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** a new child: forget the previous one's screen and modes */
  reset(): void;
  /** ANSI that repaints the current screen (content, colours, modes, cursor) on a cleared terminal of this size */
  repaint(): Promise<string>;
  /** what the emulator answers to claude's queries (DA, CPR): wanted only while nobody attached can answer */
  onReply(listener: (data: string) => void): void;
  dispose(): void;
}

export function createScreenModel(size: { cols: number; rows: number }): ScreenModel {
  // No scrollback: a repaint is the screen, and the server's memory stays flat however long the run.
  const emulator = createEmulator({ cols: size.cols, rows: size.rows, scrollback: 0 });
  const term = emulator.term;
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  const replyListeners: Array<(data: string) => void> = [];
  // A face that shares this emulator marks its keys as typed (emulator.typed(): the next write, the echo,
  // is then parsed at once), where xterm's internals are not as expected with an empty input: no reply.
  const reply = (d: string) => {
    if (d) replyListeners.forEach((l) => l(d));
  };
  const replies = [term.onData(reply), term.onBinary(reply)];

  return {
    emulator,
    get cols() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    write(data) {
      term.write(data);
    },
    resize(cols, rows) {
      if (cols !== term.cols || rows !== term.rows) term.resize(cols, rows);
    },
    reset() {
      term.reset();
      emulator.resetCursor();
    },
    repaint() {
      // An empty write's callback runs once everything written before it is parsed. The serializer
      // writes the modes back but not the cursor's visibility (DECTCEM), its shape, nor the keyboard
      // modes claude asked for: they are added here when not a cleared terminal's defaults (so an empty
      // screen repaints as ''). A terminal attached later then sends keys as claude asked (shift+enter).
      // Nor the links: they are written again over the serialized screen (screen-links.ts).
      return new Promise((resolve) => {
        term.write('', () => {
          const { kitty, modifyOtherKeys } = emulator.keyboard;
          let modes = emulator.cursorVisible ? '' : '\u001b[?25l';
          if (emulator.cursorShape) modes += `\u001b[${emulator.cursorShape} q`;
          if (kitty) modes += `\u001b[>${kitty}u`;
          if (modifyOtherKeys) modes += `\u001b[>4;${modifyOtherKeys}m`;
          resolve(serializer.serialize({ scrollback: 0 }) + linkOverlay(term) + modes);
        });
      });
    },
    onReply(listener) {
      replyListeners.push(listener);
    },
    dispose() {
      for (const d of replies) d.dispose();
      emulator.dispose();
    },
  };
}
