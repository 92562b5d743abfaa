// The run server's rules for its clients, decided here and carried out by src/server/: who sets claude's
// size when several terminals are attached, when the server's own emulator answers claude's terminal
// queries, how a client's hello is answered, and how a run's end is told. Pure: a client is whatever key
// the server gives it (its link), its size and face arrive as values.

import { runExitCode } from '../exit-code.js';

export interface Size {
  cols: number;
  rows: number;
}

// The emulator allocates every cell: a size far beyond any screen (the wire allows 10000 a side) would
// cost the server its memory, so claude's pty is held to what a terminal can really show.
export const MAX_COLS = 1000;
export const MAX_ROWS = 500;

export function boundedSize(cols: number, rows: number): Size {
  return { cols: Math.min(cols, MAX_COLS), rows: Math.min(rows, MAX_ROWS) };
}

/** the client whose terminal claude's pty follows (it attached or typed last), or none */
export interface SizeState<K> {
  readonly latest: K | null;
}

export type SizeEvent<K> =
  /** a client attached (its first paint) */
  | { type: 'attached'; client: K; watcher: boolean; size: Size | null }
  /** a client typed a key for claude */
  | { type: 'typed'; client: K; watcher: boolean; size: Size | null }
  /** a client's terminal changed size (already bounded) */
  | { type: 'resized'; client: K; watcher: boolean; size: Size }
  /** a client went away */
  | { type: 'left'; client: K };

// tmux's rule, as a person expects it: claude takes the size of the terminal that attached or typed last;
// another terminal's resize is remembered for when it types. A watcher (the web face) never sets the size:
// it sees claude at the size the terminals give it. When the latest leaves, the size stays as it was (tmux
// keeps the last size too). `resize`: the size to give claude's pty now, or null when it keeps its own.
export function arbitrateSize<K>(
  state: SizeState<K>,
  event: SizeEvent<K>,
  current: Size,
): { state: SizeState<K>; resize: Size | null } {
  const changed = (size: Size | null): Size | null =>
    size !== null && (size.cols !== current.cols || size.rows !== current.rows) ? size : null;
  switch (event.type) {
    case 'attached':
      if (event.watcher) return { state, resize: null };
      return { state: { latest: event.client }, resize: changed(event.size) };
    case 'typed':
      if (event.watcher || state.latest === event.client) return { state, resize: null };
      return { state: { latest: event.client }, resize: changed(event.size) };
    case 'resized':
      if (event.watcher || state.latest !== event.client) return { state, resize: null };
      return { state, resize: changed(event.size) };
    case 'left':
      return { state: state.latest === event.client ? { latest: null } : state, resize: null };
  }
}

// With nobody attached, nobody's terminal answers claude's queries (cursor position, device attributes):
// the server's emulator does, so a successor starting unwatched does not wait on them. So it does when every
// terminal attached is a split view drawn from it (none of them answers). A plain terminal answers itself:
// two answers would reach claude as typed garbage.
export function emulatorAnswers(attached: ReadonlyArray<{ sharesScreen: boolean }>): boolean {
  return attached.every((client) => client.sharesScreen);
}

/** how the server answers a client's first message */
export type HelloVerdict =
  | { type: 'refuse'; reason: string }
  /** a query client: welcome it with the run's info, nothing more */
  | { type: 'query' }
  /** an attach client: paint it; a watcher is never followed for claude's size */
  | { type: 'attach'; watcher: boolean };

// A client speaks first with a hello of this server's wire version, or is refused in one line.
export function helloVerdict(
  message: { t: string; version?: number; role?: 'attach' | 'query'; watch?: boolean },
  wireVersion: number,
  mismatch: (version: number | undefined) => string,
): HelloVerdict {
  if (message.t !== 'hello') return { type: 'refuse', reason: 'a client must say hello first' };
  if (message.version !== wireVersion) return { type: 'refuse', reason: mismatch(message.version) };
  if (message.role === 'query') return { type: 'query' };
  return { type: 'attach', watcher: message.watch === true };
}

/** what ended a run from outside: `flower-pty kill`, a signal to the server, or nothing (it ended itself) */
export type EndedBy = 'kill' | string | null;

// The run's last word to its clients: a signal's code wins over what the run returned (as a shell reports
// it), a kill keeps the run's own (core/exit-code.ts's runExitCode), and the reason says which.
export function runEnding(endedBy: EndedBy, returned: number): { exitCode: number; reason: 'killed' | 'ended' } {
  return { exitCode: runExitCode(endedBy, returned), reason: endedBy === 'kill' ? 'killed' : 'ended' };
}
