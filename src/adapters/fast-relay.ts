// The native relay (native/fast-relay.c) behind a narrow port: in the run server, a thread of its own
// reads claude's pty and the keys of the terminals drawn in plain mode, and writes each side to the
// other at once, without a wake of Node's event loop per key (Node's floor per key sat above tmux's).
// JavaScript gets every byte a moment later and keeps every decision. It is also claude's one
// writer: a write to a pty master through Node blocks the event loop while claude is not reading
// (libuv keeps blocking writes for a tty it cannot reopen; node-pty#797), the relay's queue does not.
// A split view's terminal joins for its keys alone: typed text by a pass table, the rest routed here;
// of claude's output it gets only a plain echo, where the split view armed the relay for it after a frame.
// Optional: a build without a C compiler (or FLOWER_PTY_NO_NATIVE=1, which the run server reads)
// leaves the run on Node's streams, which do the same work.

import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EchoArm } from '../core/screen/echo-path.js';

// The same place from src/adapters and dist/adapters: the package root's dist/native.
const ADDON = fileURLToPath(new URL('../../dist/native/fast-relay.node', import.meta.url));

const EV_OUTPUT = 1;
const EV_INPUT = 2;
const EV_CLOSED = 3;
const EV_UNBOUND = 4;
const EV_ECHOED = 5;

interface Addon {
  create(
    callback: (kind: number, id: number, bytes: Buffer, forwarded: boolean, gen: number, held: number) => void,
  ): unknown;
  bindPty(relay: unknown, fd: number): number;
  unbindPty(relay: unknown): void;
  writePty(relay: unknown, bytes: Buffer): void;
  writerPty(relay: unknown, fd: number): Buffer;
  join(
    relay: unknown,
    id: number,
    how: { input: number; output: number; key: Buffer | null; pass: Buffer | null },
  ): boolean;
  pass(relay: unknown, id: number, held: number, open: boolean): void;
  pause(relay: unknown, id: number, paused: boolean): void;
  leave(relay: unknown, id: number): Buffer;
  write(relay: unknown, id: number, bytes: Buffer): void;
  backlog(relay: unknown, id: number): number;
  ack(relay: unknown, bytes: number): void;
  pending(relay: unknown): number;
  close(relay: unknown): void;
  filter(chunks: Buffer[]): Buffer[];
  echo(relay: unknown, id: number, arm: number[] | null, beside?: Buffer | null): Buffer;
  echoPlan(at: number[], bytes: Buffer, beside?: Buffer): Buffer | null;
  /** the thread's wake-up in this build: an eventfd (Linux) or a self-pipe (elsewhere) */
  wake: 'eventfd' | 'pipe';
}

/** claude's pty as its owner (pty-session) hands it over */
export interface PtyHooks {
  fd: number;
  /** the owner's own stream stops reading the pty; returns what lets it read again */
  stopStream(): () => void;
  /** the owner's own write, for a pty the relay no longer writes (the next child's came, or it closed) */
  ownWrite(bytes: Buffer): void;
  /** bytes the relay read (its owner decodes them with the same decoder as its stream's) */
  data(bytes: Buffer): void;
  /** the relay read the pty's end: the child is gone */
  closed(): void;
}

export interface PtyHold {
  /** every write to claude: queued by the relay, in order, never blocking */
  write(data: string): void;
  /** the pty is about to be closed: the relay lets go of its fd before this returns */
  release(): void;
}

export interface TerminalBinding {
  /** after everything already on its way to this terminal */
  write(data: string): void;
  /** bytes the terminal has not taken yet */
  backlog(): number;
  /** the relay lets the terminal go; returns what it had not written yet, for the caller to write */
  leave(): Buffer;
  /** keys alone (joined with a pass table): JavaScript is through with every read it was handed up to
   * `held` (the count `input` got); `open`: the next reads whose every byte is in the table go straight
   * to claude. A read handed over since keeps it closed: this call then changes nothing */
  pass(held: number, open: boolean): void;
  /** the relay stops reading the terminal's keys (an editor has the terminal), or reads them again;
   * pausing closes the pass-through */
  pause(paused: boolean): void;
  /** keys alone: a frame is out and the session pane is as `arm` says, after claude's output up to
   * FastRelay.outputSeq: the relay may draw claude's next output itself when it is a plain echo
   * (native/echo-path.h). null: the caller is about to write the terminal, the relay draws nothing on it
   * from now on; returns what of its last echo the terminal has not taken, for the caller to write first */
  echo(arm: EchoArm | null): Buffer;
}

export type { EchoArm };

/** what a joined terminal's keys do: `forwarded`, claude has them already; else `held` counts the reads
 * handed to JavaScript so far (this one included), for TerminalBinding.pass() */
export type TerminalInput = (bytes: Buffer, forwarded: boolean, held: number) => void;

/** `typed`: keys the relay forwarded are told at once by this alone, and to `input` in the turn's check
 * phase. The relay tells of the keys it forwarded just before claude's next output (their echo, in the same
 * wake of the event loop): what JavaScript does with the keys then comes after the echo is drawn, not
 * before it. A read handed to JavaScript (not forwarded) tells the keys still waiting first, in order. */
export interface TerminalListeners {
  input: TerminalInput;
  typed?: () => void;
  /** the relay drew this output of claude's on the terminal (TerminalBinding.echo), told just before the
   * output itself is handed over */
  echoed?: (bytes: Buffer) => void;
}

/** a terminal joining the relay (FastRelay.join) */
export interface JoinHow {
  /** the terminal's fds, its keys' and its output's */
  fds: { input: number; output: number };
  /** the key the relay holds back for the caller; null: none */
  key: string | null;
  on: TerminalListeners;
  /** keys alone: the byte table of what may go straight to claude */
  pass?: Uint8Array;
}

export interface FastRelay {
  /**
   * claude's pty. The relay writes it from now on; it reads it (as its only reader) while a terminal
   * is joined, and gives the reading back to its owner's stream when none is: a split view alone
   * pays no extra hop on output.
   */
  adopt(pty: PtyHooks): PtyHold;
  /**
   * A terminal whose keys go straight to claude (all but `key` alone, which is the caller's) and which
   * gets claude's output, titles taken out, straight from the relay. The caller has written all
   * output it was handed so far, and its own writes are out; null when the relay has no room.
   * With `pass` (a byte table: core/screen/keymap.ts passThroughTable()) the relay reads the terminal's keys
   * alone and writes it nothing of claude's (its caller draws it, a split view): a read goes to claude
   * only while the pass-through is open (TerminalBinding.pass) and every byte of it is in the table.
   */
  join(how: JoinHow): TerminalBinding | null;
  /** true while claude's output is being handed to JavaScript by the relay: a joined terminal already has it */
  readonly handingOut: boolean;
  /** the place of claude's last output handed over among those the relay read (TerminalBinding.echo) */
  readonly outputSeq: number;
  /** bytes queued for claude and not yet taken by it: past the input ceiling
   * (core/server/input-ceiling.ts) the relay reads no more keys from its terminals until claude reads */
  readonly waitingForClaude: number;
  /** the thread's wake-up in this build: an eventfd (Linux) or a self-pipe (macOS, the BSDs) */
  readonly wake: 'eventfd' | 'pipe';
  close(): void;
}

const addons = new Map<string, Addon | null>();

function load(path = ADDON): Addon | null {
  if (addons.has(path)) return addons.get(path)!;
  let addon: Addon | null;
  try {
    addon = existsSync(path) ? (createRequire(import.meta.url)(path) as Addon) : null;
  } catch {
    addon = null; // built for another Node: the streams do the work
  }
  addons.set(path, addon);
  return addon;
}

// Where an adopted pty is: read by its owner's stream, held by the relay, on its way back to the
// stream (the relay's last output still being handed over), or closed.
type PtyState = 'stream' | 'relay' | 'returning' | 'released';
interface Adopted {
  hooks: PtyHooks;
  state: PtyState;
  gen: number;
  readAgain: (() => void) | null;
}

/** the relay, or null when it is not built (the caller uses Node's streams); `addon`: another build of
 * it than dist/native's (the tests load the self-pipe build, which macOS gets, this way) */
export function openFastRelay(addon?: string): FastRelay | null {
  const native = load(addon);
  if (!native) return null;
  // Each binding by its generation: output read before an unbind is still that child's, in order.
  const bindings = new Map<number, Adopted>();
  const terminals = new Map<number, TerminalListeners>();
  let current: Adopted | null = null;
  let nextId = 1;
  let handingOut = false;
  let outputSeq = 0;
  let closed = false;
  // Output is acknowledged a turn after it was taken: the relay reads on no faster than the
  // emulator (which parses on timers) and the rest of this process take it, as with a stream.
  let unacked = 0;
  // Forwarded keys of terminals that are told `typed` at once, for their `input` in the check phase.
  let toldLater: Array<{ on: TerminalListeners; bytes: Buffer; held: number }> = [];
  let checkArmed = false;
  const check = (): void => {
    checkArmed = false;
    tellForwarded();
    const bytes = unacked;
    unacked = 0;
    if (bytes > 0 && !closed) native.ack(handle, bytes);
  };
  const armCheck = (): void => {
    if (checkArmed) return;
    checkArmed = true;
    setImmediate(check);
  };
  function tellForwarded(): void {
    const told = toldLater;
    toldLater = [];
    for (const { on, bytes, held } of told) on.input(bytes, true, held);
  }

  // Node-API swallows what a callback from the thread throws (a warning, DEP0168): thrown again on
  // the next tick, it is an uncaught exception, as it would be from a stream's 'data' handler.
  const handle = native.create((kind, id, bytes, forwarded, gen, held) => {
    try {
      dispatch(kind, id, bytes, forwarded, gen, held);
    } catch (error) {
      process.nextTick(() => {
        throw error;
      });
    }
  });

  function dispatch(kind: number, id: number, bytes: Buffer, forwarded: boolean, gen: number, held: number): void {
    if (kind === EV_ECHOED) return terminals.get(id)?.echoed?.(bytes);
    if (kind === EV_INPUT) {
      const on = terminals.get(id);
      if (!on) return;
      if (forwarded && on.typed) {
        on.typed();
        toldLater.push({ on, bytes, held });
        armCheck();
        return;
      }
      if (toldLater.length > 0) tellForwarded();
      on.input(bytes, forwarded, held);
      return;
    }
    // every byte read counts, whoever it was for; acknowledged in the check phase, after it was drawn
    if (kind === EV_OUTPUT) {
      unacked += bytes.length;
      outputSeq = held; // the output's own place, for an EV_OUTPUT
    }
    const pty = bindings.get(gen);
    if (!pty) {
      if (kind === EV_OUTPUT) armCheck();
      return;
    }
    if (kind === EV_OUTPUT) {
      handingOut = true;
      try {
        pty.hooks.data(bytes);
      } finally {
        handingOut = false;
        armCheck();
      }
    } else if (kind === EV_CLOSED) {
      pty.hooks.closed();
    } else if (kind === EV_UNBOUND) {
      // Every byte the relay read from this binding is handed over: the owner's stream may go on.
      bindings.delete(gen);
      if (pty.state === 'returning' && pty.gen === gen) {
        pty.state = 'stream';
        pty.readAgain?.();
        pty.readAgain = null;
      }
    }
  }

  function hold(pty: Adopted): void {
    if (closed || pty.state === 'relay' || pty.state === 'released') return;
    if (pty.state === 'stream') pty.readAgain = pty.hooks.stopStream();
    pty.gen = native!.bindPty(handle, pty.hooks.fd);
    bindings.set(pty.gen, pty);
    pty.state = 'relay';
  }

  function giveBack(pty: Adopted, next: PtyState): void {
    if (pty.state !== 'relay') {
      if (next === 'released') pty.state = next;
      return;
    }
    pty.state = next;
    if (!closed) native!.unbindPty(handle);
  }

  return {
    adopt(hooks) {
      const pty: Adopted = { hooks, state: 'stream', gen: 0, readAgain: null };
      // A pty still held when the next comes (its child not yet gone) goes back to its own stream.
      if (current) giveBack(current, 'returning');
      current = pty;
      // Keys still queued for the previous claude are dropped: it is being ended, and writing them
      // through its stream could spin libuv on a full pty.
      if (!closed) native.writerPty(handle, hooks.fd);
      if (terminals.size > 0) hold(pty);
      return {
        write: (data) => {
          const bytes = Buffer.from(data, 'utf8');
          if (current === pty && !closed) native.writePty(handle, bytes);
          else if (pty.state !== 'released') hooks.ownWrite(bytes);
        },
        release: () => {
          giveBack(pty, 'released');
          if (current !== pty) return;
          current = null;
          if (!closed) native.writerPty(handle, -1);
        },
      };
    },
    join({ fds, key, on, pass }) {
      if (closed) return null;
      const id = nextId++;
      const table = pass ? Buffer.from(pass.buffer, pass.byteOffset, pass.byteLength) : null;
      const how = { ...fds, key: key === null ? null : Buffer.from(key, 'utf8'), pass: table };
      if (!native.join(handle, id, how)) return null;
      terminals.set(id, on);
      // Claude's output through the relay as well, keys alone or not: a key it forwarded is then heard
      // before claude's echo of it (one queue), so the echo is parsed and drawn as an echo, at once.
      if (current) hold(current);
      let left = false;
      // what the relay holds of the cells beside the pane: sent again only when a frame changed it
      let besideSent: string | null | undefined;
      return {
        write: (data) => {
          if (!left && !closed) native.write(handle, id, Buffer.from(data, 'utf8'));
        },
        backlog: () => (left || closed ? 0 : native.backlog(handle, id)),
        pass: (held, open) => {
          if (!left && !closed) native.pass(handle, id, held, open);
        },
        pause: (paused) => {
          if (!left && !closed) native.pause(handle, id, paused);
        },
        echo: (arm) => {
          if (left || closed) return Buffer.alloc(0);
          if (!arm) return native.echo(handle, id, null);
          const beside = arm.beside ?? null;
          const send = beside === besideSent ? undefined : beside === null ? null : Buffer.from(beside, 'utf8');
          besideSent = beside;
          return native.echo(
            handle,
            id,
            [outputSeq, arm.x, arm.y, arm.cols, arm.rows, arm.left, arm.top, arm.sync ? 1 : 0],
            send,
          );
        },
        leave: () => {
          if (left || closed) return Buffer.alloc(0);
          left = true;
          terminals.delete(id);
          const rest = native.leave(handle, id);
          if (terminals.size === 0 && current) giveBack(current, 'returning');
          return rest;
        },
      };
    },
    get handingOut() {
      return handingOut;
    },
    get outputSeq() {
      return outputSeq;
    },
    get waitingForClaude() {
      return closed ? 0 : native.pending(handle);
    },
    wake: native.wake,
    close() {
      if (closed) return;
      closed = true;
      native.close(handle);
    },
  };
}

/** the native title filter alone, chunk by chunk (the parity test holds it to title-filter.ts); null when not built */
export function nativeTitleFilter(): ((chunks: Buffer[]) => Buffer[]) | null {
  const native = load();
  return native ? (chunks) => native.filter(chunks) : null;
}

/** the relay's echo plan alone (native/echo-path.h): the bytes that draw `bytes` in a pane at `arm`, or null
 * when the relay would leave it to JavaScript; null too when the relay is not built */
export function nativeEchoPlan(): ((arm: EchoArm, bytes: Buffer) => Buffer | null) | null {
  const native = load();
  return native
    ? (arm, bytes) =>
        native.echoPlan(
          [arm.x, arm.y, arm.cols, arm.rows, arm.left, arm.top, arm.sync ? 1 : 0],
          bytes,
          ...(arm.beside ? [Buffer.from(arm.beside, 'utf8')] : []),
        )
    : null;
}
