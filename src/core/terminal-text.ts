// The one boundary between text flower-pty did not compose (a path, a folder or step name, a manifest or
// config field, a model name, a server's note, a title) and a terminal. A terminal acts on C0 controls,
// DEL and C1 controls (CSI is U+009B as a code point, and 0x9B as a lone byte to a terminal not in UTF-8),
// and reorders what follows a bidi control: each becomes a visible escape, so such text can neither set the
// clipboard (OSC 52), retitle the window, ask the terminal for an answer that arrives as typed input
// (CSI 6n), nor hide what it says. Everything else, CJK and emoji included, is left as it is.
//
// The escapes are JSON's own for all but C0 (`\u009b`, `\u202e`), so JSON that went through here (JSON.stringify
// has already escaped C0 its own way) still reads back to the same value.

// What a terminal acts on (C0, DEL, C1) or reorders the text after (the bidi controls, and the line and
// paragraph separators some terminals break on). Every unit in the set is a whole code point (none is a
// surrogate), so one pass over a string's UTF-16 units finds them.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
const isControl = (code: number): boolean => CONTROL.test(String.fromCodePoint(code));

// C0 as `\x1b`; so is a byte that is not part of a well-formed UTF-8 sequence (the lone 0x9B a terminal
// not in UTF-8 reads as CSI).
const rawByte = (byte: number): string => `\\x${byte.toString(16).padStart(2, '0')}`;

function escapeCode(code: number): string {
  if (code < 0x20) return rawByte(code);
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

// The length of the well-formed UTF-8 sequence at `i` (RFC 3629: no overlong form, no surrogate, nothing
// past U+10FFFF), or 0.
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] as number;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => {
    const b = bytes[i + k];
    return b !== undefined && b >= lo && b <= hi;
  };
  if (lead >= 0xc2 && lead <= 0xdf) return cont(1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const lo = lead === 0xe0 ? 0xa0 : 0x80;
    const hi = lead === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const lo = lead === 0xf0 ? 0x90 : 0x80;
    const hi = lead === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

function decodeBytes(bytes: Uint8Array, keep: (code: number) => boolean): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      out += isControl(b) && !keep(b) ? escapeCode(b) : String.fromCharCode(b);
      i++;
      continue;
    }
    const n = sequenceLength(bytes, i);
    if (n === 0) {
      out += rawByte(b);
      i++;
      continue;
    }
    let code = b & (0xff >> (n + 1));
    for (let k = 1; k < n; k++) code = (code << 6) | ((bytes[i + k] as number) & 0x3f);
    out += isControl(code) ? escapeCode(code) : String.fromCodePoint(code);
    i += n;
  }
  return out;
}

export interface TerminalTextOptions {
  /** whole lines flower-pty composed around the foreign text: their line feeds and tabs stay */
  lines?: boolean;
}

/** `text` (or bytes, read as UTF-8) safe to write to a terminal: every control shown as a visible escape */
export function terminalText(text: string | Uint8Array, o: TerminalTextOptions = {}): string {
  const keep = (code: number): boolean => Boolean(o.lines) && (code === 0x0a || code === 0x09);
  if (typeof text !== 'string') return decodeBytes(text, keep);
  return text.replace(CONTROLS, (c) => {
    const code = c.charCodeAt(0);
    return keep(code) ? c : escapeCode(code);
  });
}

/** a value as JSON for a terminal (`--json`): C1 and bidi controls, which JSON.stringify leaves raw, escaped too */
export function terminalJson(value: unknown, space?: number): string {
  return terminalText(JSON.stringify(value, null, space), { lines: true });
}
