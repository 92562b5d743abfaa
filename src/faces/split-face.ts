// The default face: claude's screen in one pane, the handoff document in another, a status bar
// below, and a tmux-style prefix key for flower's own commands. blessed draws; stdin is read raw here.
// This file wires the parts, each owning its state: the frames (tui/split-frames.ts), where the panes
// sit and which has the keys (split/pane-layout.ts), the status bar and title (split/status-line.ts),
// the document and its editor (split/document-editing.ts), the keys and mouse (split/key-routing.ts)
// and the child's life (split/child-life.ts).

import type { Face } from '../runtime/face.js';
import type { Emulator } from '../adapters/emulator.js';
import { createFaceListeners, type FaceListeners } from './face-listeners.js';
import { computeLayout } from '../core/screen/layout.js';
import { createSessionPane, type SessionPane } from '../tui/session-pane.js';
import { createDocumentPane } from '../tui/document-pane.js';
import { createStatusBar } from '../tui/status-bar.js';
import { createHelpOverlay } from '../tui/help-overlay.js';
import { createOuterModes } from '../tui/outer-modes.js';
import { openOuterScreen, type OuterScreen } from '../tui/outer-screen.js';
import { createSplitFrames, type SplitFrames } from '../tui/split-frames.js';
import { paintBeside } from '../tui/row-painter.js';
import { prefixKey } from './split/prefix-key.js';
import { createChildLife, type ChildLife } from './split/child-life.js';
import { createSplitStatus, type SplitStatus } from './split/status-line.js';
import { createPaneLayout, type PaneLayout } from './split/pane-layout.js';
import { createDocumentEditing, type DocumentEditing } from './split/document-editing.js';
import { createKeyRouting, type KeyRouting } from './split/key-routing.js';
import {
  ANSWER_HOLD_MS,
  ANSWERS_DUE_MS,
  answersDone,
  CAPS_QUERY,
  capsFromAnswer,
  capsFromFacts,
  takeCapsAnswers,
  throughTmux,
  type TerminalCaps,
} from '../core/screen/terminal-caps.js';
import { terminalText } from '../core/terminal-text.js';
import { echoArm, echoCells, type EchoArm } from '../core/screen/echo-path.js';

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
  /** "prefix s": leave this run for the chooser of every run (absent: this terminal cannot show one) */
  onChoose?: () => void;
  /** the words that run flower-pty where the person is (`flower-pty`, `npx flower-pty`, `node /path/bin/
   * flower-pty.js`: adapters/own-command-here.ts), worked out once by the caller: the commands the help and
   * the flashes print for the person to type work as printed */
  ownCommand: string;
  /** runs the person's editor on the document while the terminal is handed over (default: here, on stdin/stdout;
   * a run server drawing a client's terminal asks the client, which owns the terminal's job control) */
  edit?: (path: string) => Promise<{ ok: boolean; problem?: string }>;
  /** the run server's one screen of claude (a face it draws): painted from, never parsed here; claude's
   * output and the server's messages between generations are already in it */
  screen?: Emulator;
  /** after each frame: where the relay may draw claude's next plain echo itself, or null (it may not);
   * a run server drawing this face through the native relay (core/screen/echo-path.ts) */
  echo?: (arm: EchoArm | null) => void;
}

/** the split view as the run server draws it with a native relay reading its keys */
export interface SplitFace extends Face {
  /** keys of core/screen/keymap.ts passThroughTable() would go to claude unrouted now (split/key-routing.ts) */
  passing(): boolean;
  /** such keys went to claude without this face (the relay sent them): their echo is drawn as an echo */
  typedElsewhere(): void;
  /** a read of this face's terminal that the relay (which reads the terminal while joined) handed up: routed
   * as a read of its own stdin would be */
  keysRead(bytes: Buffer): void;
  /** the relay drew this much of claude's output as an echo where the last arm said (SplitFaceOptions.echo) */
  echoed(length: number): void;
  /** how many other runs wait for the person: the status bar says so */
  othersWaiting(count: number): void;
}

/** what the run shows beside claude's output: its title, its status, a message, the document, the child's life */
function showBeside(s: Split, show: Parameters<Face['show']>[0]): void {
  const { status, pane, child, frames } = s;
  const shared = s.o.screen;
  switch (show.t) {
    case 'title':
      status.childTitleChanged(show.title);
      s.layout.labels();
      status.writeTitle();
      frames.redraw();
      return;
    case 'status':
      status.status(show.view);
      if (s.documentPane.showPlan({ ...show.view, documentPath: show.view.documentPath ?? s.o.documentPath }))
        frames.redraw();
      status.writeTitle();
      return;
    case 'message':
      // Between generations the session pane is free: say it there too, as the plain face does.
      if (!child.running && !shared)
        pane.write(`\r\n\u001b[1mflower-pty:\u001b[0m ${terminalText(show.text)}\r\n`, () => frames.redraw());
      status.message(show.text);
      return;
    case 'document':
      s.documents.show(show.path, show.text);
      return;
    case 'child': {
      if (show.state === 'started') {
        if (child.started()) pane.reset();
        frames.redraw();
        return;
      }
      // A crashed child leaves its modes on (app cursor, paste...): turn them off in the emulator.
      const reset = child.ended();
      // A shared screen is the server's: each face drawn from it says the same, which changes nothing twice.
      if (reset) (shared ? shared.term : pane).write(reset, () => frames.redraw());
      frames.redraw();
      return;
    }
  }
}

// The terminal's answers to CAPS_QUERY come back among the person's keys (however late: over a slow
// link too): taken out before routing. No key sends either form. An answer a read cut in two (a slow
// link, a relay's frame) is held whole until its rest comes, so no piece of it reaches claude as keys;
// a start that is also a key (Esc) is held only while the answers are due, and briefly.
function takeAnswers(
  asked: boolean,
  keys: (chunk: Buffer) => void,
  answered: (answers: string) => void,
): { read(chunk: Buffer): void; dispose(): void } {
  let expecting = asked;
  const due = expecting ? setTimeout(() => (expecting = false), ANSWERS_DUE_MS).unref() : null;
  let held = '';
  let holding: NodeJS.Timeout | null = null;
  const read = (chunk: Buffer): void => {
    if (holding) clearTimeout(holding);
    holding = null;
    const input = held + chunk.toString('latin1');
    const taken = takeCapsAnswers(input, expecting);
    held = taken.held;
    if (taken.answers) {
      if (answersDone(taken.answers)) expecting = false;
      answered(taken.answers);
    }
    if (taken.rest === input) keys(chunk);
    else if (taken.rest) keys(Buffer.from(taken.rest, 'latin1'));
    if (held) {
      holding = setTimeout(() => {
        const pending = held;
        held = '';
        holding = null;
        keys(Buffer.from(pending, 'latin1'));
      }, ANSWER_HOLD_MS);
    }
  };
  return {
    read,
    dispose() {
      if (holding) clearTimeout(holding);
      if (due) clearTimeout(due);
    },
  };
}

/** what the split view holds while it is drawn: one record, built once, so its parts below are plain functions */
interface Split {
  o: SplitFaceOptions;
  /** what the person's terminal shows: from its environment, then from what it answers itself */
  caps: TerminalCaps;
  prefix: ReturnType<typeof prefixKey>;
  noColor: boolean;
  listeners: FaceListeners;
  outerScreen: OuterScreen;
  screen: OuterScreen['screen'];
  outer: ReturnType<typeof createOuterModes>;
  child: ChildLife;
  pane: SessionPane;
  documentPane: ReturnType<typeof createDocumentPane>;
  statusBar: ReturnType<typeof createStatusBar>;
  help: ReturnType<typeof createHelpOverlay>;
  frames: SplitFrames;
  status: SplitStatus;
  layout: PaneLayout;
  documents: DocumentEditing;
  onStdin: KeyRouting;
  answers: ReturnType<typeof takeAnswers>;
  wasRaw: boolean;
  /** the last place the relay was told it may draw an echo, moved on by each echo it drew */
  echoAt: EchoArm | null;
  /** what is beside the pane on its rows, for the relay to put back when it scrolls the pane: made again
   * after a frame that drew more than the pane (most frames are an echo, which changes nothing there) */
  beside: { at: string; bytes: string | null } | null;
}

export function createSplitFace(o: SplitFaceOptions): SplitFace {
  const { env } = o;
  // A prefix that is not a key is said before the terminal is taken.
  const prefix = prefixKey(o.prefix, env);
  const listeners = createFaceListeners();
  const outerScreen = openOuterScreen(o.stdout, env.TERM);
  // The parts made below call each other back through this record (each reads the others only later).
  const s = {
    o,
    // What the person's terminal shows, from what its environment says (TERM, COLORTERM, TERM_PROGRAM, TMUX),
    // then from what it answers itself (asked once below: synchronized output, the kitty keyboard protocol).
    caps: capsFromFacts({
      term: env.TERM,
      colorterm: env.COLORTERM,
      termProgram: env.TERM_PROGRAM,
      tmux: Boolean(env.TMUX),
    }),
    prefix,
    noColor: env.NO_COLOR !== undefined && env.NO_COLOR !== '',
    listeners,
    outerScreen,
    screen: outerScreen.screen,
    outer: createOuterModes((seq) => o.stdout.write(seq)),
    child: createChildLife(),
    echoAt: null,
    beside: null,
  } as Split;
  openPanes(s);
  wireParts(s);
  startReading(s);
  return splitFaceOf(s);
}

// The boxes are made where the first layout puts them: moved there after, blessed would clear their
// areas of a screen that has drawn nothing yet (twelve clears of most of the screen, on every attach).
function openPanes(s: Split): void {
  const { o, screen } = s;
  const { stdout } = o;
  const first = computeLayout({ cols: screen.width as number, rows: screen.height as number, documentVisible: true });
  s.pane = createSessionPane({
    screen,
    at: first.session,
    cols: first.inner.cols,
    rows: first.inner.rows,
    caps: () => s.caps,
    onReply: (data) => {
      s.listeners.input(data);
      s.frames.typed(); // after the key is on its way: its echo cannot come back before this returns
    },
    onBell: () => {
      if (s.frames.live) stdout.write('\u0007');
    },
    // a clipboard write or a notification from claude: to the person's terminal, through tmux when it is one
    onSideChannel: (sequence) => {
      if (s.frames.live) stdout.write(throughTmux(sequence, s.caps));
    },
    ...(o.screen ? { shared: o.screen, onParsed: () => s.frames.sessionChanged() } : {}),
  });
  s.documentPane = createDocumentPane({
    screen,
    noColor: s.noColor,
    ...(first.document ? { at: first.document } : {}),
  });
  s.statusBar = createStatusBar({ screen, noColor: s.noColor, at: first.status });
  s.help = createHelpOverlay({ screen, prefix: s.prefix.label, own: o.ownCommand });
}

// The frames, the status line, the layout, the document's editing and the keys' routing, each told how to
// reach the others.
function wireParts(s: Split): void {
  const { o, screen, pane, help, child, listeners } = s;
  const { stdin, stdout, env } = o;
  s.frames = createSplitFrames({
    screen,
    program: s.outerScreen.program,
    pane,
    help,
    outer: s.outer,
    cursor: () => (s.layout.focus === 'session' && child.running && help.hidden ? pane.cursor() : null),
    held: () => stdout.writableLength > 0,
    claudeHasKeys: () => s.layout.focus === 'session' && child.running && help.hidden,
    caps: () => s.caps,
    ...(o.echo
      ? { afterFrame: (cursorShown: boolean, beyondPane: boolean) => armEcho(s, cursorShown, beyondPane) }
      : {}),
  });
  const redraw = s.frames.redraw;
  s.status = createSplitStatus({
    screen,
    bar: s.statusBar,
    prefixLabel: s.prefix.label,
    focus: () => s.layout.focus,
    redraw,
  });
  s.layout = createPaneLayout({
    screen,
    pane,
    documentPane: s.documentPane,
    statusBox: s.statusBar.box,
    noColor: s.noColor,
    childTitle: () => s.status.childTitle,
    refreshStatus: s.status.refresh,
    resized: listeners.resize,
    redraw,
  });
  s.documents = createDocumentEditing({
    stdin,
    stdout,
    env,
    documentPane: s.documentPane,
    outerScreen: s.outerScreen,
    outer: s.outer,
    frames: s.frames,
    documentPath: () => s.status.view?.documentPath || o.documentPath,
    ...(o.edit ? { edit: o.edit } : {}),
    command: listeners.command,
    flash: s.status.flash,
  });
  s.onStdin = createKeyRouting({
    prefix: s.prefix,
    pane,
    documentPane: s.documentPane,
    help,
    layout: s.layout,
    status: s.status,
    frames: s.frames,
    sgrMouse: () => child.sgrMouse,
    editDocument: s.documents.edit,
    command: listeners.command,
    ...(o.onDetach ? { onDetach: o.onDetach } : {}),
    ...(o.onChoose ? { onChoose: o.onChoose } : {}),
    ownCommand: o.ownCommand,
  });
}

// The terminal goes raw and is read (its answers to CAPS_QUERY taken out first: takeAnswers), is asked
// what it shows, and the first screen is drawn.
function startReading(s: Split): void {
  const { o, frames, layout, documents } = s;
  const { stdin, stdout } = o;
  s.wasRaw = stdin.isTTY ? stdin.isRaw : false;
  s.answers = takeAnswers(Boolean(stdout.isTTY), s.onStdin, (taken) => {
    s.caps = capsFromAnswer(s.caps, taken);
    frames.redraw();
  });
  s.screen.on('resize', layout.apply);
  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.on('data', s.answers.read);
  if (stdout.isTTY) stdout.write(CAPS_QUERY);
  stdin.resume();

  layout.apply();
  if (!(o.documentPath && documents.showFile(o.documentPath))) s.documentPane.showNote('starting…');
  frames.redraw();
}

// After each frame: where the relay may draw claude's next plain echo itself (or null), and what is beside it.
function armEcho(s: Split, cursorShown: boolean, beyondPane: boolean): void {
  if (beyondPane) s.beside = null;
  const arm = cursorShown ? echoArm(s.pane.echoFacts(true)) : null;
  if (arm) {
    const at = `${arm.left},${arm.top},${arm.cols},${arm.rows}`;
    if (s.beside?.at !== at)
      s.beside = { at, bytes: paintBeside(s.screen, arm.top, arm.top + arm.rows - 1, arm.left, arm.left + arm.cols) };
  }
  s.echoAt = arm && { ...arm, sync: s.caps.sync, beside: s.beside?.bytes ?? null };
  s.o.echo?.(s.echoAt);
}

/** the face the run drives, over the parts of one split view */
function splitFaceOf(s: Split): SplitFace {
  const { o, frames, pane, status, child, layout } = s;
  const { stdin, stdout } = o;
  const onTerminal = s.answers.read;
  return {
    passing: s.onStdin.passing,
    othersWaiting: status.othersWaiting,
    typedElsewhere() {
      frames.typed();
      o.screen?.typed();
    },
    keysRead(bytes) {
      if (!frames.disposed) onTerminal(bytes);
    },
    echoed(length) {
      if (!s.echoAt) return;
      const { rows, scrolled, next } = echoCells(s.echoAt, length);
      pane.forgetCells(rows, scrolled);
      s.echoAt = next;
    },
    size() {
      return { ...layout.layout.inner };
    },
    ...s.listeners.ports,
    childOutput(data) {
      child.output(data);
      pane.write(data, frames.sessionChanged);
    },
    show: (show) => showBeside(s, show),
    restore() {
      if (frames.disposed) return;
      frames.dispose();
      status.dispose();
      stdin.off('data', onTerminal);
      s.answers.dispose();
      try {
        s.screen.destroy();
      } catch {
        // a half-torn-down screen must not stop the terminal from being given back
      }
      stdout.write(`${s.outer.off()}\u001b[?25h`);
      if (stdin.isTTY) stdin.setRawMode(s.wasRaw);
      stdin.pause();
      pane.dispose();
    },
  };
}
