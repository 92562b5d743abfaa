// One @xterm/headless terminal as flower-pty uses it twice (the split view's session pane and the
// run server's screen): Unicode 11 widths, logging off, the cursor's visibility and shape tracked, the
// keyboard modes claude asks for kept (the kitty keyboard protocol's flags, answered when claude asks, as
// xterm 6.0 does not; modifyOtherKeys), and what claude tells a terminal besides the screen (clipboard
// writes, notifications: core/screen/side-channels.ts) handed to whoever passes it on.

import { createRequire } from 'node:module';
import type { Terminal as XTerminal } from '@xterm/headless';
import {
  createKeyboardState,
  sideChannel,
  SIDE_CHANNEL_OSCS,
  type KeyboardModes,
} from '../core/screen/side-channels.js';
import type { PaneEchoFacts } from '../core/screen/echo-path.js';

// Both packages are CommonJS (docs/libraries.md §3): required, not imported. An ESM import of a CommonJS
// file has Node scan its whole source for export names first (cjs-module-lexer, 180 KB here), and that
// scan ran hot enough to be optimised, which alone kept megabytes in an idle run server.
const require = createRequire(import.meta.url);
const { Terminal } = require('@xterm/headless') as typeof import('@xterm/headless');
const { Unicode11Addon } = require('@xterm/addon-unicode11') as typeof import('@xterm/addon-unicode11');

export interface Emulator {
  readonly term: XTerminal;
  /** DECTCEM (ESC[?25h / l), which xterm keeps out of term.modes */
  readonly cursorVisible: boolean;
  /** DECSCUSR's shape (CSI n SP q) as claude set it: 0, the terminal's own */
  readonly cursorShape: number;
  /** the keyboard modes claude asked for */
  readonly keyboard: KeyboardModes;
  /** after term.reset(): the cursor shows again, in the terminal's own shape, and no keyboard mode is on */
  resetCursor(): void;
  /** a sequence claude sent for the person's terminal (a clipboard write, a notification), to pass on */
  onSideChannel(listener: (sequence: string) => void): { dispose(): void };
  /** tells `listener` which viewport rows each parse changed (every row: a resize, or xterm said "all");
   * a face that paints from this emulator repaints just those rows instead of the whole screen */
  onRowsChanged(listener: (start: number, end: number) => void): { dispose(): void };
  /** a person typed: the next write (the echo) is parsed before write() returns, not a timer later */
  typed(): void;
  /** what decides whether the relay may draw the next echo itself (core/screen/echo-path.ts) */
  echoFacts(): EmulatorEchoFacts;
  dispose(): void;
}

export type EmulatorEchoFacts = Pick<
  PaneEchoFacts,
  | 'cursorX'
  | 'cursorY'
  | 'cols'
  | 'rows'
  | 'parsedAll'
  | 'plainPen'
  | 'insertMode'
  | 'wraparound'
  | 'wholeScrollRegion'
  | 'synchronizing'
>;

// The part of xterm's InputHandler read here (xterm-headless 6.0: lib-headless/xterm-headless.js).
interface InputHandlerInternals {
  onRequestRefreshRows?: (listener: (range: { start: number; end: number } | undefined) => void) => { dispose(): void };
  /** the pen: fg and bg 0 is the default (a link or an underline colour sets a flag in bg) */
  _curAttrData?: { fg: number; bg: number };
  /** 0: between sequences (GROUND); a parse stack state other than 0: an async handler is pending */
  _parser?: { currentState: number; _parseStack?: { state: number } };
}
// The rest of xterm's core read for the echo's facts: what is still to be parsed, G0's character set
// (undefined: ASCII), insert mode, the DEC private modes (none of these are in term.modes but insert mode,
// and term.modes builds its whole object on every read).
interface CoreInternals {
  _inputHandler?: InputHandlerInternals;
  _writeBuffer?: { _pendingData: number };
  _charsetService?: { charset?: unknown };
  coreService?: {
    modes: { insertMode: boolean };
    decPrivateModes: { wraparound: boolean; synchronizedOutput: boolean };
  };
}
// Its write buffer's flag for "the person typed": term.input('', true) sets it too, on the way through
// the data event, a log line and the listeners of an empty input (a fifth of a key's JavaScript).
interface WriteBufferInternals {
  handleUserInput?: () => void;
}

// What the relay needs to know of the emulator to draw claude's next echo itself (core/screen/echo-path.ts),
// read off xterm's internals.
function echoFactsOf(term: XTerminal, core: CoreInternals | undefined): ReturnType<Emulator['echoFacts']> {
  const buffer = term.buffer.active;
  const handler = core?._inputHandler;
  const pen = handler?._curAttrData;
  const parser = handler?._parser;
  const modes = core?.coreService;
  // Internals not where they were (another xterm): every fact that needs one says "no".
  const known = Boolean(pen && parser && modes && core?._writeBuffer && core._charsetService);
  const internals = buffer as unknown as { _buffer?: { scrollTop: number; scrollBottom: number } };
  const region = internals._buffer;
  return {
    cursorX: buffer.cursorX,
    cursorY: buffer.cursorY,
    cols: term.cols,
    rows: term.rows,
    parsedAll:
      known && core!._writeBuffer!._pendingData === 0 && parser!.currentState === 0 && !parser!._parseStack?.state,
    plainPen: known && pen!.fg === 0 && pen!.bg === 0 && core!._charsetService!.charset === undefined,
    insertMode: !known || modes!.modes.insertMode,
    wraparound: known && modes!.decPrivateModes.wraparound,
    wholeScrollRegion: Boolean(region) && region!.scrollTop === 0 && region!.scrollBottom === term.rows - 1,
    synchronizing: !known || modes!.decPrivateModes.synchronizedOutput,
  };
}

export function createEmulator(o: { cols: number; rows: number; scrollback: number }): Emulator {
  // logLevel off: xterm logs through console, which in the split view is the screen being drawn.
  const term = new Terminal({
    cols: o.cols,
    rows: o.rows,
    scrollback: o.scrollback,
    allowProposedApi: true,
    logLevel: 'off',
  });
  // Unicode 11 widths match what Ink (and so claude) assumes for emoji (docs/libraries.md §3).
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  // Watch DECTCEM without swallowing it (returning false lets xterm act too).
  let cursorVisible = true;
  const watchCursor = (visible: boolean) => (params: (number | number[])[]) => {
    if (params.includes(25)) cursorVisible = visible;
    return false;
  };
  let cursorShape = 0;
  const keyboard = createKeyboardState();
  const sideListeners = new Set<(sequence: string) => void>();
  const first = (params: (number | number[])[], fallback: number): number => {
    const p = params[0];
    return typeof p === 'number' && p > 0 ? p : fallback;
  };
  const hooks = [
    term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, watchCursor(true)),
    term.parser.registerCsiHandler({ prefix: '?', final: 'l' }, watchCursor(false)),
    term.parser.registerCsiHandler({ intermediates: ' ', final: 'q' }, (params) => {
      cursorShape = first(params, 0);
      return false; // xterm keeps it too
    }),
    term.parser.registerCsiHandler({ prefix: '>', final: 'u' }, (params) => {
      keyboard.push(first(params, 0));
      return true;
    }),
    term.parser.registerCsiHandler({ prefix: '<', final: 'u' }, (params) => {
      keyboard.pop(first(params, 1));
      return true;
    }),
    term.parser.registerCsiHandler({ prefix: '=', final: 'u' }, (params) => {
      keyboard.set(first(params, 0), typeof params[1] === 'number' ? params[1] : 1);
      return true;
    }),
    term.parser.registerCsiHandler({ prefix: '?', final: 'u' }, () => {
      term.input(`\u001b[?${keyboard.modes.kitty}u`, false);
      return true;
    }),
    term.parser.registerCsiHandler({ prefix: '>', final: 'm' }, (params) => {
      if (params[0] === 4) keyboard.modifyOtherKeys(typeof params[1] === 'number' ? params[1] : 0);
      return false;
    }),
    ...SIDE_CHANNEL_OSCS.map((ident) =>
      term.parser.registerOscHandler(ident, (data) => {
        const sequence = sideChannel(ident, data);
        if (sequence) for (const listener of sideListeners) listener(sequence);
        return true;
      }),
    ),
  ];
  const writeBuffer = (term as unknown as { _core?: { _writeBuffer?: WriteBufferInternals } })._core?._writeBuffer;
  const core = (term as unknown as { _core?: CoreInternals })._core;
  return {
    term,
    echoFacts: () => echoFactsOf(term, core),
    typed: writeBuffer?.handleUserInput ? () => writeBuffer.handleUserInput!() : () => term.input('', true),
    onRowsChanged(listener) {
      const all = () => listener(0, term.rows - 1);
      // @xterm/headless has no public event for the rows a write changed (the browser build tells its
      // renderer through onRender, which headless never fires): its input handler's own refresh request
      // carries them, viewport-relative, after every parse. Without it, every parse says "all rows".
      const handler = (term as unknown as { _core?: { _inputHandler?: InputHandlerInternals } })._core?._inputHandler;
      const rows = handler?.onRequestRefreshRows
        ? handler.onRequestRefreshRows((range) => (range ? listener(range.start, range.end) : all()))
        : term.onWriteParsed(all);
      const resized = term.onResize(all);
      return {
        dispose() {
          rows.dispose();
          resized.dispose();
        },
      };
    },
    get cursorVisible() {
      return cursorVisible;
    },
    get cursorShape() {
      return cursorShape;
    },
    get keyboard() {
      return keyboard.modes;
    },
    resetCursor() {
      cursorVisible = true;
      cursorShape = 0;
      keyboard.reset();
    },
    onSideChannel(listener) {
      sideListeners.add(listener);
      return { dispose: () => sideListeners.delete(listener) };
    },
    dispose() {
      for (const hook of hooks) hook.dispose();
      term.dispose();
    },
  };
}
