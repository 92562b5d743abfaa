// The face the supervisor drives inside the run server: it keeps what a client needs to be painted
// at once (claude's screen in an emulator, the title, the latest status, the document, whether a
// child runs) and passes every change on to the attached clients. Sizes and commands come back from the
// clients through the same Face listeners a terminal face would use; their keys go to the run's one sink.

import type { Face, FaceCommand } from '../runtime/face.js';
import { NOTHING_SHOWN, reduceShown, stateChanged, type Shown } from '../core/picture/run-show.js';
import type { ServerMessage } from './wire.js';
import { createScreenModel, type ScreenModel } from './screen-model.js';
import { createFaceListeners } from '../faces/face-listeners.js';
import { terminalText } from '../core/terminal-text.js';
import { createInputCeiling, type InputCeiling } from '../core/server/input-ceiling.js';

// A frozen document is a person's text, not a stream: one far over this is cut rather than lost with its frame.
const MAX_DOCUMENT_CHARS = 1024 * 1024;
const keptDocument = (text: string | null): string | null =>
  text !== null && text.length > MAX_DOCUMENT_CHARS
    ? `${text.slice(0, MAX_DOCUMENT_CHARS)}\n… (cut: the file is longer)`
    : text;

export interface ServerFace extends Face {
  readonly screen: ScreenModel;
  /** what the run shows now (core/picture/run-show.ts): what a client that attaches is told first */
  readonly latest: Shown;
  /** when the run entered its current state (phase or attention) and when claude last drew, ms: the run's info says them */
  readonly times: { since: number; active: number | null };
  /** what may wait for claude (core/server/input-ceiling.ts): told of claude's every output here */
  readonly inputCeiling: InputCeiling;
  /** the pty follows this size (tmux's `window-size latest`: the client that attached or typed last) */
  resize(cols: number, rows: number): void;
  command(command: FaceCommand): void;
}

/** `activity`: told of every chunk claude writes (the server's idle housekeeping, idle-memory.ts) */
export function createServerFace(o: {
  cols: number;
  rows: number;
  broadcast: (message: ServerMessage) => void;
  activity?: () => void;
}): ServerFace {
  const screen = createScreenModel({ cols: o.cols, rows: o.rows });
  const listeners = createFaceListeners();
  let latest: Shown = NOTHING_SHOWN;
  let childEverEnded = false;
  const inputCeiling = createInputCeiling();
  const times: ServerFace['times'] = { since: Date.now(), active: null };

  return {
    times,
    screen,
    get latest() {
      return latest;
    },
    inputCeiling,
    size() {
      return { cols: screen.cols, rows: screen.rows };
    },
    // its clients' keys go to the run's one sink (runtime/claude-keys.ts), not through this face
    ...listeners.ports,
    resize(cols, rows) {
      if (cols === screen.cols && rows === screen.rows) return;
      screen.resize(cols, rows);
      listeners.resize(cols, rows);
    },
    command: listeners.command,
    childOutput(data) {
      // The one screen first: the split views drawn here paint from it (after a key it is parsed at
      // once, and they draw the echo on the next turn); then the terminals that draw their own.
      screen.write(data);
      inputCeiling.output();
      o.broadcast({ t: 'output', data });
      times.active = Date.now();
      o.activity?.();
    },
    show(show) {
      // A frozen document is cut to what a frame carries; the rest goes out as it came.
      const told = show.t === 'document' ? { ...show, text: keptDocument(show.text) } : show;
      const before = latest;
      latest = reduceShown(latest, told);
      if (stateChanged(before, latest)) times.since = Date.now();
      if (told.t === 'message' && before.child !== 'started')
        // Between generations claude's screen is free: said there too, once, for the split views drawn
        // from it (each drew it into its own screen before there was one screen).
        // Escaped before it enters: the emulator would read a folder name's OSC 52 as claude's own clipboard write.
        screen.write(`\r\n\u001b[1mflower-pty:\u001b[0m ${terminalText(told.text)}\r\n`);
      // A successor draws on a clean screen; the clients' faces reset theirs on the same frame.
      if (told.t === 'child' && told.state === 'started' && childEverEnded) screen.reset();
      if (told.t === 'child' && told.state === 'ended') childEverEnded = true;
      o.broadcast(told);
    },
    restore() {
      // No terminal here to give back; the screen outlives the run's last words (the server disposes it).
    },
  };
}
