// A terminal attached to a run server. It says hello with its size, its face and the path of its
// terminal (attach-hello.ts). Like a tmux client, it then mostly waits: the server opens that terminal and
// draws the face on it itself (direct), so a key and its echo never pass through this process; this client
// reports its terminal's new sizes, runs the person's editor when asked, and gives the terminal back if the
// server dies. When the server cannot open the terminal (or there is none), the client draws the face itself
// from the frames (stream; client-face.ts). It detaches on purpose (C-] d, --detach-key), on a hang-up of
// its terminal, and on TERM or INT: the run goes on in the server either way (attach-outcome.ts says so).

import type { Socket } from 'node:net';
import { FlowerError, EXIT } from '../core/errors.js';
import type { Face } from '../runtime/face.js';
import { parsePrefix } from '../core/screen/keymap.js';
import {
  createFrameReader,
  encodeFrame,
  parseServerMessage,
  type ClientMessage,
  type RunInfo,
  type ServerMessage,
} from '../server/wire.js';
import { feedFace, paintPrefix } from '../server/face-feed.js';
import { attachHello, faceSize, terminalPath } from './attach-hello.js';
import { drawFace, loadFaces, type Faces } from './client-face.js';
import { attachOutcome, OUTCOME_WORDS, type AttachResult } from './attach-outcome.js';
import { connectRun } from './run-socket.js';
import { sayErr } from '../adapters/terminal-lines.js';
import { ownCommandHere } from '../adapters/own-command-here.js';

export interface AttachOptions {
  socketPath: string;
  /** the run's socket, already connected (else this connects to socketPath) */
  socket?: Socket;
  plain: boolean;
  /** --plain only: the one control byte that detaches when pressed alone (null: none, the terminal's close still detaches) */
  detachKey: string | null;
  /** the step's document, shown before the server's own word on it */
  documentPath: string | null;
  /** the terminal that started the run: --plain paints the first screen where the cursor is, under what
   * flower-pty printed before (-v), rather than clearing it (claude has hardly drawn anything yet) */
  starter?: boolean;
  /** this client shows the chooser of every run after "prefix s" (the caller does: the result says `choose`) */
  chooser?: boolean;
  /** the socket folder: while attached, the other runs there that wait for the person are counted for the status bar */
  elsewhereDir?: string;
  /** draw the face here from the frames even on a terminal the server could draw (tests of the stream) */
  stream?: boolean;
  env: Record<string, string | undefined>;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

// A server that died drawing this terminal left it as it was: whatever modes claude or the split view
// had on go off (mouse, paste, focus, application keys, the alternate screen), the cursor shows. (The
// native attach client writes the same: the build passes it to native/attach-client.c.)
export const GIVE_BACK =
  '\u001b[0m\u001b[?1000l\u001b[?1002l\u001b[?1003l\u001b[?1006l\u001b[?2004l\u001b[?1004l\u001b[?1l\u001b>\u001b[?1049l\u001b[?25h\r\n';

// Whatever the server or a failure left on this terminal is undone: the face's own restore, and for a
// terminal the server drew and could not give back (it died), the modes it left on.
function letGo(o: AttachOptions, face: Face | null, direct: boolean, result: AttachResult | Error): void {
  try {
    face?.restore();
    if (direct && !(result instanceof Error) && result.kind === 'lost') {
      o.stdout.write(GIVE_BACK);
      if (o.stdin.isTTY) o.stdin.setRawMode(false);
    }
  } catch {
    // a terminal that is gone cannot be given back: nothing more to do
  }
}

const SIGNALS = ['SIGHUP', 'SIGTERM', 'SIGINT'] as const;

/** TERM, INT and a hang-up, until `off()` */
function onSignals(handler: (sig: NodeJS.Signals) => void): () => void {
  for (const sig of SIGNALS) process.on(sig, handler);
  return () => {
    for (const sig of SIGNALS) process.off(sig, handler);
  };
}

export async function attachClient(o: AttachOptions): Promise<AttachResult> {
  const plain = o.plain || !o.stdout.isTTY;
  const tty = o.stream ? null : terminalPath(o.stdin, o.stdout);
  // A socket connected before the face loads may fail meanwhile: that is a hang-up before the welcome (below).
  o.socket?.on('error', () => undefined);
  // Without a terminal to name, the stream is certain: load the face while the socket connects.
  const faces: Faces | null = tty ? null : await loadFaces(plain);
  const socket = o.socket ?? (await connectRun(o.socketPath));
  if (socket.destroyed) throw new FlowerError('the run server hung up before it said who it is', EXIT.internal);
  const send = (message: ClientMessage) => {
    if (!socket.destroyed) socket.write(encodeFrame(message));
  };
  const first = faceSize(plain, o.stdout);
  send(
    attachHello({
      plain,
      tty,
      size: first,
      starter: Boolean(o.starter),
      detachKey: o.detachKey,
      documentPath: o.documentPath,
      env: o.env,
      chooser: Boolean(o.chooser),
    }),
  );
  return session(o, socket, send, { plain, first, faces });
}

/** what one attach holds from the hello on: one record, so its parts below are plain functions */
interface Attach {
  o: AttachOptions;
  socket: Socket;
  send: (message: ClientMessage) => void;
  plain: boolean;
  first: { cols: number; rows: number };
  faces: Faces | null;
  face: Face | null;
  run: RunInfo | null;
  settled: boolean;
  detaching: AttachResult | null;
  direct: boolean;
  hungUp: boolean;
  /** messages that came while the face was being loaded (a terminal the server could not open) */
  held: ServerMessage[] | null;
  prefix: ReturnType<typeof paintPrefix>;
  resized: () => void;
  /** after a hang-up the terminal is gone: writing to it fails, which must not end the detach */
  ignore: () => undefined;
  stopElsewhere: (() => void) | null;
  offSignals: () => void;
  /** the person's editor runs on this terminal (its Ctrl-C is the editor's) */
  editing: boolean;
  counting: boolean;
  /** `detach` bound to this attach, made once for the face drawn here */
  detachAs: (why: 'asked' | 'choose') => void;
  resolve: (result: AttachResult) => void;
  reject: (error: Error) => void;
}

// From the hello on: the welcome (drawn here or by the server), the frames, the editor, the end.
function session(
  o: AttachOptions,
  socket: Socket,
  send: (message: ClientMessage) => void,
  start: { plain: boolean; first: { cols: number; rows: number }; faces: Faces | null },
): Promise<AttachResult> {
  return new Promise<AttachResult>((resolve, reject) => {
    const s: Attach = {
      o,
      socket,
      send,
      plain: start.plain,
      first: start.first,
      faces: start.faces,
      face: null,
      run: null,
      settled: false,
      detaching: null,
      direct: false,
      hungUp: false,
      held: null,
      prefix: paintPrefix(start.plain ? 'plain' : 'split', Boolean(o.starter)),
      resized: () => send({ t: 'resize', cols: o.stdout.columns || 80, rows: o.stdout.rows || 24 }),
      ignore: () => undefined,
      stopElsewhere: null,
      offSignals: () => undefined,
      editing: false,
      counting: false,
      detachAs: (why) => detach(s, why),
      resolve,
      reject,
    };
    o.stdout.on('error', s.ignore);
    // While the person's editor runs on this terminal, Ctrl-C and Ctrl-\ typed there are the editor's: the
    // terminal sends them to its whole foreground group, this process too, which must neither detach nor
    // die of them (as a shell ignores them while its foreground job runs).
    s.offSignals = onSignals((sig) => {
      if (s.editing && sig === 'SIGINT') return;
      if (s.run) detach(s, sig);
      else finish(s, new FlowerError(OUTCOME_WORDS.interrupted, EXIT.interrupted));
    });
    const reader = createFrameReader<ServerMessage>({
      validate: parseServerMessage,
      onMessage: (message) => onMessage(s, message),
      onError: (reason) =>
        finish(
          s,
          s.run ? { kind: 'lost', run: s.run } : new FlowerError(`the run server sent ${reason}`, EXIT.internal),
        ),
    });
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => onClose(s));
  });
}

function finish(s: Attach, result: AttachResult | Error): void {
  if (s.settled) return;
  s.settled = true;
  s.stopElsewhere?.();
  s.offSignals();
  s.o.stdout.off('error', s.ignore);
  s.o.stdout.off('resize', s.resized);
  letGo(s.o, s.face, s.direct, result); // the server gives a terminal it drew back itself; one that died could not
  s.socket.destroy();
  if (result instanceof Error) s.reject(result);
  else s.resolve(result);
}

function detach(s: Attach, why: 'asked' | 'choose' | NodeJS.Signals): void {
  if (!s.run || s.detaching) return;
  const detaching: AttachResult = { kind: 'detached', run: s.run, why };
  s.detaching = detaching;
  s.send({ t: 'detach' });
  // the server answers with bye and hangs up; a server that does not is left anyway
  setTimeout(() => finish(s, detaching), 1_000).unref();
}

// The face loads after the welcome when the server could not draw this terminal; what comes meanwhile waits.
function loadThenReplay(s: Attach, welcome: ServerMessage): void {
  s.held = [];
  loadFaces(s.plain).then(
    (loaded) => {
      s.faces = loaded;
      const waiting = s.held!;
      s.held = null;
      for (const m of [welcome, ...waiting]) if (!s.settled) onMessage(s, m);
      // A server that said its last and hung up while the face loaded: heard after its words.
      if (s.hungUp) onClose(s);
    },
    (error: unknown) => finish(s, error instanceof Error ? error : new Error(String(error))),
  );
}

// The other runs waiting for the person: a split view says how many (drawn by the server, or here).
function countElsewhere(s: Attach, dir: string): void {
  if (s.plain || s.counting) return;
  s.counting = true;
  watchElsewhereHere(s.o, dir, {
    settled: () => s.settled,
    runId: () => s.run?.id ?? null,
    started: (stop) => {
      s.stopElsewhere = stop;
    },
    onCount: (waiting) => {
      if (s.direct) s.send({ t: 'elsewhere', waiting });
      else if (s.face && 'othersWaiting' in s.face)
        (s.face as { othersWaiting(n: number): void }).othersWaiting(waiting);
    },
  });
}

function welcomed(s: Attach, message: Extract<ServerMessage, { t: 'welcome' }>): void {
  const run = message.run;
  s.run = run;
  if (s.o.elsewhereDir !== undefined) countElsewhere(s, s.o.elsewhereDir);
  if (message.direct) {
    // The server draws this terminal: its size is all this client tells it.
    s.direct = true;
    s.o.stdout.on('resize', s.resized);
    return;
  }
  if (!s.faces) return loadThenReplay(s, message);
  try {
    s.face = drawFace(run, s.faces, drawOptions(s.o, s.first, s.send, s.detachAs));
  } catch (error) {
    finish(s, error as Error);
  }
}

function onMessage(s: Attach, message: ServerMessage): void {
  if (s.held) return void s.held.push(message);
  switch (message.t) {
    case 'refused':
      return finish(s, new FlowerError(message.reason));
    case 'welcome':
      return welcomed(s, message);
    case 'bye':
      return finish(s, byeResult(message, s.run, s.detaching));
    case 'edit':
      s.editing = true;
      editHere(s.o, message.path, s.ignore, (result) => {
        s.editing = false;
        s.send({ t: 'edited', ...result });
      });
      return;
    case 'status':
      s.run = { ...s.run!, status: message.view, generation: message.view.generation, phase: message.view.phase };
      break;
  }
  if (s.face) feedFace(s.face, message, s.prefix);
}

function onClose(s: Attach): void {
  s.hungUp = true;
  if (s.held) return; // the face is loading: what came before the hang-up is drawn first
  if (s.detaching) return finish(s, s.detaching);
  finish(
    s,
    s.run
      ? { kind: 'lost', run: s.run }
      : new FlowerError('the run server hung up before it said who it is', EXIT.internal),
  );
}

/** what a face drawn here needs: this terminal, the hello's size, and the way to detach (or choose) */
function drawOptions(
  o: AttachOptions,
  first: { cols: number; rows: number },
  send: (message: ClientMessage) => void,
  detach: (why: 'asked' | 'choose') => void,
): Parameters<typeof drawFace>[2] {
  return {
    stdin: o.stdin,
    stdout: o.stdout,
    stderr: o.stderr,
    env: o.env,
    detachKey: o.detachKey,
    documentPath: o.documentPath,
    helloSize: first,
    send,
    detach: () => detach('asked'),
    ...(o.chooser ? { choose: () => detach('choose') } : {}),
    // this client draws its own face: it knows where its person is
    ownCommand: ownCommandHere(o.env, process.cwd()),
  };
}

/** what a server's bye means for this attach: how it ended, or why it could not begin */
function byeResult(
  message: Extract<ServerMessage, { t: 'bye' }>,
  run: RunInfo | null,
  detaching: AttachResult | null,
): AttachResult | Error {
  if (!run) return new FlowerError('the run ended before it could be attached');
  if (message.reason === 'detached')
    return detaching ?? { kind: 'detached', run, why: message.choose ? 'choose' : 'asked' };
  return {
    kind: 'ended',
    run,
    exitCode: message.exitCode ?? EXIT.ok,
    message: message.message ?? null,
    killed: message.reason === 'killed',
  };
}

// The terminal's job control is this process's: the editor runs here, on it, then the server takes it back.
// (Loaded here, not with the attach: an attach that never edits does not load child_process.)
function editHere(
  o: AttachOptions,
  path: string,
  ignore: () => undefined,
  done: (result: { ok: boolean; problem?: string }) => void,
): void {
  process.on('SIGQUIT', ignore);
  void import('../tui/editor.js')
    .then(({ runEditor }) => runEditor(path, o.env))
    .then((result) => {
      process.off('SIGQUIT', ignore);
      done(result);
    });
}

// The other runs waiting for the person, counted for a split view (and rung here as the run in front rings).
function watchElsewhereHere(
  o: AttachOptions,
  dir: string,
  on: {
    settled(): boolean;
    runId(): string | null;
    started(stop: () => void): void;
    onCount(waiting: number): void;
  },
): void {
  void Promise.all([import('../server/elsewhere-watch.js'), import('../core/screen/notification.js')]).then(
    ([{ watchElsewhere, personNotifies }, { notificationSequence }]) => {
      if (on.settled()) return;
      on.started(
        watchElsewhere({
          dir,
          selfId: on.runId,
          // Rung on this terminal as the run in front rings it: one write, so it falls between the server's frames.
          notify: personNotifies(o.env),
          onAlert: (alert) => void o.stdout.write(notificationSequence(alert.title, alert.body)),
          onCount: on.onCount,
        }),
      );
    },
  );
}

/** --detach-key's control byte (null: none), or a one-line error naming what was wrong */
export function plainDetachKey(name: string | undefined): string | null {
  if (name === undefined) return null;
  const parsed = parsePrefix(name);
  if ('problem' in parsed) throw new FlowerError(`--detach-key: ${parsed.problem}`);
  return parsed.byte;
}

/** this process's terminal attached until detach or the run's end; prints the outcome, returns the exit code */
export async function attachTerminal(
  o: Pick<
    AttachOptions,
    'socketPath' | 'socket' | 'plain' | 'detachKey' | 'documentPath' | 'starter' | 'chooser' | 'elsewhereDir'
  > & { serverExited?: Promise<void>; seen?: (result: AttachResult) => void },
): Promise<number> {
  const result = await attachClient({
    ...o,
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  });
  o.seen?.(result);
  const outcome = attachOutcome(result, ownCommandHere(process.env, process.cwd()));
  for (const line of outcome.lines) sayErr(`flower-pty: ${line}`);
  // The terminal that started the server is its parent: a server that died is reaped before this
  // process goes, or it would linger as a zombie that looks alive to the workbench lock (where no
  // init reaps orphans, as in some containers).
  if (result.kind === 'lost' && o.serverExited)
    await Promise.race([o.serverExited, new Promise((r) => setTimeout(r, 1_000))]);
  return outcome.exitCode;
}
