// Tracks the private terminal modes the child switched on (alternate screen, mouse, bracketed
// paste, hidden cursor, a synchronized update begun...), the kitty keyboard flags it pushed, its
// modifyOtherKeys and cursor shape, so the terminal can be given back clean even when the child crashed:
// no terminal left sending CSI u to a shell, or frozen in an update that never ends.

const RESTORABLE = new Set([47, 1047, 1049, 1000, 1002, 1003, 1005, 1006, 1015, 1004, 2004, 2031, 2026, 1]);
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
  let pushed = 0; // kitty keyboard entries the child pushed and has not popped
  let otherKeys = false;
  let shaped = false;
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
      for (const m of text.matchAll(/\u001b\[([<>=])([\d;]*)u/g)) {
        const n = Number((m[2] ?? '').split(';')[0] || (m[1] === '<' ? 1 : 0));
        if (m[1] === '>') pushed++;
        else if (m[1] === '<') pushed = Math.max(0, pushed - Math.max(1, n));
        else if (pushed === 0) pushed = 1; // flags set with nothing pushed: one pop clears them too
      }
      for (const m of text.matchAll(/\u001b\[>4(?:;(\d+))?m/g)) otherKeys = Number(m[1] ?? 0) > 0;
      for (const m of text.matchAll(/\u001b\[(\d*) q/g)) shaped = Number(m[1] || 0) !== 0;
      // keep an unfinished sequence for the next chunk; a finished one is already counted
      const lastEsc = text.lastIndexOf('\u001b');
      carry =
        lastEsc !== -1 && text.length - lastEsc < CARRY && !/[hlumq]/.test(text.slice(lastEsc + 2))
          ? text.slice(lastEsc)
          : '';
    },
    isOn(mode) {
      return on.has(mode);
    },
    resetSequence() {
      let seq = '';
      // leave the alternate screen last so the other resets apply to the main screen too
      const ordered = [...on].sort(
        (a, b) => (a === 1049 || a === 1047 || a === 47 ? 1 : 0) - (b === 1049 || b === 1047 || b === 47 ? 1 : 0),
      );
      for (const mode of ordered) seq += `\u001b[?${mode}l`;
      if (cursorHidden) seq += '\u001b[?25h';
      if (pushed) seq += `\u001b[<${pushed}u`;
      if (otherKeys) seq += '\u001b[>4m';
      if (shaped) seq += '\u001b[0 q';
      if (seq) seq += '\u001b[0m';
      return seq;
    },
  };
}
