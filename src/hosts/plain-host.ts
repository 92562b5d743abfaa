// --plain: claude full-screen in the user's own terminal, byte for byte, with flower-pty's state
// only in the terminal title. Owns raw mode and gives the terminal back on every exit path.

import type { Host, HostCommand, StatusView } from './host.js';
import { createModeTracker } from '../core/terminal-modes.js';
import { composeTitle, titleSequence } from '../core/title-filter.js';
import { statusLine } from '../core/status-text.js';

export function createPlainHost(io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream }): Host {
  const { stdin, stdout, stderr } = io;
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
    stdout.write(titleSequence(title));
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
    onCommand(_listener: (command: HostCommand) => void) {
      // plain mode has no prefix key: every keystroke belongs to claude
    },
    childOutput(data) {
      stdout.write(data); // the bytes first, the bookkeeping after (a keystroke's latency)
      modes.push(data);
    },
    childTitle(title) {
      childTitle = title;
      writeTitle();
    },
    status(view: StatusView) {
      state = statusLine(view);
      writeTitle();
    },
    message(text) {
      // never over claude's screen: only while no child is running
      if (!childRunning) stderr.write(`flower-pty: ${text}\r\n`);
    },
    documentChanged() {},
    childStarted() {
      childRunning = true;
    },
    childEnded() {
      childRunning = false;
      const reset = modes.resetSequence();
      if (reset && tty) stdout.write(reset);
    },
    restore() {
      if (restored) return;
      restored = true;
      const reset = modes.resetSequence();
      if (tty && reset) stdout.write(reset);
      if (stdin.isTTY) stdin.setRawMode(wasRaw);
      stdin.pause();
    },
  };
}
