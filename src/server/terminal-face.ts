// A face drawn by the run server on a client's own terminal (direct mode): the plain or split face
// runs here, on the terminal the server opened, so a key and its echo cross no client process (the
// client waits, as a tmux client does). What only the client's side can do, it is asked for: run
// the person's editor (the terminal's job control is the client's), report a new terminal size.
// Every key for claude goes to the run's one sink (runtime/claude-keys.ts). A plain face joins the native
// relay once its first paint is out: from then on a key and its echo cross no event loop at all, and the
// sink is only told of what the relay wrote (its fast path). A split view drawn from the server's one
// screen joins it for its keys alone: typed text the face would send as it is goes to claude from the
// relay's thread (core/screen/keymap.ts passThroughTable(), while the face says it passes); any other read
// comes here, in order, and the face routes it as before.

import type { Face, FaceCommand } from '../runtime/face.js';
import type { ClientTerminal } from '../adapters/client-terminal.js';
import type { FastRelay } from '../adapters/fast-relay.js';
import type { EchoArm } from '../core/screen/echo-path.js';
import type { Emulator } from '../adapters/emulator.js';
import type { Hello, ServerMessage } from './wire.js';
import type { SplitFace } from '../faces/split-face.js';
import { feedFace, paintPrefix } from './face-feed.js';
import { passThroughTable } from '../core/screen/keymap.js';
import type { ClaudeKeys, KeySender } from '../runtime/claude-keys.js';

// A terminal that does not take its last bytes (a frozen ssh) is closed anyway after this.
const RESTORE_WAIT_MS = 2_000;

export interface TerminalFace {
  /** the size claude's pty should have for this client */
  size(): { cols: number; rows: number };
  show(message: ServerMessage): void;
  /** the client's terminal is now this size */
  terminalResized(cols: number, rows: number): void;
  /** bytes its terminal has not taken yet */
  backlog(): number;
  /** it draws claude from the server's one screen (a split view): its terminal answers none of claude's queries */
  readonly sharesScreen: boolean;
  /** the client's answer to an `edit` */
  edited(result: { ok: boolean; problem?: string }): void;
  /** gives the terminal back as it was, then calls `then` once the bytes are out; safe to call twice */
  restore(then?: () => void): void;
  /** the client counted this many other runs waiting for the person (a split view says so) */
  othersWaiting(count: number): void;
  /** rings this terminal for another run (a bell and notification's escapes), after what is on its way */
  alert(sequence: string): void;
}

export interface TerminalFaceEvents {
  /** claude's size for this client changed (the split view's pane follows the terminal) */
  resized(cols: number, rows: number): void;
  command(command: FaceCommand): void;
  detach(): void;
  /** leave for the chooser: a detach the client then shows the chooser after */
  choose?: () => void;
  /** ask the client to edit `path`; its answer comes back through edited() */
  edit(path: string): void;
}

export interface TerminalFaceOptions {
  terminal: ClientTerminal;
  hello: Hello;
  documentPath: string | null;
  /** the words that run flower-pty from the run's folder (a split view's help and flashes name them) */
  ownCommand: () => string;
  /** the run's one sink for keys into claude, and this client's books on its keys */
  keys: { sink: ClaudeKeys; from: KeySender };
  on: TerminalFaceEvents;
  /** the native relay, when the server has one */
  relay?: FastRelay | null;
  /** the server's one screen of claude, which a split view is drawn from */
  screen?: Emulator | null;
}

/** the environment the split view reads the client's terminal from (its kind, colours, tmux, prefix) */
function splitEnv(hello: Hello): Record<string, string | undefined> {
  return {
    TERM: hello.term,
    ...(hello.colorterm ? { COLORTERM: hello.colorterm } : {}),
    ...(hello.termProgram ? { TERM_PROGRAM: hello.termProgram } : {}),
    ...(hello.tmux ? { TMUX: '1' } : {}),
    ...(hello.noColor ? { NO_COLOR: '1' } : {}),
    ...(hello.prefix ? { FLOWER_PTY_PREFIX: hello.prefix } : {}),
  };
}

/** the client's terminal given back (or, past a wait, let go), then closed; `then` once either way */
function giveBack(terminal: ClientTerminal, then: (() => void) | undefined): void {
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    terminal.close();
    then?.();
  };
  terminal.giveBack(finish);
  setTimeout(finish, RESTORE_WAIT_MS).unref();
}

export async function openTerminalFace(o: TerminalFaceOptions): Promise<TerminalFace> {
  const { terminal, hello, documentPath, on, relay = null, screen = null } = o;
  const { sink, from } = o.keys;
  const send = (data: string): void => sink.send(data, from);
  // keys the relay's thread wrote to claude: the sink tells the run of them in the check phase, after the
  // echo that follows them in the same turn
  const relayed = (data: string): void => sink.relayed(data, { from, soon: true });
  const kind = hello.face ?? 'split';
  const io = { stdin: terminal.input, stdout: terminal.output, stderr: terminal.output };
  let editing: ((result: { ok: boolean; problem?: string }) => void) | null = null;
  let face: Face;
  let joinRelay: (() => void) | null = null;
  if (kind === 'plain') {
    const { createPlainFace } = await import('../faces/plain-face.js');
    face = createPlainFace({
      ...io,
      write: terminal.write,
      echoed: () => terminal.joined && relay?.handingOut === true,
    });
    const key = hello.detachKey ?? null;
    const keys = (data: string) => (key !== null && data === key ? on.detach() : send(data));
    face.onInput(keys);
    // The relay holds back the detach key alone, as `keys` reads it; every other key it has sent.
    if (relay)
      joinRelay = () =>
        void terminal.join(relay, { key, relayed: ({ data }) => relayed(data), input: ({ data }) => keys(data) });
  } else {
    const { createSplitFace } = await import('../faces/split-face.js');
    const split = createSplitFace({
      ...io,
      env: splitEnv(hello),
      documentPath,
      ownCommand: o.ownCommand(),
      onDetach: on.detach,
      ...(hello.chooser && on.choose ? { onChoose: on.choose } : {}),
      ...(screen ? { screen } : {}),
      // claude's plain echo drawn by the relay's thread, where the last frame left the pane (native/echo-path.h)
      ...(relay && screen ? { echo: (arm: EchoArm | null) => terminal.armEcho(arm) } : {}),
      edit: (path) =>
        new Promise((resolve) => {
          editing = resolve;
          on.edit(path);
        }),
    });
    face = split;
    // its keys for claude go to claude's pty at once; the run hears of them after the echo
    split.onInput(send);
    if (relay && screen) {
      // A key the relay wrote: the face is told at once (split.typedElsewhere, before the echo, which the
      // relay hands over right after it), the run after the echo is drawn (the relay tells `relayed` then).
      // A read the relay hands up is the face's to route, as a read of its own terminal.
      joinRelay = () =>
        void terminal
          .join(relay, {
            key: null,
            relayed: ({ bytes }) => relayed(bytes.toString('latin1')),
            input: ({ bytes, held }) => {
              split.keysRead(bytes);
              terminal.passKeys(held, split.passing());
            },
            pass: passThroughTable(),
            typed: () => split.typedElsewhere(),
            echoed: (bytes) => split.echoed(bytes.length),
          })
          .then((joined) => {
            if (joined) terminal.passKeys(0, split.passing());
          });
    }
  }
  face.onResize(on.resized);
  face.onCommand(on.command);
  const prefix = paintPrefix(kind, hello.starter ?? false);
  let restored = false;
  const edited = (result: { ok: boolean; problem?: string }): void => {
    const resolve = editing;
    editing = null;
    resolve?.(result);
  };

  return {
    size: () => face.size(),
    show(message) {
      if (restored) return;
      feedFace(face, message, prefix);
      // After the first paint: what the relay sends on top of it is what came after it.
      if (message.t === 'screen' && joinRelay) {
        joinRelay();
        joinRelay = null;
      }
    },
    terminalResized: (cols, rows) => terminal.resize(cols, rows),
    backlog: () => terminal.backlog(),
    sharesScreen: kind !== 'plain' && screen !== null,
    edited,
    othersWaiting(count) {
      if (!restored && 'othersWaiting' in face) (face as SplitFace).othersWaiting(count);
    },
    alert(sequence) {
      if (!restored) terminal.write(sequence);
    },
    restore(then) {
      if (restored) return then?.();
      restored = true;
      // An editor the client never reported on is over for us: the face takes nothing back.
      edited({ ok: false });
      try {
        face.restore();
      } catch {
        // a terminal that is gone cannot be given back
      }
      giveBack(terminal, then);
    },
  };
}
