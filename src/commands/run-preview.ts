// The chooser's preview of the selected run's screen, as `choose-tree` shows one: a watcher's connection
// to the run (web/run-watch.ts: it never sizes claude's pty and counts as no terminal), its screen and
// what claude draws after it parsed in a headless emulator here, read back as plain lines. One at a time:
// a new selection closes the last.

import { watchRun } from '../web/run-watch.js';
import { createEmulator, type Emulator } from '../adapters/emulator.js';

export interface RunPreview {
  /** the screen's rows as plain text (trailing blanks cut), empty until the first paint */
  lines(): string[];
  close(): void;
}

/** a preview of the run at `socketPath`; `changed` is told when its screen changed (at most every 100 ms) */
export function previewRun(socketPath: string, changed: () => void): RunPreview {
  let emulator: Emulator | null = null;
  let timer: NodeJS.Timeout | null = null;
  const soon = () => {
    timer ??= setTimeout(() => {
      timer = null;
      changed();
    }, 100);
  };
  const write = (data: string) => emulator?.term.write(data, soon);
  const watch = watchRun(socketPath, {
    message: (m) => {
      if (m.t === 'screen') {
        emulator?.dispose();
        emulator = createEmulator({ cols: m.cols, rows: m.rows, scrollback: 0 });
        write(m.data);
      } else if (m.t === 'output') write(m.data);
      else if (m.t === 'size') emulator?.term.resize(m.cols, m.rows);
    },
    closed: () => undefined,
  });
  return {
    lines() {
      if (!emulator) return [];
      const buffer = emulator.term.buffer.active;
      const out: string[] = [];
      for (let y = 0; y < emulator.term.rows; y++)
        out.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
      // the rows claude left empty at the bottom say nothing
      while (out.length > 0 && out.at(-1)!.trim() === '') out.pop();
      return out;
    },
    close() {
      if (timer) clearTimeout(timer);
      watch.close();
      emulator?.dispose();
      emulator = null;
    },
  };
}
