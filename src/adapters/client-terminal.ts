// A client's terminal, opened by the run server itself so that keys and output skip the client
// process, as tmux's server reads and writes its clients' terminals. tmux is handed the terminal's
// fd over its socket (SCM_RIGHTS); Node cannot send or receive an fd over a unix socket
// (nodejs/node#53391), so the server opens the terminal's device path, which the client names
// in its hello. Owns two quirks of Node's tty streams: every tty.WriteStream is made blocking
// (nodejs/node#1771), and a tty that is not the process's own never emits 'resize'. A terminal may
// be joined to the native relay (adapters/fast-relay.ts): from then on the relay alone reads and
// writes it, until it is given back.

import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import tty from 'node:tty';
import type { EchoArm, FastRelay, TerminalBinding } from './fast-relay.js';
import { stopReading } from './stop-reading.js';

// What may wait unwritten for a terminal that stopped reading (^S, a frozen ssh) before the client is let go.
export const MAX_TERMINAL_BACKLOG = 32 * 1024 * 1024;

/** How a terminal joins the relay (ClientTerminal.join; FastRelay.join and its TerminalListeners). */
export interface JoinOptions {
  /** the key that stays with flower-pty (the split view's prefix); null: none */
  key: string | null;
  /** keys the relay wrote to claude itself (its fast path): the caller only tells of them */
  relayed: (keys: HeardKeys) => void;
  /** a read the relay handed up without writing it: the caller's to route */
  input: (keys: HeardKeys) => void;
  /** joined for its keys alone: the table of bytes that may pass straight to claude */
  pass?: Uint8Array;
  /** keys the relay forwarded are told at once here, and to `relayed` after the output that follows them */
  typed?: () => void;
  /** claude's plain echo the relay drew into the pane */
  echoed?: (bytes: Buffer) => void;
}

export interface ClientTerminal {
  readonly input: tty.ReadStream;
  readonly output: tty.WriteStream;
  /** writes after everything already on its way (through the relay once joined) */
  write(data: string): void;
  /**
   * Hands the terminal to the relay: keys other than `key` alone go straight to claude, and claude's
   * output comes straight from the relay. Waits until what was written here is out; false when
   * the relay cannot take it (the streams go on).
   */
  join(relay: FastRelay, how: JoinOptions): Promise<boolean>;
  readonly joined: boolean;
  /** joined for its keys alone: a frame is out, the relay may draw claude's plain echo into the pane at
   * `arm` (TerminalBinding.echo) until anything else is written here; ignored while a write waits */
  armEcho(arm: EchoArm | null): void;
  /** joined with a pass table (keys alone): JavaScript is through with the reads it was handed up to
   * `held`; `open` lets the next reads of the table's bytes go straight to claude (FastRelay.join) */
  passKeys(held: number, open: boolean): void;
  /** bytes written but not yet taken by the terminal */
  backlog(): number;
  /** the client saw its terminal resized (SIGWINCH goes to the client, not here) */
  resize(cols: number, rows: number): void;
  /**
   * On the way out: the terminal leaves the relay for good (what it had not written goes on the
   * stream), then calls back once everything written so far is out (at once if the terminal is gone).
   */
  giveBack(callback: () => void): void;
  close(): void;
}

/** a read of the terminal's keys the relay took: `forwarded`, claude has it already; `held`: see passKeys() */
/** keys the relay read from a joined terminal: as text and as bytes, and how many reads it has handed to
 * JavaScript so far, this one included (TerminalBinding.pass) */
export interface HeardKeys {
  data: string;
  bytes: Buffer;
  held: number;
}

// Only a pty slave or a console: never a path that a same-user client could point at a file.
const TERMINAL_PATH = /^\/dev\/(pts\/\d{1,6}|tty[A-Za-z]{0,4}\d{0,6})$/;

/** the two fds of the terminal at `path`, checked to be this user's terminal; an Error saying why not */
function openTerminalFds(path: string): [number, number] {
  if (!TERMINAL_PATH.test(path)) throw new Error(`${path.slice(0, 60)} is not a terminal device path`);
  // Two opens, two file descriptions: libuv reopens a pty slave for each handle it makes non-blocking,
  // and one fd shared by a read and a write handle would be swapped under the first.
  const fds: number[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const fd = openSync(path, constants.O_RDWR | constants.O_NOCTTY);
      fds.push(fd);
      const stat = fstatSync(fd);
      if (!stat.isCharacterDevice() || !tty.isatty(fd)) throw new Error(`${path} is not a terminal`);
      if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
        throw new Error(`${path} belongs to another user`);
    }
  } catch (error) {
    for (const fd of fds) closeSync(fd);
    throw error;
  }
  return fds as [number, number];
}

/** a keys-only join follows the stream's pauses, so the relay stops reading while an editor has the terminal */
function followPauses(input: tty.ReadStream, binding: TerminalBinding): void {
  // The face reading this stream hands the terminal to an editor by pausing it (tui/editor.ts): the
  // relay then stops reading too, or the editor's keys would go to claude. Flowing again (its _read
  // does nothing now), so that the editor's pause() is one the stream emits.
  input.resume();
  const pause = () => binding.pause(true);
  // (a 'resume' is emitted a tick after resume(), even when a pause() came between: the state decides)
  const resume = () => binding.pause(input.isPaused());
  input.on('pause', pause);
  input.on('resume', resume);
}

/** opens the terminal at `path` for one client; throws an Error whose message says why not */
export function openClientTerminal(path: string): ClientTerminal {
  const [fds0, fds1] = openTerminalFds(path);
  const input = new tty.ReadStream(fds0);
  const output = new tty.WriteStream(fds1);
  // Node makes a tty.WriteStream blocking; a terminal that stops reading would then stop the whole
  // server (every run's client, claude's pty, the hooks). Non-blocking, the backlog is bounded instead.
  (output as unknown as { _handle?: { setBlocking?: (blocking: boolean) => number } })._handle?.setBlocking?.(false);
  // A hung-up terminal fails reads and writes (EIO): the client's socket closing says the rest.
  input.on('error', () => undefined);
  output.on('error', () => undefined);
  let closed = false;
  let joined: TerminalBinding | null = null;
  let keysOnly = false; // joined for its keys alone: everything written here still goes on the stream
  let givenBack = false; // a join still waiting must not happen after giveBack()
  // The relay may draw an echo on this terminal (keys alone, armed after a frame). Every write of the
  // stream's (blessed writes it directly, not through write() here) takes that back first, with what of
  // the echo the terminal has not taken: the relay's bytes and the stream's never interleave.
  let echoArmed = false;
  let joinedRelay: FastRelay | null = null;
  const streamWrite = output.write.bind(output);
  const disarm = (): void => {
    if (!echoArmed) return;
    echoArmed = false;
    const rest = joined?.echo(null);
    if (rest?.length && !output.destroyed) streamWrite(rest);
  };
  // An arm that came while the frame before it was still on its way (the terminal had not taken it all).
  let waitingArm: EchoArm | null = null;
  output.write = ((...args: Parameters<typeof output.write>) => {
    waitingArm = null;
    disarm();
    return streamWrite(...args);
  }) as typeof output.write;
  // Calls back once nothing written here waits (at once when nothing does, or the terminal is gone). Its
  // empty writes are no frame: they take no arm back.
  const whenQuiet = (callback: () => void): void => {
    const check = () =>
      closed || output.destroyed || output.writableLength === 0 ? callback() : streamWrite('', check);
    check();
  };
  // Back from the relay: what it had not written yet goes first, on the stream.
  const leave = (): void => {
    disarm();
    const binding = joined;
    joined = null;
    keysOnly = false;
    const rest = binding?.leave();
    if (rest?.length && !output.destroyed) output.write(rest);
  };

  return {
    input,
    output,
    write(data) {
      if (joined && !keysOnly) joined.write(data);
      else if (!closed) output.write(data);
    },
    async join(relay, { key, relayed, input: onInput, pass, typed, echoed }) {
      if (joined) return true;
      joinedRelay = relay;
      // The relay's own output and ours would interleave if both wrote: it joins when ours is all out.
      await new Promise<void>((resolve) => whenQuiet(resolve));
      if (closed || givenBack) return false;
      // The fds opened above: libuv reopens a pty slave onto the same number, so they are the streams' own.
      const fds = { input: fds0, output: fds1 };
      const readAgain = stopReading(input); // keys keep their order only with one reader
      joined = relay.join({
        fds,
        key,
        on: {
          input: (bytes, forwarded, held) =>
            (forwarded ? relayed : onInput)({ data: bytes.toString('utf8'), bytes, held }),
          ...(typed ? { typed } : {}),
          ...(echoed ? { echoed } : {}),
        },
        ...(pass ? { pass } : {}),
      });
      if (!joined) {
        readAgain();
        return false;
      }
      if (pass) {
        keysOnly = true;
        followPauses(input, joined);
      }
      return true;
    },
    get joined() {
      return joined !== null;
    },
    armEcho(arm) {
      waitingArm = null;
      if (!arm) return disarm();
      if (!keysOnly || !joined || closed) return;
      // At once, or, while the frame is still on its way (a large one, a slow terminal), once the terminal
      // has taken it: the relay's bytes must come after it. A waiting arm holds only if nothing was
      // written since and no output of claude's was handed over since (the arm is the pane after this one).
      waitingArm = arm;
      const seq = joinedRelay?.outputSeq;
      whenQuiet(() => {
        if (waitingArm !== arm || closed || output.destroyed || !joined || !keysOnly) return;
        waitingArm = null;
        if (joinedRelay?.outputSeq !== seq) return;
        joined.echo(arm);
        echoArmed = true;
      });
    },
    passKeys(held, open) {
      if (keysOnly) joined?.pass(held, open);
    },
    backlog: () => output.writableLength + (joined?.backlog() ?? 0),
    resize(cols, rows) {
      if (closed || (output.columns === cols && output.rows === rows)) return;
      // The client's reading wins over an ioctl here: it is what the person's terminal just told it.
      output.columns = cols;
      output.rows = rows;
      output.emit('resize');
    },
    giveBack(callback) {
      givenBack = true;
      leave();
      whenQuiet(callback);
    },
    close() {
      if (closed) return;
      leave(); // the relay off the fds before they close
      closed = true;
      input.destroy();
      output.destroy();
    },
  };
}
