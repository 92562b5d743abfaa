// The run server's wire protocol: one module, versioned, bounded frames. A frame is a 4-byte
// unsigned big-endian payload length, then the payload: the UTF-8 JSON of one message object.
import type { FaceCommand, RunShow, StatusView } from '../runtime/face.js';

export const WIRE_VERSION = 1;
// a screen repaint of 200x60 with styles is well under this
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;
const HEADER_BYTES = 4;

// What `ls`, `welcome` and `info` say about one live run.
export interface RunInfo {
  id: string;
  pid: number;
  cwd: string;
  workbench: string | null;
  step: string;
  /** ISO time the run started */
  started: string;
  clients: number;
  /** watchers attached (a web page): they see the run but never size claude; absent from older servers */
  watchers?: number;
  generation: number;
  phase: string;
  context: number;
  window: number;
  /** the latest full view (walk-away states live here too) */
  status: StatusView | null;
  /** ISO time the run entered its current state (phase or what it waits for); absent from older servers */
  since?: string;
  /** ISO time claude last wrote to its screen; absent from older servers */
  active?: string;
}

// An attach client on a terminal names it (`tty`): the server then opens that terminal and draws it
// itself, as tmux does, and the rest of the hello is what the face needs of the client's side.
export interface Hello {
  t: 'hello';
  version: number;
  role: 'attach' | 'query';
  cols?: number;
  rows?: number;
  face?: 'split' | 'plain';
  /** the client's terminal device (/dev/pts/N): the server draws it directly when it can open it */
  tty?: string;
  /** the terminal that started the run (plain keeps what was printed there before the first paint) */
  starter?: boolean;
  /** the client's $TERM, NO_COLOR and $FLOWER_PTY_PREFIX, for a face drawn by the server */
  term?: string;
  /** what else says what the client's terminal can show: $COLORTERM, $TERM_PROGRAM, whether $TMUX is set */
  colorterm?: string;
  termProgram?: string;
  tmux?: boolean;
  noColor?: boolean;
  prefix?: string;
  /** --plain's detach key (one control byte) */
  detachKey?: string;
  /** the step's document, shown before the server's own word on it */
  documentPath?: string;
  /** the client can show the chooser of every run: the split view's "prefix s" then detaches with `choose`;
   * in a `query` hello, a chooser lists this run from a terminal of `term` (server/split-warmup.ts) */
  chooser?: boolean;
  /** a watcher (the web face): painted and streamed like any attach client, but it never sizes claude's
   * pty, does not count as a terminal that can answer claude's queries, and hears `size` when claude's changes */
  watch?: boolean;
}

export type ClientMessage =
  | Hello
  | { t: 'input'; data: string }
  | { t: 'resize'; cols: number; rows: number }
  | { t: 'command'; command: FaceCommand }
  | { t: 'detach' }
  /** the client counted this many other runs of its person waiting for them (its split view says so) */
  | { t: 'elsewhere'; waiting: number }
  /** answered by { t: 'info' } */
  | { t: 'info' }
  /** end the run cleanly; answered by { t: 'bye' } when done */
  | { t: 'kill' }
  /** the editor the server asked for (`edit`) has ended */
  | { t: 'edited'; ok: boolean; problem?: string }
  /** a stream client (the web face) wants claude's screen again: answered by a `screen` in the stream's
   * order, everything broadcast before it in the screen and everything after it after it (a server that
   * takes this says `repaint: true` in its welcome; an older one would close the connection on it) */
  | { t: 'repaint' };

export type ServerMessage =
  /** `direct`: the server opened the client's terminal and draws it; face messages do not come on the wire;
   * `repaint`: the server answers the `repaint` request, and tells its watchers (`info`) when a terminal
   * attaches or goes (absent from older servers: they are asked for `info` instead) */
  | { t: 'welcome'; version: number; run: RunInfo; direct?: boolean; repaint?: boolean }
  /** a direct client runs the person's editor on this file in its terminal, then says `edited` */
  | { t: 'edit'; path: string }
  /** then the server closes the connection */
  | { t: 'refused'; reason: string }
  /** ANSI that repaints claude's current screen */
  | { t: 'screen'; data: string; cols: number; rows: number }
  /** claude's output (titles removed) */
  | { t: 'output'; data: string }
  /** what the run shows (its title, status, document, a line, its child's state): core/picture/run-show.ts,
   * carried as it is */
  | RunShow
  | { t: 'info'; run: RunInfo }
  /** to watchers only: claude's pty has a new size (another client's terminal) */
  | { t: 'size'; cols: number; rows: number }
  /** `choose`: detached because the person asked for the chooser ("prefix s"), which the client then shows */
  | { t: 'bye'; reason: 'ended' | 'detached' | 'killed'; exitCode?: number; message?: string; choose?: boolean };

// Frames one message. Throws a RangeError for a message over MAX_FRAME_BYTES: the peer would refuse
// it, so a sender of unbounded text (a document) must cut it first.
export function encodeFrame(message: ClientMessage | ServerMessage): Buffer {
  const json = JSON.stringify(message);
  const length = Buffer.byteLength(json, 'utf8');
  if (length > MAX_FRAME_BYTES)
    throw new RangeError(
      `wire: a '${message.t}' message of ${length} bytes is over the ${MAX_FRAME_BYTES}-byte frame limit`,
    );
  const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
  frame.writeUInt32BE(length, 0);
  frame.write(json, HEADER_BYTES, 'utf8');
  return frame;
}

export interface FrameReaderOptions<M> {
  maxBytes?: number;
  onMessage: (message: M) => void;
  onError: (reason: string) => void;
  validate: (value: unknown) => M | null;
}

export interface FrameReader {
  push(chunk: Buffer): void;
  /** the peer hung up: a partial frame left over is an error (reported once, like any other) */
  end(): void;
  /** bytes held of a frame not yet whole (0 between frames): what the owner bounds in time and in total */
  pending(): number;
}

// Incremental reader: push chunks, get whole messages. Throws nothing: a frame over maxBytes, bytes that
// are not UTF-8, invalid JSON, a non-object, or an unknown `t` calls onError once and the reader stops
// (the owner closes the socket). Chunks are kept as a list and joined only once a whole frame is in, so
// a big frame arriving in 64 KiB pieces costs one copy, and nothing beyond maxBytes is ever allocated.
export function createFrameReader<M>(opts: FrameReaderOptions<M>): FrameReader {
  const maxBytes = opts.maxBytes ?? MAX_FRAME_BYTES;
  // fatal: a lone surrogate or a cut sequence is garbage, not a U+FFFD the peer never meant
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let chunks: Buffer[] = [];
  let buffered = 0;
  let stopped = false;

  const fail = (reason: string): void => {
    stopped = true;
    chunks = [];
    buffered = 0;
    opts.onError(reason);
  };

  // Removes the first `count` bytes (count <= buffered); a copy only when they span chunks.
  const take = (count: number): Buffer => {
    if (count === 0) return Buffer.alloc(0); // an empty payload: the header may have been the last byte in
    const first = chunks[0]!;
    if (first.length >= count) {
      const out = first.subarray(0, count);
      if (first.length === count) chunks.shift();
      else chunks[0] = first.subarray(count);
      buffered -= count;
      return out;
    }
    const out = Buffer.allocUnsafe(count);
    let filled = 0;
    while (filled < count) {
      const head = chunks[0]!;
      const want = Math.min(head.length, count - filled);
      head.copy(out, filled, 0, want);
      filled += want;
      if (want === head.length) chunks.shift();
      else chunks[0] = head.subarray(want);
    }
    buffered -= count;
    return out;
  };

  const peekLength = (): number => {
    const first = chunks[0]!;
    if (first.length >= HEADER_BYTES) return first.readUInt32BE(0);
    const header = Buffer.allocUnsafe(HEADER_BYTES);
    let filled = 0;
    for (const chunk of chunks) {
      filled += chunk.copy(header, filled, 0, Math.min(chunk.length, HEADER_BYTES - filled));
      if (filled === HEADER_BYTES) break;
    }
    return header.readUInt32BE(0);
  };

  const decode = (payload: Buffer): M | string => {
    let value: unknown;
    try {
      value = JSON.parse(decoder.decode(payload));
    } catch {
      // JSON.parse in V8 is not recursive, yet a RangeError (deep or huge input) is caught here all the same
      return 'a frame that is not UTF-8 JSON';
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return 'a frame that is not a message object';
    const message = opts.validate(value);
    if (message === null)
      return `an unknown or malformed message (t: ${JSON.stringify(String((value as { t?: unknown }).t)).slice(0, 40)})`;
    return message;
  };

  return {
    push(chunk: Buffer): void {
      if (stopped || chunk.length === 0) return;
      chunks.push(chunk);
      buffered += chunk.length;
      while (!stopped && buffered >= HEADER_BYTES) {
        const length = peekLength();
        if (length > maxBytes) return fail(`a frame of ${length} bytes is over the ${maxBytes}-byte limit`);
        if (buffered < HEADER_BYTES + length) return;
        take(HEADER_BYTES);
        const result = decode(take(length));
        if (typeof result === 'string') return fail(result);
        opts.onMessage(result);
      }
    },
    end(): void {
      if (stopped) return;
      stopped = true;
      if (buffered > 0) fail(`the peer hung up in the middle of a frame (${buffered} bytes left over)`);
    },
    pending(): number {
      return buffered;
    },
  };
}

// ---- guards: each returns a fresh object holding only the known fields, or null ----

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
// a terminal dimension: tmux caps a window at 10000 cells a side
const isDimension = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 10000;
const isOneOf = <T extends string>(values: readonly T[], v: unknown): v is T =>
  typeof v === 'string' && (values as readonly string[]).includes(v);
// A path or a run's id: text the OS or a file name can hold, so never a NUL (native/attach-client.c reads
// these as C strings and refuses the same ones).
const isPathText = (v: unknown): v is string => isString(v) && !v.includes('\u0000');
// A process's exit status: what the native attach client can exit with too (4294967296 would be 0 there).
const isExitCode = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 255;
const isNullable = <T>(guard: (v: unknown) => v is T, v: unknown): v is T | null => v === null || guard(v);
const isShortString =
  (max: number) =>
  (v: unknown): v is string =>
    typeof v === 'string' && v.length <= max;
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
// the hello's optional strings and flags, each with its guard (a path is bounded like PATH_MAX)
const HELLO_EXTRAS = {
  tty: isShortString(64),
  starter: isBoolean,
  term: isShortString(64),
  colorterm: isShortString(64),
  termProgram: isShortString(64),
  tmux: isBoolean,
  noColor: isBoolean,
  prefix: isShortString(16),
  detachKey: isShortString(1),
  documentPath: isShortString(4096),
  watch: isBoolean,
  chooser: isBoolean,
} as const;

const HOST_COMMANDS: readonly FaceCommand[] = ['force-handoff', 'hold', 'release', 'quit', 'edit-document'];
const PHASES: readonly StatusView['phase'][] = [
  'starting',
  'working',
  'near',
  'writing',
  'review',
  'respawning',
  'stopped',
];
const BYE_REASONS = ['ended', 'detached', 'killed'] as const;

// A StatusView with every field of the right type, or null.
export function parseStatusView(v: unknown): StatusView | null {
  if (!isObject(v) || !isOneOf(PHASES, v.phase)) return null;
  const numbers = ['context', 'window', 'at', 'warnAt', 'generation', 'maxGenerations'] as const;
  if (!numbers.every((k) => isFiniteNumber(v[k]))) return null;
  if (typeof v.handoff !== 'boolean' || typeof v.held !== 'boolean' || !isString(v.note)) return null;
  if (
    !isNullable(isFiniteNumber, v.reviewLeft) ||
    !isNullable(isString, v.workbench) ||
    !isNullable(isString, v.documentPath)
  )
    return null;
  // What needs a person: absent from an older server's frames, so a missing one reads as nothing.
  if (v.attention !== undefined && !isNullable(isString, v.attention)) return null;
  if (v.deadEnds !== undefined && !isNullable(isString, v.deadEnds)) return null;
  if (v.coverage !== undefined && !isNullable(isString, v.coverage)) return null;
  return {
    phase: v.phase,
    context: v.context as number,
    window: v.window as number,
    at: v.at as number,
    warnAt: v.warnAt as number,
    generation: v.generation as number,
    maxGenerations: v.maxGenerations as number,
    handoff: v.handoff,
    reviewLeft: v.reviewLeft,
    held: v.held,
    workbench: v.workbench,
    documentPath: v.documentPath,
    note: v.note,
    attention: typeof v.attention === 'string' ? v.attention : null,
    ...(typeof v.deadEnds === 'string' ? { deadEnds: v.deadEnds } : {}),
    ...(typeof v.coverage === 'string' ? { coverage: v.coverage } : {}),
  };
}

// A RunInfo with every field of the right type, or null.
export function parseRunInfo(v: unknown): RunInfo | null {
  if (!isObject(v)) return null;
  if (!isPathText(v.id) || !isString(v.cwd) || !isString(v.step) || !isString(v.started) || !isString(v.phase))
    return null;
  const numbers = ['pid', 'clients', 'generation', 'context', 'window'] as const;
  if (!numbers.every((k) => isFiniteNumber(v[k]))) return null;
  if (!isNullable(isPathText, v.workbench)) return null;
  const status = v.status === null ? null : parseStatusView(v.status);
  if (v.status !== null && status === null) return null;
  if (v.watchers !== undefined && !isFiniteNumber(v.watchers)) return null;
  if ((v.since !== undefined && !isString(v.since)) || (v.active !== undefined && !isString(v.active))) return null;
  return {
    ...(v.watchers !== undefined ? { watchers: v.watchers as number } : {}),
    ...(v.since !== undefined ? { since: v.since as string } : {}),
    ...(v.active !== undefined ? { active: v.active as string } : {}),
    id: v.id,
    pid: v.pid as number,
    cwd: v.cwd,
    workbench: v.workbench,
    step: v.step,
    started: v.started,
    clients: v.clients as number,
    generation: v.generation as number,
    phase: v.phase,
    context: v.context as number,
    window: v.window as number,
    status,
  };
}

export function parseClientMessage(v: unknown): ClientMessage | null {
  if (!isObject(v)) return null;
  switch (v.t) {
    case 'hello': {
      if (!Number.isInteger(v.version) || !isOneOf(['attach', 'query'] as const, v.role)) return null;
      if (v.cols !== undefined && !isDimension(v.cols)) return null;
      if (v.rows !== undefined && !isDimension(v.rows)) return null;
      if (v.face !== undefined && !isOneOf(['split', 'plain'] as const, v.face)) return null;
      const hello: Hello = { t: 'hello', version: v.version as number, role: v.role };
      if (v.cols !== undefined) hello.cols = v.cols as number;
      if (v.rows !== undefined) hello.rows = v.rows as number;
      if (v.face !== undefined) hello.face = v.face;
      for (const [key, guard] of Object.entries(HELLO_EXTRAS) as Array<
        [keyof typeof HELLO_EXTRAS, (x: unknown) => boolean]
      >) {
        if (v[key] === undefined) continue;
        if (!guard(v[key])) return null;
        (hello as unknown as Fields)[key] = v[key];
      }
      return hello;
    }
    case 'input':
      return isString(v.data) ? { t: 'input', data: v.data } : null;
    case 'resize':
      return isDimension(v.cols) && isDimension(v.rows) ? { t: 'resize', cols: v.cols, rows: v.rows } : null;
    case 'command':
      return isOneOf(HOST_COMMANDS, v.command) ? { t: 'command', command: v.command } : null;
    case 'detach':
      return { t: 'detach' };
    case 'elsewhere':
      return Number.isInteger(v.waiting) && (v.waiting as number) >= 0 && (v.waiting as number) <= 10_000
        ? { t: 'elsewhere', waiting: v.waiting as number }
        : null;
    case 'info':
      return { t: 'info' };
    case 'kill':
      return { t: 'kill' };
    case 'repaint':
      return { t: 'repaint' };
    case 'edited': {
      if (!isBoolean(v.ok) || (v.problem !== undefined && !isShortString(1000)(v.problem))) return null;
      return v.problem === undefined ? { t: 'edited', ok: v.ok } : { t: 'edited', ok: v.ok, problem: v.problem };
    }
    default:
      return null;
  }
}

export function parseServerMessage(v: unknown): ServerMessage | null {
  if (!isObject(v)) return null;
  switch (v.t) {
    case 'welcome': {
      const run = parseRunInfo(v.run);
      if (
        !Number.isInteger(v.version) ||
        !run ||
        (v.direct !== undefined && !isBoolean(v.direct)) ||
        (v.repaint !== undefined && !isBoolean(v.repaint))
      )
        return null;
      const welcome: Extract<ServerMessage, { t: 'welcome' }> = { t: 'welcome', version: v.version as number, run };
      if (v.direct !== undefined) welcome.direct = v.direct;
      if (v.repaint !== undefined) welcome.repaint = v.repaint;
      return welcome;
    }
    case 'edit':
      return isPathText(v.path) ? { t: 'edit', path: v.path } : null;
    case 'refused':
      return isString(v.reason) ? { t: 'refused', reason: v.reason } : null;
    case 'screen':
      return isString(v.data) && isDimension(v.cols) && isDimension(v.rows)
        ? { t: 'screen', data: v.data, cols: v.cols, rows: v.rows }
        : null;
    case 'output':
      return isString(v.data) ? { t: 'output', data: v.data } : null;
    case 'title':
      return isString(v.title) ? { t: 'title', title: v.title } : null;
    case 'status': {
      const view = parseStatusView(v.view);
      return view ? { t: 'status', view } : null;
    }
    case 'document':
      return isString(v.path) && isNullable(isString, v.text) ? { t: 'document', path: v.path, text: v.text } : null;
    case 'message':
      return isString(v.text) ? { t: 'message', text: v.text } : null;
    case 'child':
      return isOneOf(['started', 'ended'] as const, v.state) ? { t: 'child', state: v.state } : null;
    case 'info': {
      const run = parseRunInfo(v.run);
      return run ? { t: 'info', run } : null;
    }
    case 'size':
      return isDimension(v.cols) && isDimension(v.rows) ? { t: 'size', cols: v.cols, rows: v.rows } : null;
    case 'bye': {
      if (!isOneOf(BYE_REASONS, v.reason)) return null;
      if (v.exitCode !== undefined && !isExitCode(v.exitCode)) return null;
      if (v.message !== undefined && !isString(v.message)) return null;
      if (v.choose !== undefined && !isBoolean(v.choose)) return null;
      const bye: Extract<ServerMessage, { t: 'bye' }> = { t: 'bye', reason: v.reason };
      if (v.choose === true) bye.choose = true;
      if (v.exitCode !== undefined) bye.exitCode = v.exitCode as number;
      if (v.message !== undefined) bye.message = v.message;
      return bye;
    }
    default:
      return null;
  }
}

// The one line a server sends in `refused` when a client speaks another wire version.
export function versionMismatchReason(clientVersion: unknown): string {
  return `flower-pty (wire ${String(clientVersion).slice(0, 20)}) cannot attach to a run served by another version (wire ${WIRE_VERSION}); use the same flower-pty`;
}
