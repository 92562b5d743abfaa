// A terminal attached to a run server. It says hello with its size, its face and the path of its
// terminal. Like a tmux client, it then mostly waits: the server opens that terminal and draws the
// face on it itself (direct), so a key and its echo never pass through this process; this client
// reports its terminal's new sizes, runs the person's editor when asked, and gives the terminal back
// if the server dies. When the server cannot open the terminal (or there is none), the client
// draws the face itself from the frames (stream). It detaches on purpose (C-] d, --detach-key), on
// a hang-up of its terminal, and on TERM or INT: the run goes on in the server either way.

import { createConnection, type Socket } from 'node:net';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { FlowerError, EXIT } from '../errors.js';
import type { Host } from '../hosts/host.js';
import { computeLayout } from '../core/layout.js';
import { parsePrefix } from '../core/keymap.js';
import { createFrameReader, encodeFrame, parseServerMessage, WIRE_VERSION, type ClientMessage, type Hello, type RunInfo, type ServerMessage } from '../server/wire.js';
import { feedFace, paintPrefix } from '../server/face-feed.js';
import { runEditor } from '../tui/editor.js';

export interface AttachOptions {
  socketPath: string;
  plain: boolean;
  /** --plain only: the one control byte that detaches when pressed alone (null: none, the terminal's close still detaches) */
  detachKey: string | null;
  /** the step's document, shown before the server's own word on it */
  documentPath: string | null;
  /** the terminal that started the run: --plain paints the first screen where the cursor is, under what
   * flower-pty printed before (-v), rather than clearing it (claude has hardly drawn anything yet) */
  starter?: boolean;
  /** draw the face here from the frames even on a terminal the server could draw (tests of the stream) */
  stream?: boolean;
  env: Record<string, string | undefined>;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export type AttachResult =
  | { kind: 'ended'; run: RunInfo; exitCode: number; message: string | null; killed: boolean }
  | { kind: 'detached'; run: RunInfo; why: 'asked' | NodeJS.Signals }
  /** the server went away without a word (SIGKILL, a crash) */
  | { kind: 'lost'; run: RunInfo };

// A server that died drawing this terminal left it as it was: whatever modes claude or the split view
// had on go off (mouse, paste, focus, application keys, the alternate screen), the cursor shows.
const GIVE_BACK = '\u001b[0m\u001b[?1000l\u001b[?1002l\u001b[?1003l\u001b[?1006l\u001b[?2004l\u001b[?1004l\u001b[?1l\u001b>\u001b[?1049l\u001b[?25h\r\n';

/** the device of this process's terminal when stdin and stdout are both it (what the server may open) */
export function terminalPath(stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): string | null {
  if (!stdin.isTTY || !stdout.isTTY) return null;
  try {
    const input = readlinkSync('/proc/self/fd/0');
    return input === readlinkSync('/proc/self/fd/1') && input.startsWith('/dev/') ? input : null;
  } catch {
    return null; // no /proc (not Linux): the stream it is
  }
}

export async function attachClient(o: AttachOptions): Promise<AttachResult> {
  const plain = o.plain || !o.stdout.isTTY;
  const tty = o.stream ? null : terminalPath(o.stdin, o.stdout);
  // Only the face in use is loaded, and only when this client draws: --plain never pays for blessed,
  // and a terminal the server draws loads no face here at all (attach is a command a person waits on).
  const loadFaces = async (): Promise<Faces> =>
    plain ? { createPlainHost: (await import('../hosts/plain-host.js')).createPlainHost } : { createSplitHost: (await import('../hosts/split-host.js')).createSplitHost };
  // Without a terminal to name, the stream is certain: load the face while the socket connects.
  let faces: Faces | null = tty ? null : await loadFaces();
  const socket = await connect(o.socketPath);
  const send = (message: ClientMessage) => {
    if (!socket.destroyed) socket.write(encodeFrame(message));
  };
  const first = faceSize(plain, o.stdout);
  const hello: Hello = { t: 'hello', version: WIRE_VERSION, role: 'attach', cols: first.cols, rows: first.rows, face: plain ? 'plain' : 'split' };
  if (tty) {
    Object.assign(hello, { tty, starter: Boolean(o.starter), term: o.env.TERM ?? 'xterm-256color', noColor: Boolean(o.env.NO_COLOR) });
    if (o.env.FLOWER_PTY_PREFIX) hello.prefix = o.env.FLOWER_PTY_PREFIX.slice(0, 16);
    if (plain && o.detachKey !== null) hello.detachKey = o.detachKey;
    if (o.documentPath) hello.documentPath = o.documentPath;
  }
  send(hello);

  return new Promise<AttachResult>((resolve, reject) => {
    let host: Host | null = null;
    let run: RunInfo | null = null;
    let settled = false;
    let detaching: AttachResult | null = null;
    let direct = false;
    const prefix = paintPrefix(plain ? 'plain' : 'split', Boolean(o.starter));
    const resized = () => send({ t: 'resize', cols: o.stdout.columns || 80, rows: o.stdout.rows || 24 });

    const finish = (result: AttachResult | Error) => {
      if (settled) return;
      settled = true;
      for (const sig of SIGNALS) process.off(sig, onSignal);
      o.stdout.off('error', ignore);
      o.stdout.off('resize', resized);
      try {
        host?.restore();
        // The server gives a terminal it drew back itself; one that died could not.
        if (direct && !(result instanceof Error) && result.kind === 'lost') {
          o.stdout.write(GIVE_BACK);
          if (o.stdin.isTTY) o.stdin.setRawMode(false);
        }
      } catch {
        // a terminal that is gone cannot be given back: nothing more to do
      }
      socket.destroy();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };

    const detach = (why: 'asked' | NodeJS.Signals) => {
      if (!run || detaching) return;
      detaching = { kind: 'detached', run, why };
      send({ t: 'detach' });
      // the server answers with bye and hangs up; a server that does not is left anyway
      setTimeout(() => finish(detaching!), 1_000).unref();
    };

    const onSignal = (sig: NodeJS.Signals) => {
      if (run) detach(sig);
      else finish(new FlowerError('interrupted before the run answered', EXIT.interrupted));
    };
    for (const sig of SIGNALS) process.on(sig, onSignal);
    // After a hang-up the terminal is gone: writing to it fails, which must not end the detach.
    const ignore = () => undefined;
    o.stdout.on('error', ignore);

    function face(welcome: RunInfo, { createPlainHost, createSplitHost }: Faces): Host {
      const documentPath = welcome.status?.documentPath ?? o.documentPath;
      if (createPlainHost) {
        const h = createPlainHost({ stdin: o.stdin, stdout: o.stdout, stderr: o.stderr });
        const key = o.detachKey;
        h.onInput((data) => {
          if (key !== null && data === key) detach('asked');
          else send({ t: 'input', data });
        });
        return h;
      }
      const h = createSplitHost!({ stdin: o.stdin, stdout: o.stdout, stderr: o.stderr, env: o.env, documentPath, onDetach: () => detach('asked') });
      h.onInput((data) => send({ t: 'input', data }));
      return h;
    }

    // Messages that came while the face was being loaded (a terminal the server could not open).
    let held: ServerMessage[] | null = null;

    function onMessage(message: ServerMessage): void {
      if (held) return void held.push(message);
      if (message.t === 'refused') return finish(new FlowerError(message.reason));
      if (message.t === 'welcome') {
        run = message.run;
        if (message.direct) {
          // The server draws this terminal: its size is all this client tells it.
          direct = true;
          o.stdout.on('resize', resized);
          return;
        }
        if (!faces) {
          held = [];
          loadFaces().then(
            (loaded) => {
              faces = loaded;
              const waiting = held!;
              held = null;
              for (const m of [message, ...waiting]) if (!settled) onMessage(m);
              // A server that said its last and hung up while the face loaded: heard after its words.
              if (hungUp) onClose();
            },
            (error: unknown) => finish(error instanceof Error ? error : new Error(String(error))),
          );
          return;
        }
        try {
          host = face(run, faces);
        } catch (error) {
          return finish(error as Error);
        }
        host.onResize((cols, rows) => send({ t: 'resize', cols, rows }));
        host.onCommand((command) => send({ t: 'command', command }));
        const size = host.size();
        if (size.cols !== first.cols || size.rows !== first.rows) send({ t: 'resize', ...size });
        return;
      }
      if (message.t === 'bye') {
        if (!run) return finish(new FlowerError('the run ended before it could be attached'));
        if (message.reason === 'detached') return finish(detaching ?? { kind: 'detached', run, why: 'asked' });
        return finish({ kind: 'ended', run, exitCode: message.exitCode ?? EXIT.ok, message: message.message ?? null, killed: message.reason === 'killed' });
      }
      if (message.t === 'edit') {
        // The terminal's job control is this process's: the editor runs here, on it, then the server takes it back.
        void runEditor(message.path, o.env).then((result) => send({ t: 'edited', ...result }));
        return;
      }
      if (message.t === 'status') run = { ...run!, status: message.view, generation: message.view.generation, phase: message.view.phase };
      if (host) feedFace(host, message, prefix);
    }

    const reader = createFrameReader<ServerMessage>({
      validate: parseServerMessage,
      onMessage,
      onError: (reason) => finish(run ? { kind: 'lost', run } : new FlowerError(`the run server sent ${reason}`, EXIT.internal)),
    });
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
    socket.on('error', () => undefined);
    let hungUp = false;
    function onClose(): void {
      hungUp = true;
      if (held) return; // the face is loading: what came before the hang-up is drawn first
      if (detaching) return finish(detaching);
      finish(run ? { kind: 'lost', run } : new FlowerError('the run server hung up before it said who it is', EXIT.internal));
    }
    socket.on('close', onClose);
  });
}

const SIGNALS = ['SIGHUP', 'SIGTERM', 'SIGINT'] as const;

/** the one face module this client may draw with */
interface Faces {
  createPlainHost?: (typeof import('../hosts/plain-host.js'))['createPlainHost'];
  createSplitHost?: (typeof import('../hosts/split-host.js'))['createSplitHost'];
}

/** --detach-key's control byte (null: none), or a one-line error naming what was wrong */
export function plainDetachKey(name: string | undefined): string | null {
  if (name === undefined) return null;
  const parsed = parsePrefix(name);
  if ('problem' in parsed) throw new FlowerError(`--detach-key: ${parsed.problem}`);
  return parsed.byte;
}

/** the size claude gets for this terminal: all of it (plain), or the split view's session pane */
export function faceSize(plain: boolean, stdout: NodeJS.WriteStream): { cols: number; rows: number } {
  const terminal = { cols: stdout.columns || 80, rows: stdout.rows || 24 };
  return plain ? terminal : computeLayout({ ...terminal, documentVisible: true }).inner;
}

function connect(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.off('error', onError);
      socket.setNoDelay?.(true);
      resolve(socket);
    });
    const onError = (error: NodeJS.ErrnoException) =>
      reject(new FlowerError(`no run answers on ${path} (${error.code ?? error.message}): it has ended; flower-pty ls lists the live runs`));
    socket.once('error', onError);
  });
}

/** what a person reads when the client lets go of the terminal, and the exit code */
export function attachOutcome(result: AttachResult): { lines: string[]; exitCode: number } {
  const { run } = result;
  if (result.kind === 'detached') return { lines: [`detached from run ${run.id} (it goes on); attach again with flower-pty attach ${run.id}`], exitCode: EXIT.ok };
  if (result.kind === 'lost') {
    return { lines: [`the run server ${run.id} is gone (pid ${run.pid} killed?); pick the lineage up with flower-pty --continue`], exitCode: EXIT.serverLost };
  }
  const lines: string[] = [];
  if (result.message) lines.push(result.message);
  if (result.killed) lines.push(`run ${run.id} was ended by flower-pty kill`);
  if (run.workbench && (result.exitCode === EXIT.ok || result.killed)) {
    lines.push(`lineage in ${join(run.workbench, 'manifest.json')}; pick it up again with flower-pty --continue (not claude --resume)`);
  }
  return { lines, exitCode: result.exitCode };
}

/** this process's terminal attached until detach or the run's end; prints the outcome, returns the exit code */
export async function attachTerminal(
  o: Pick<AttachOptions, 'socketPath' | 'plain' | 'detachKey' | 'documentPath' | 'starter'> & { serverExited?: Promise<void> },
): Promise<number> {
  const result = await attachClient({ ...o, env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
  const outcome = attachOutcome(result);
  for (const line of outcome.lines) process.stderr.write(`flower-pty: ${line}\n`);
  // The terminal that started the server is its parent: a server that died is reaped before this
  // process goes, or it would linger as a zombie that looks alive to the workbench lock (where no
  // init reaps orphans, as in some containers).
  if (result.kind === 'lost' && o.serverExited) await Promise.race([o.serverExited, new Promise((r) => setTimeout(r, 1_000))]);
  return outcome.exitCode;
}
