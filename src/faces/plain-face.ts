// --plain: claude full-screen in the user's own terminal, byte for byte, with flower-pty's state
// only in the terminal title. Owns raw mode and gives the terminal back on every exit path.

import type { Face, FaceCommand } from '../runtime/face.js';
import { createModeTracker } from '../core/screen/terminal-modes.js';
import { composeTitle, titleSequence } from '../core/screen/title-filter.js';
import { statusLine } from '../core/screen/status.js';
import { terminalText } from '../core/terminal-text.js';

export interface PlainIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** every write to the terminal, when something else also writes it (the run server's native relay) */
  write?: (data: string) => void;
  /** claude's output being handed over has reached the terminal already (the relay wrote it) */
  echoed?: () => boolean;
}

export function createPlainFace(io: PlainIo): Face {
  const { stdin, stdout } = io;
  const out = io.write ?? ((data: string) => void stdout.write(data));
  const err = io.write ?? ((data: string) => void io.stderr.write(data));
  const modes = createModeTracker();
  const tty = Boolean(stdout.isTTY);
  let childTitle = '';
  let state = '';
  let lastTitle = '';
  let childRunning = false;
  let restored = false;
  const wasRaw = stdin.isTTY ? stdin.isRaw : false;

  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.resume();

  function writeTitle(): void {
    if (!tty) return;
    const title = composeTitle(childTitle, state);
    if (title === lastTitle) return;
    lastTitle = title;
    out(titleSequence(title));
  }

  return {
    size() {
      return { cols: stdout.columns || 80, rows: stdout.rows || 24 };
    },
    onInput(listener) {
      stdin.on('data', (data: Buffer) => listener(data.toString('utf8')));
    },
    onResize(listener) {
      stdout.on('resize', () => listener(stdout.columns || 80, stdout.rows || 24));
    },
    onCommand(_listener: (command: FaceCommand) => void) {
      // plain mode has no prefix key: every keystroke belongs to claude
    },
    childOutput(data) {
      if (!io.echoed?.()) out(data); // the bytes first, the bookkeeping after (a keystroke's latency)
      modes.push(data);
    },
    show(show) {
      switch (show.t) {
        case 'title':
          childTitle = show.title;
          writeTitle();
          return;
        case 'status':
          state = statusLine(show.view);
          writeTitle();
          return;
        case 'message':
          // never over claude's screen: only while no child is running
          if (!childRunning) err(`flower-pty: ${terminalText(show.text)}\r\n`);
          return;
        case 'document':
          return; // plain mode has no document pane
        case 'child': {
          childRunning = show.state === 'started';
          if (childRunning) return;
          const reset = modes.resetSequence();
          if (reset && tty) out(reset);
          return;
        }
      }
    },
    restore() {
      if (restored) return;
      restored = true;
      const reset = modes.resetSequence();
      if (tty && reset) out(reset);
      if (stdin.isTTY) stdin.setRawMode(wasRaw);
      stdin.pause();
    },
  };
}
