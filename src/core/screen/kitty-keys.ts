// A key as a terminal sends it under the kitty keyboard protocol (CSI code ; modifiers u, which claude
// asks for and the split view then asks of the person's terminal), read as the legacy bytes the same key
// sends without it: flower-pty's own keys (the prefix, the document pane's, the help's) are read in both
// encodings, while claude still gets every key in the encoding it asked for.
// The other way too: what shift+enter sends on a terminal in the keyboard modes claude asked for (the web
// page's xterm.js knows neither mode, so the page encodes that key itself).
// https://sw.kovidgoyal.net/kitty/keyboard-protocol/

import type { KeyboardModes } from './side-channels.js';

const CSI_U = /^\u001b\[(\d+)(?::\d*)*(?:;(\d*)(?::(\d+))?)?(?:;[\d:]*)?u$/;

export interface LegacyKey {
  /** the bytes the key sends without the protocol ('' when it has none: a lone modifier, a function key
   * of the protocol's own) */
  key: string;
  /** a key's release (reported only with the protocol's event types flag): no key press of its own */
  release: boolean;
}

/** the legacy form of a CSI u key, or null when `key` is not one */
export function legacyKey(key: string): LegacyKey | null {
  const m = CSI_U.exec(key);
  if (!m) return null;
  const code = Number(m[1]);
  const mods = Math.max(0, Number(m[2] || 1) - 1);
  const release = m[3] === '3';
  const shift = mods & 1;
  const alt = mods & 2;
  const ctrl = mods & 4;
  // super, hyper, meta: no legacy form
  if (mods & 0x38 || (code >= 0xe000 && code <= 0xf8ff) || code > 0x10ffff) return { key: '', release };
  let ch = String.fromCodePoint(code);
  if (shift && /^[a-z]$/.test(ch)) ch = ch.toUpperCase();
  if (ctrl) {
    const upper = ch.toUpperCase().charCodeAt(0);
    if (ch === ' ' || ch === '@') ch = '\u0000';
    else if (upper >= 0x40 && upper <= 0x5f) ch = String.fromCharCode(upper - 0x40);
    else if (ch === '?') ch = '\u007f';
  }
  return { key: alt ? `\u001b${ch}` : ch, release };
}

/** the bytes shift+enter sends on a terminal in `modes`: `CSI 13;2u` once the kitty keyboard protocol is
 * pushed (any flags: disambiguate is the least), xterm's modifyOtherKeys form (`CSI 27;2;13~`, its default
 * formatOtherKeys) when that is on, else CR, as a plain terminal sends it (the same as Enter) */
export function shiftEnterKeys(modes: KeyboardModes): string {
  if (modes.kitty > 0) return '\u001b[13;2u';
  if (modes.modifyOtherKeys > 0) return '\u001b[27;2;13~';
  return '\r';
}
