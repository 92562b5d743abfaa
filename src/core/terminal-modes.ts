// Tracks the private terminal modes the child switched on (alternate screen, mouse, bracketed
// paste, hidden cursor...), so the terminal can be given back clean even when the child crashed.

const RESTORABLE = new Set([47, 1047, 1049, 1000, 1002, 1003, 1005, 1006, 1015, 1004, 2004, 2031, 1]);
const CARRY = 24; // a mode sequence split across chunks is at most this long

export interface ModeTracker {
  push(output: string): void;
  /** the sequence that undoes everything still on; '' when the terminal is clean */
  resetSequence(): string;
  /** whether the child has this private mode on now (e.g. 1006, SGR mouse encoding) */
  isOn(mode: number): boolean;
}

export function createModeTracker(): ModeTracker {
  const on = new Set<number>();
  let cursorHidden = false;
  let carry = '';
  return {
    push(output) {
      const text = carry + output;
      for (const m of text.matchAll(/\u001b\[\?([\d;]+)([hl])/g)) {
        for (const part of (m[1] ?? '').split(';')) {
          const mode = Number(part);
          if (mode === 25) cursorHidden = m[2] === 'l';
          else if (RESTORABLE.has(mode)) {
            if (m[2] === 'h') on.add(mode);
            else on.delete(mode);
          }
        }
      }
      // keep an unfinished sequence for the next chunk; a finished one is already counted
      const lastEsc = text.lastIndexOf('\u001b');
      carry = lastEsc !== -1 && text.length - lastEsc < CARRY && !/[hl]/.test(text.slice(lastEsc + 2)) ? text.slice(lastEsc) : '';
    },
    isOn(mode) {
      return on.has(mode);
    },
    resetSequence() {
      let seq = '';
      // leave the alternate screen last so the other resets apply to the main screen too
      const ordered = [...on].sort((a, b) => (a === 1049 || a === 1047 || a === 47 ? 1 : 0) - (b === 1049 || b === 1047 || b === 47 ? 1 : 0));
      for (const mode of ordered) seq += `\u001b[?${mode}l`;
      if (cursorHidden) seq += '\u001b[?25h';
      if (seq) seq += '\u001b[0m';
      return seq;
    },
  };
}
