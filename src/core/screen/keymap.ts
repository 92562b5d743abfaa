// The split view's keyboard: splits raw terminal input into keys, routes them to claude or to a
// tmux-style prefix command, and undoes the outer terminal's cursor-key mode for the child. Keys sent
// under the kitty keyboard protocol (CSI u) are read as their legacy bytes for flower-pty's own keys and
// go to claude as they came (kitty-keys.ts).

import { legacyKey } from './kitty-keys.js';

export type PaneCommand =
  | 'focus'
  | 'scroll-up'
  | 'scroll-down'
  | 'page-up'
  | 'page-down'
  | 'top'
  | 'bottom'
  | 'edit'
  | 'force-handoff'
  | 'hold-toggle'
  | 'toggle-document'
  | 'detach'
  | 'choose'
  | 'quit'
  | 'help';

export type KeyAction =
  | { type: 'send'; data: string }
  | { type: 'command'; command: PaneCommand }
  /** a key that means nothing where it was pressed (after the prefix, or in the document pane) */
  | { type: 'unknown'; key: string; where: 'prefix' | 'document' };

export type Focus = 'session' | 'document';

export interface KeyContext {
  focus: Focus;
  /** the child asked for application cursor keys (DECCKM); arrows are re-encoded to match */
  applicationCursor: boolean;
}

export interface KeyRouter {
  readonly prefix: string;
  push(data: string, ctx: KeyContext): KeyAction[];
  /** true after the prefix, waiting for the command key */
  readonly armed: boolean;
  /** whether push() would send `data` to claude as it is, one send and nothing else: printable text typed
   * in the session pane, nothing armed, no paste open. A caller may then send it without routing it (a
   * keystroke's echo waits on this path) */
  passes(data: string, focus: Focus): boolean;
  /** whether any text of passThroughTable()'s bytes would pass (passes()) now: the table may be open */
  passing(focus: Focus): boolean;
}

// Claude Code binds C-c C-d C-r C-o C-t C-g C-s C-l C-v C-z and Esc; C-] and C-\ are free.
export const DEFAULT_PREFIX = 'C-]';

const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';
// Text that is its own keys, none of them the prefix (a control key), an escape or a paste's start.
const PRINTABLE = /^[\u0020-\u007e]+$/;

/** The bytes a read may be made of to go to claude unrouted while KeyRouter.passing() holds (a native
 * relay reads them): PRINTABLE's, one byte each. Never the prefix (a control key), an escape, a mouse
 * report, a paste's start, nor a UTF-8 byte (a character cut between two reads would split). */
export function passThroughTable(): Uint8Array {
  const table = new Uint8Array(256);
  for (let b = 0; b < 0x80; b++) table[b] = PRINTABLE.test(String.fromCharCode(b)) ? 1 : 0;
  return table;
}

// Reads "C-]", "C-\\", "C-a", "^]" as the control byte; anything else is refused with the fix.
export function parsePrefix(name: string): { byte: string } | { problem: string } {
  const m = /^(?:C-|\^)(.)$/i.exec(name.trim());
  const ch = m?.[1];
  if (ch !== undefined) {
    const code = ch.toUpperCase().charCodeAt(0);
    // @ A..Z [ \ ] ^ _ map to 0x00..0x1f; C-@ (NUL) and C-[ (Esc) would break everything else.
    if (code > 0x40 && code <= 0x5f && code !== 0x5b) {
      const byte = String.fromCharCode(code - 0x40);
      if (!CLAUDE_KEYS.has(byte)) return { byte };
      return { problem: `prefix ${name} is one of Claude Code's own keys: choose C-] or C-\\` };
    }
  }
  return { problem: `prefix "${name}" is not a control key: write it as C-] or C-\\ (C-a … C-z, C-\\, C-], C-^, C-_)` };
}

const CLAUDE_KEYS = new Set(
  ['c', 'd', 'r', 'o', 't', 'g', 's', 'l', 'v', 'z', 'm', 'i', 'j', 'h'].map((c) =>
    String.fromCharCode(c.charCodeAt(0) - 0x60),
  ),
);

// The name a person reads in the status bar and help: "\x1d" -> "C-]".
export function prefixName(byte: string): string {
  const code = byte.charCodeAt(0);
  return code < 0x20 ? `C-${String.fromCharCode(code + 0x60 >= 0x7b ? code + 0x40 : code + 0x60)}` : byte;
}

// One key per token: CSI (with params), SS3, Alt+key, X10 mouse, or one code point. A chunk
// boundary inside a sequence only splits the token; bytes still reach the child in order.
export function splitKeys(data: string): string[] {
  const keys: string[] = [];
  let i = 0;
  while (i < data.length) {
    const c = data[i];
    if (c !== '\u001b' || i + 1 >= data.length) {
      const cp = data.codePointAt(i) ?? 0;
      const len = cp > 0xffff ? 2 : 1;
      keys.push(data.slice(i, i + len));
      i += len;
      continue;
    }
    const next = data[i + 1];
    if (next === '[') {
      if (data[i + 2] === 'M') {
        keys.push(data.slice(i, i + 6)); // X10 mouse: ESC [ M b x y
        i += 6;
        continue;
      }
      let j = i + 2;
      while (j < data.length && !/[\u0040-\u007e]/.test(data[j] ?? '')) j++;
      keys.push(data.slice(i, j + 1));
      i = j + 1;
    } else if (next === 'O' && i + 2 < data.length) {
      keys.push(data.slice(i, i + 3));
      i += 3;
    } else {
      const cp = data.codePointAt(i + 1) ?? 0;
      const len = cp > 0xffff ? 3 : 2;
      keys.push(data.slice(i, i + len)); // Alt+key, or Esc Esc
      i += len;
    }
  }
  return keys;
}

// blessed puts the outer terminal in application cursor mode (docs/libraries.md §2), so arrows arrive as
// ESC O A; the child gets the form its own DECCKM state asks for. Modified arrows pass as they are.
export function translateCursorKey(key: string, applicationCursor: boolean): string {
  const m = /^\u001b[O[]([ABCDHF])$/.exec(key);
  if (!m) return key;
  return `${applicationCursor ? '\u001bO' : '\u001b['}${m[1]}`;
}

const AFTER_PREFIX: Record<string, PaneCommand> = {
  '\t': 'focus',
  j: 'scroll-down',
  k: 'scroll-up',
  '\u001b[B': 'scroll-down',
  '\u001bOB': 'scroll-down',
  '\u001b[A': 'scroll-up',
  '\u001bOA': 'scroll-up',
  '\u001b[5~': 'page-up',
  '\u001b[6~': 'page-down',
  e: 'edit',
  h: 'force-handoff',
  p: 'hold-toggle',
  z: 'toggle-document',
  d: 'detach',
  s: 'choose',
  q: 'quit',
  '?': 'help',
};

// In the document pane the keys of a pager scroll it; Tab, Esc and q give the keyboard back.
const IN_DOCUMENT: Record<string, PaneCommand> = {
  j: 'scroll-down',
  k: 'scroll-up',
  '\u001b[B': 'scroll-down',
  '\u001bOB': 'scroll-down',
  '\r': 'scroll-down',
  '\u001b[A': 'scroll-up',
  '\u001bOA': 'scroll-up',
  '\u001b[5~': 'page-up',
  b: 'page-up',
  '\u0002': 'page-up',
  '\u001b[6~': 'page-down',
  ' ': 'page-down',
  '\u0006': 'page-down',
  g: 'top',
  '\u001b[H': 'top',
  '\u001bOH': 'top',
  '\u001b[1~': 'top',
  G: 'bottom',
  '\u001b[F': 'bottom',
  '\u001bOF': 'bottom',
  '\u001b[4~': 'bottom',
  '\t': 'focus',
  '\u001b': 'focus',
  q: 'focus',
  '?': 'help',
};

export function createKeyRouter(prefix: string): KeyRouter {
  let armed = false;
  let inPaste = false;
  const passing = (focus: Focus): boolean => !armed && !inPaste && focus === 'session';

  return {
    prefix,
    get armed() {
      return armed;
    },
    passes(data, focus) {
      return passing(focus) && PRINTABLE.test(data);
    },
    passing,
    push(data, ctx) {
      const actions: KeyAction[] = [];
      let pending = '';
      const send = (s: string) => (pending += s);
      const emit = (a: KeyAction) => {
        if (pending) actions.push({ type: 'send', data: pending });
        pending = '';
        actions.push(a);
      };
      let rest = data;
      while (rest.length > 0) {
        if (inPaste) {
          // A paste is the person's text: never a prefix, never translated, sent whole.
          const end = rest.indexOf(PASTE_END);
          if (end === -1) {
            if (ctx.focus === 'session') send(rest);
            rest = '';
          } else {
            if (ctx.focus === 'session') send(rest.slice(0, end + PASTE_END.length));
            rest = rest.slice(end + PASTE_END.length);
            inPaste = false;
          }
          continue;
        }
        const start = rest.indexOf(PASTE_START);
        const keysPart = start === -1 ? rest : rest.slice(0, start);
        for (const sent of splitKeys(keysPart)) {
          const legacy = sent.endsWith('u') ? legacyKey(sent) : null;
          // a key's release (kitty's event types) is claude's when claude has the keys, else nothing
          if (legacy?.release && (armed || ctx.focus === 'document')) continue;
          const key = legacy && !legacy.release ? legacy.key : sent;
          if (armed) {
            armed = false;
            if (key === prefix)
              send(sent); // the prefix twice: claude gets it, in the encoding it asked for
            else if (key === '\u001b')
              continue; // Esc after the prefix cancels it quietly
            else {
              const command = AFTER_PREFIX[key];
              emit(command ? { type: 'command', command } : { type: 'unknown', key, where: 'prefix' });
            }
          } else if (key === prefix) {
            armed = true;
          } else if (ctx.focus === 'document') {
            const command = IN_DOCUMENT[key];
            emit(command ? { type: 'command', command } : { type: 'unknown', key, where: 'document' });
          } else if (legacy) {
            send(sent);
          } else {
            send(translateCursorKey(key, ctx.applicationCursor));
          }
        }
        if (start === -1) rest = '';
        else {
          armed = false;
          inPaste = true;
          if (ctx.focus === 'session') send(PASTE_START);
          rest = rest.slice(start + PASTE_START.length);
        }
      }
      if (pending) actions.push({ type: 'send', data: pending });
      return actions;
    },
  };
}
