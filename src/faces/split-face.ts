// The default face: claude's screen in one pane, the handoff document in another, a status bar
// below, and a tmux-style prefix key for flower's own commands. blessed draws; stdin is read raw here.

import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import blessed from 'blessed';
import type { Widgets } from 'blessed';

import type { Face, StatusView } from './face.js';
import type { Emulator } from '../adapters/emulator.js';
import { createFaceListeners } from './face-listeners.js';
import { FlowerError } from '../errors.js';
import { computeLayout, type Layout } from '../core/layout.js';
import { extractMouse, routeMouse, type MouseEvent } from '../core/mouse.js';
import { createKeyRouter, DEFAULT_PREFIX, parsePrefix, prefixName, type Focus, type KeyAction, type PaneCommand } from '../core/keymap.js';
import { createModeTracker, type ModeTracker } from '../core/terminal-modes.js';
import { composeTitle } from '../core/title-filter.js';
import { statusLine } from '../core/status-text.js';
import { createSessionPane } from '../tui/session-pane.js';
import { createDocumentPane } from '../tui/document-pane.js';
import { createStatusBar } from '../tui/status-bar.js';
import { createHelpOverlay } from '../tui/help-overlay.js';
import { createFrameScheduler } from '../tui/frame-scheduler.js';
import { handOverTerminal, runEditor } from '../tui/editor.js';
import { createOuterModes } from '../tui/outer-modes.js';
import { setQuietLabel } from '../tui/quiet-label.js';
import { paintRows } from '../tui/row-painter.js';

export interface SplitFaceOptions {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: Record<string, string | undefined>;
  /** the step's document file: shown at start when it exists, opened by "prefix e" */
  documentPath: string | null;
  /** "C-]" (default), "C-\\", ...; else $FLOWER_PTY_PREFIX */
  prefix?: string;
  /** "prefix d": let go of a run served elsewhere (absent: the run lives in this process, nothing to detach from) */
  onDetach?: () => void;
  /** runs the person's editor on the document while the terminal is handed over (default: here, on stdin/stdout;
   * a run server drawing a client's terminal asks the client, which owns the terminal's job control) */
  edit?: (path: string) => Promise<{ ok: boolean; problem?: string }>;
  /** the run server's one screen of claude (a face it draws): painted from, never parsed here; claude's
   * output and the server's messages between generations are already in it */
  screen?: Emulator;
}

const FLASH_MS = 4_000;

interface ScreenInternals {
  leave(): void;
  enter(): void;
  program: { cup(y: number, x: number): void; showCursor(): void; hideCursor(): void; flush(): void; _write(text: string): void };
}

function printable(key: string): string {
  return [...key].map((c) => (c.charCodeAt(0) < 0x20 ? prefixName(c) : c === '\u007f' ? 'DEL' : c)).join('');
}

export function createSplitFace(o: SplitFaceOptions): Face {
  const { stdin, stdout, env } = o;
  const prefixSetting = o.prefix ?? env.FLOWER_PTY_PREFIX ?? DEFAULT_PREFIX;
  const parsedPrefix = parsePrefix(prefixSetting);
  if ('problem' in parsedPrefix) throw new FlowerError(`${o.prefix ? 'prefix' : 'FLOWER_PTY_PREFIX'}: ${parsedPrefix.problem}`);
  const prefix = parsedPrefix.byte;
  const prefixLabel = prefixName(prefix);
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';

  const listeners = createFaceListeners();

  // blessed gets a dead input: every byte from the person is ours to route (Esc, Alt, paste), and
  // blessed never puts stdin in raw mode behind our back (docs/libraries.md §2).
  const screen = blessed.screen({
    input: new PassThrough() as unknown as NodeJS.ReadableStream,
    output: stdout,
    fullUnicode: true,
    smartCSR: true,
    warnings: false,
    title: 'flower-pty',
    terminal: env.TERM || 'xterm-256color',
  } as unknown as Widgets.IScreenOptions);
  // Parts of blessed its typings leave out: leave/enter the alternate screen, a buffered cursor.
  const internals = screen as unknown as ScreenInternals;
  const program = internals.program;

  let documentVisible = true;
  let focus: Focus = 'session';
  let layout: Layout = computeLayout({ cols: screen.width as number, rows: screen.height as number, documentVisible });
  const pane = createSessionPane({
    screen,
    cols: layout.inner.cols,
    rows: layout.inner.rows,
    onReply: (data) => emitInput(data),
    onBell: () => {
      if (!suspended && !restored) stdout.write('\u0007');
    },
    ...(o.screen ? { shared: o.screen, onParsed: () => sessionChanged() } : {}),
  });
  const documentPane = createDocumentPane({ screen, noColor });
  const statusBar = createStatusBar({ screen, noColor });
  const help = createHelpOverlay({ screen, prefix: prefixLabel });
  const router = createKeyRouter(prefix);

  let modes: ModeTracker = createModeTracker();
  let view: StatusView | null = null;
  let childTitle = '';
  let outerTitle = '';
  let message: string | null = null;
  let flash: string | null = null;
  let flashTimer: NodeJS.Timeout | null = null;
  let childRunning = false;
  let childEverEnded = false;
  let suspended = false;
  let restored = false;
  let cursorShown = false;
  const outer = createOuterModes((seq) => stdout.write(seq));
  const wasRaw = stdin.isTTY ? stdin.isRaw : false;
  const decoder = new StringDecoder('utf8');

  const frames = createFrameScheduler(drawFrame);
  // Most frames are claude's output alone (an echo, a spinner): those repaint the session pane's rows
  // the emulator changed and draw just those rows' diff, without blessed re-rendering every element,
  // drawn where the parse ends when nothing else is pending (an echo waits for no turn of the loop).
  // Anything else (status, labels, layout, the document, help) asks for a whole render.
  let wholeFrame = true;
  const redraw = (): void => {
    wholeFrame = true;
    frames.request();
  };
  const sessionChanged = (): void => frames.request(true);

  const emitInput = listeners.input;
  const emitCommand = listeners.command;

  function drawFrame(): void {
    if (restored || suspended) return;
    const whole = wholeFrame || !help.hidden;
    wholeFrame = false;
    const rows = whole ? null : pane.repaintChanged();
    if (!rows) screen.render();
    else if (rows.top <= rows.bottom) {
      const cells = paintRows(screen, rows.top, rows.bottom, rows.left, rows.right);
      if (cells === null) screen.draw(rows.top, rows.bottom);
      else if (cells) program._write(cells);
    }
    const cursor = focus === 'session' && childRunning && help.hidden ? pane.cursor() : null;
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

  function labels(): void {
    setQuietLabel(pane.box, ` ${focus === 'session' ? '▶ ' : ''}claude${childTitle ? ` · ${childTitle.slice(0, 60)}` : ''} `);
    pane.box.style.border = noColor ? {} : { fg: focus === 'session' ? 'cyan' : 'default' };
    documentPane.setFocus(focus === 'document');
  }

  function applyLayout(): void {
    const before = layout.inner;
    layout = computeLayout({ cols: screen.width as number, rows: screen.height as number, documentVisible });
    const place = (box: Widgets.BoxElement, r: { left: number; top: number; width: number; height: number }) => {
      box.left = r.left;
      box.top = r.top;
      box.width = r.width;
      box.height = r.height;
    };
    place(pane.box, layout.session);
    place(statusBar.box, layout.status);
    if (layout.document) {
      place(documentPane.box, layout.document);
      documentPane.box.show();
    } else {
      documentPane.box.hide();
      if (focus === 'document') focus = 'session';
    }
    labels();
    refreshStatus();
    const { cols, rows } = layout.inner;
    if (cols !== before.cols || rows !== before.rows) {
      // Resize both sides: the emulator here, the pty through the supervisor (docs/libraries.md §3).
      pane.resize(cols, rows);
      listeners.resize(cols, rows);
    }
    redraw();
  }

  function refreshStatus(): void {
    if (!view) return;
    const hint = focus === 'document' ? `document: j/k scroll · Tab back · ${prefixLabel} ? keys` : `${prefixLabel} ? for keys`;
    if (statusBar.update(view, { hint, message: flash ?? message })) redraw();
  }

  // The outer terminal's title carries the state too, as in --plain (a tab shows it when hidden).
  function writeTitle(): void {
    const next = composeTitle(childTitle, view ? statusLine(view) : '');
    if (next !== outerTitle) screen.title = outerTitle = next;
  }

  function showFlash(text: string): void {
    flash = text;
    if (flashTimer) clearTimeout(flashTimer);
    flashTimer = setTimeout(() => {
      flash = null;
      flashTimer = null;
      refreshStatus();
    }, FLASH_MS);
    flashTimer.unref();
    refreshStatus();
  }

  function showDocument(path: string, text: string | null): void {
    documentPane.showDocument(path, text);
    redraw();
  }

  function readDocument(path: string): string | null {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  }

  async function editDocument(): Promise<void> {
    const path = documentPane.path || view?.documentPath || o.documentPath;
    if (!path) {
      showFlash('no document file: this run has no workbench');
      return;
    }
    emitCommand('edit-document');
    const result = await handOverTerminal({
      stdin,
      leave() {
        suspended = true;
        frames.suspend(true);
        stdout.write(outer.off());
        internals.leave();
      },
      ours: () => !restored,
      enter() {
        internals.enter();
        suspended = false;
        frames.suspend(false);
      },
    }, () => (o.edit ? o.edit(path) : runEditor(path, env)));
    if (restored) return;
    showDocument(path, readDocument(path));
    if (!result.ok && result.problem) showFlash(result.problem);
    redraw();
  }

  function command(c: PaneCommand): void {
    switch (c) {
      case 'focus':
        if (focus === 'session' && !documentVisible) {
          documentVisible = true;
          applyLayout();
        }
        focus = focus === 'session' && layout.document ? 'document' : 'session';
        labels();
        refreshStatus();
        break;
      case 'edit':
        void editDocument();
        break;
      case 'force-handoff':
        emitCommand('force-handoff');
        showFlash('asked for a handoff now');
        break;
      case 'hold-toggle': {
        // Decide before emitting: the supervisor reports the new state back synchronously.
        const release = Boolean(view?.held);
        emitCommand(release ? 'release' : 'hold');
        showFlash(release ? 'released: the next session may start' : 'held: the next session waits for release');
        break;
      }
      case 'toggle-document':
        documentVisible = !documentVisible;
        applyLayout();
        break;
      case 'detach':
        if (o.onDetach) o.onDetach();
        else showFlash('this run lives in this terminal: nothing to detach from');
        break;
      case 'quit':
        emitCommand('quit');
        showFlash('quitting: ending claude');
        break;
      case 'help':
        help.show();
        help.setFront();
        break;
      default:
        documentPane.scroll(c);
    }
    redraw();
  }

  function act(action: KeyAction): void {
    if (action.type === 'send') pane.input(action.data);
    else if (action.type === 'command') command(action.command);
    else if (action.where === 'prefix') showFlash(`${prefixLabel} ${printable(action.key)} does nothing: ${prefixLabel} ? lists the keys`);
    else showFlash(`the document pane has the keys: Tab or Esc gives them back to claude`);
  }

  function onStdin(chunk: Buffer): void {
    if (suspended || restored) return;
    const text = decoder.write(chunk);
    if (!text) return;
    if (!help.hidden) {
      help.hide(); // any key closes the help, and is used up doing so
      redraw();
      return;
    }
    const { events, rest } = extractMouse(text);
    for (const event of events) onMouse(event);
    if (rest) for (const action of router.push(rest, { focus, applicationCursor: pane.applicationCursor })) act(action);
  }

  function onMouse(event: MouseEvent): void {
    const route = routeMouse(event, layout, { tracking: pane.mouseTracking, sgr: modes.isOn(1006) });
    if (route?.to === 'child') pane.input(route.data);
    else if (route?.to === 'document') {
      documentPane.scroll(route.scroll === 'up' ? 'scroll-up' : 'scroll-down');
      redraw();
    }
  }

  screen.on('resize', applyLayout);
  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.on('data', onStdin);
  stdin.resume();

  applyLayout();
  const initial = o.documentPath ? readDocument(o.documentPath) : null;
  if (o.documentPath && initial !== null) showDocument(o.documentPath, initial);
  else documentPane.showNote('starting…');
  redraw();

  return {
    size() {
      return { ...layout.inner };
    },
    ...listeners.ports,
    childOutput(data) {
      modes.push(data);
      pane.write(data, sessionChanged);
    },
    childTitle(title) {
      childTitle = title;
      labels();
      writeTitle();
      redraw();
    },
    status(next) {
      if (view && next.note !== view.note) message = null;
      view = next;
      refreshStatus();
      if (documentPane.showPlan({ ...next, documentPath: next.documentPath ?? o.documentPath })) redraw();
      writeTitle();
    },
    message(text) {
      message = text;
      // Between generations the session pane is free: say it there too, as the plain face does.
      if (!childRunning && !o.screen) pane.write(`\r\n\u001b[1mflower-pty:\u001b[0m ${text}\r\n`, () => redraw());
      refreshStatus();
    },
    documentChanged(path, text) {
      showDocument(path, text);
    },
    childStarted() {
      if (childEverEnded) pane.reset();
      childRunning = true;
      redraw();
    },
    childEnded() {
      childRunning = false;
      childEverEnded = true;
      // A crashed child leaves its modes on (app cursor, paste...): turn them off in the emulator.
      const reset = modes.resetSequence();
      modes = createModeTracker();
      // A shared screen is the server's: each face drawn from it says the same, which changes nothing twice.
      if (reset) (o.screen ? o.screen.term : pane).write(reset, () => redraw());
      redraw();
    },
    restore() {
      if (restored) return;
      restored = true;
      frames.dispose();
      if (flashTimer) clearTimeout(flashTimer);
      stdin.off('data', onStdin);
      try {
        screen.destroy();
      } catch {
        // a half-torn-down screen must not stop the terminal from being given back
      }
      stdout.write(`${outer.off()}\u001b[?25h`);
      if (stdin.isTTY) stdin.setRawMode(wasRaw);
      stdin.pause();
      pane.dispose();
    },
  };
}
