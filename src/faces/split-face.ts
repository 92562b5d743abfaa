// The default face: claude's screen in one pane, the handoff document in another, a status bar
// below, and a tmux-style prefix key for flower's own commands. blessed draws; stdin is read raw here.
// This file wires the parts, each owning its state: the frames (tui/split-frames.ts), where the panes
// sit and which has the keys (split/pane-layout.ts), the status bar and title (split/status-line.ts),
// the document and its editor (split/document-editing.ts), the keys and mouse (split/key-routing.ts)
// and the child's life (split/child-life.ts).

import type { Face } from '../runtime/face.js';
import type { Emulator } from '../adapters/emulator.js';
import { createFaceListeners } from './face-listeners.js';
import { computeLayout } from '../core/screen/layout.js';
import { createSessionPane } from '../tui/session-pane.js';
import { createDocumentPane } from '../tui/document-pane.js';
import { createStatusBar } from '../tui/status-bar.js';
import { createHelpOverlay } from '../tui/help-overlay.js';
import { createOuterModes } from '../tui/outer-modes.js';
import { openOuterScreen } from '../tui/outer-screen.js';
import { createSplitFrames } from '../tui/split-frames.js';
import { paintBeside } from '../tui/row-painter.js';
import { prefixKey } from './split/prefix-key.js';
import { createChildLife } from './split/child-life.js';
import { createSplitStatus } from './split/status-line.js';
import { createPaneLayout } from './split/pane-layout.js';
import { createDocumentEditing } from './split/document-editing.js';
import { createKeyRouting } from './split/key-routing.js';
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
function showBeside(
  parts: {
    status: ReturnType<typeof createSplitStatus>;
    layout: ReturnType<typeof createPaneLayout>;
    documentPane: ReturnType<typeof createDocumentPane>;
    pane: ReturnType<typeof createSessionPane>;
    child: ReturnType<typeof createChildLife>;
    documents: ReturnType<typeof createDocumentEditing>;
    redraw: () => void;
    documentPath: string | null;
    shared: Emulator | undefined;
  },
  show: Parameters<Face['show']>[0],
): void {
  switch (show.t) {
    case 'title':
      parts.status.childTitleChanged(show.title);
      parts.layout.labels();
      parts.status.writeTitle();
      parts.redraw();
      return;
    case 'status':
      parts.status.status(show.view);
      if (parts.documentPane.showPlan({ ...show.view, documentPath: show.view.documentPath ?? parts.documentPath }))
        parts.redraw();
      parts.status.writeTitle();
      return;
    case 'message':
      // Between generations the session pane is free: say it there too, as the plain face does.
      if (!parts.child.running && !parts.shared)
        parts.pane.write(`\r\n\u001b[1mflower-pty:\u001b[0m ${terminalText(show.text)}\r\n`, () => parts.redraw());
      parts.status.message(show.text);
      return;
    case 'document':
      parts.documents.show(show.path, show.text);
      return;
    case 'child': {
      if (show.state === 'started') {
        if (parts.child.started()) parts.pane.reset();
        parts.redraw();
        return;
      }
      // A crashed child leaves its modes on (app cursor, paste...): turn them off in the emulator.
      const reset = parts.child.ended();
      // A shared screen is the server's: each face drawn from it says the same, which changes nothing twice.
      if (reset) (parts.shared ? parts.shared.term : parts.pane).write(reset, () => parts.redraw());
      parts.redraw();
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

export function createSplitFace(o: SplitFaceOptions): SplitFace {
  const { stdin, stdout, env } = o;
  const prefix = prefixKey(o.prefix, env);
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  // What the person's terminal shows, from what its environment says (TERM, COLORTERM, TERM_PROGRAM, TMUX),
  // then from what it answers itself (asked once below: synchronized output, the kitty keyboard protocol).
  let caps: TerminalCaps = capsFromFacts({
    term: env.TERM,
    colorterm: env.COLORTERM,
    termProgram: env.TERM_PROGRAM,
    tmux: Boolean(env.TMUX),
  });
  const listeners = createFaceListeners();
  const outerScreen = openOuterScreen(stdout, env.TERM);
  const { screen } = outerScreen;
  const outer = createOuterModes((seq) => stdout.write(seq));
  const child = createChildLife();

  // The boxes are made where the first layout puts them: moved there after, blessed would clear their
  // areas of a screen that has drawn nothing yet (twelve clears of most of the screen, on every attach).
  const first = computeLayout({ cols: screen.width as number, rows: screen.height as number, documentVisible: true });
  const pane = createSessionPane({
    screen,
    at: first.session,
    cols: first.inner.cols,
    rows: first.inner.rows,
    caps: () => caps,
    onReply: (data) => {
      listeners.input(data);
      frames.typed(); // after the key is on its way: its echo cannot come back before this returns
    },
    onBell: () => {
      if (frames.live) stdout.write('\u0007');
    },
    // a clipboard write or a notification from claude: to the person's terminal, through tmux when it is one
    onSideChannel: (sequence) => {
      if (frames.live) stdout.write(throughTmux(sequence, caps));
    },
    ...(o.screen ? { shared: o.screen, onParsed: () => frames.sessionChanged() } : {}),
  });
  const documentPane = createDocumentPane({ screen, noColor, ...(first.document ? { at: first.document } : {}) });
  const statusBar = createStatusBar({ screen, noColor, at: first.status });
  const help = createHelpOverlay({ screen, prefix: prefix.label });
  const frames = createSplitFrames({
    screen,
    program: outerScreen.program,
    pane,
    help,
    outer,
    cursor: () => (layout.focus === 'session' && child.running && help.hidden ? pane.cursor() : null),
    held: () => stdout.writableLength > 0,
    claudeHasKeys: () => layout.focus === 'session' && child.running && help.hidden,
    caps: () => caps,
    ...(o.echo ? { afterFrame: (cursorShown: boolean, beyondPane: boolean) => armEcho(cursorShown, beyondPane) } : {}),
  });
  // The last place the relay was told it may draw an echo, moved on by each echo it drew.
  let echoAt: EchoArm | null = null;
  // What is beside the pane on its rows, for the relay to put back when it scrolls the pane: made again
  // after a frame that drew more than the pane (most frames are an echo, which changes nothing there).
  let beside: { at: string; bytes: string | null } | null = null;
  function armEcho(cursorShown: boolean, beyondPane: boolean): void {
    if (beyondPane) beside = null;
    const arm = cursorShown ? echoArm(pane.echoFacts(true)) : null;
    if (arm) {
      const at = `${arm.left},${arm.top},${arm.cols},${arm.rows}`;
      if (beside?.at !== at)
        beside = { at, bytes: paintBeside(screen, arm.top, arm.top + arm.rows - 1, arm.left, arm.left + arm.cols) };
    }
    echoAt = arm && { ...arm, sync: caps.sync, beside: beside?.bytes ?? null };
    o.echo?.(echoAt);
  }
  const redraw = frames.redraw;
  const status = createSplitStatus({
    screen,
    bar: statusBar,
    prefixLabel: prefix.label,
    focus: () => layout.focus,
    redraw,
  });
  const layout = createPaneLayout({
    screen,
    pane,
    documentPane,
    statusBox: statusBar.box,
    noColor,
    childTitle: () => status.childTitle,
    refreshStatus: status.refresh,
    resized: listeners.resize,
    redraw,
  });
  const documents = createDocumentEditing({
    stdin,
    stdout,
    env,
    documentPane,
    outerScreen,
    outer,
    frames,
    documentPath: () => status.view?.documentPath || o.documentPath,
    ...(o.edit ? { edit: o.edit } : {}),
    command: listeners.command,
    flash: status.flash,
  });
  const onStdin = createKeyRouting({
    prefix,
    pane,
    documentPane,
    help,
    layout,
    status,
    frames,
    sgrMouse: () => child.sgrMouse,
    editDocument: documents.edit,
    command: listeners.command,
    ...(o.onDetach ? { onDetach: o.onDetach } : {}),
    ...(o.onChoose ? { onChoose: o.onChoose } : {}),
  });
  const wasRaw = stdin.isTTY ? stdin.isRaw : false;
  // The terminal's answers to CAPS_QUERY come back among the person's keys (however late: over a slow
  // link too): taken out before routing. No key sends either form. An answer a read cut in two (a slow
  // link, a relay's frame) is held whole until its rest comes, so no piece of it reaches claude as keys;
  // a start that is also a key (Esc) is held only while the answers are due, and briefly.
  const answers = takeAnswers(Boolean(stdout.isTTY), onStdin, (taken) => {
    caps = capsFromAnswer(caps, taken);
    frames.redraw();
  });
  const onTerminal = answers.read;

  screen.on('resize', layout.apply);
  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.on('data', onTerminal);
  if (stdout.isTTY) stdout.write(CAPS_QUERY);
  stdin.resume();

  layout.apply();
  if (!(o.documentPath && documents.showFile(o.documentPath))) documentPane.showNote('starting…');
  redraw();

  // what showBeside draws on, gathered once
  const shownOn = {
    status,
    layout,
    documentPane,
    pane,
    child,
    documents,
    redraw,
    documentPath: o.documentPath,
    shared: o.screen,
  };
  return {
    passing: onStdin.passing,
    othersWaiting: status.othersWaiting,
    typedElsewhere() {
      frames.typed();
      o.screen?.typed();
    },
    keysRead(bytes) {
      if (!frames.disposed) onTerminal(bytes);
    },
    echoed(length) {
      if (!echoAt) return;
      const { rows, scrolled, next } = echoCells(echoAt, length);
      pane.forgetCells(rows, scrolled);
      echoAt = next;
    },
    size() {
      return { ...layout.layout.inner };
    },
    ...listeners.ports,
    childOutput(data) {
      child.output(data);
      pane.write(data, frames.sessionChanged);
    },
    show: (show) => showBeside(shownOn, show),
    restore() {
      if (frames.disposed) return;
      frames.dispose();
      status.dispose();
      stdin.off('data', onTerminal);
      answers.dispose();
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
