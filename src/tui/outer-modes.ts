// Modes the child asks of "its" terminal that only the real, outer terminal can provide: bracketed
// paste (so pastes arrive marked), focus reports and mouse reports (always asked of the outer terminal
// as any-event + SGR, so coordinates past column 223 survive; the face filters and re-encodes them
// for the child). Mirrored there; all off on every hand-back.

const MODE = { paste: 2004, focus: 1004, mouse: 1003 } as const;
const SGR = 1006;

export interface OuterModes {
  /** bring the outer terminal in line with what the child wants; `force` re-sends everything */
  sync(want: { paste: boolean; focus: boolean; mouse: boolean }, force?: boolean): void;
  /** the sequence that turns every mirrored mode off (the state is forgotten, so sync re-sends) */
  off(): string;
}

export function createOuterModes(write: (sequence: string) => void): OuterModes {
  const on = { paste: false, focus: false, mouse: false };
  return {
    sync(want, force = false) {
      let seq = '';
      for (const key of ['paste', 'focus', 'mouse'] as const) {
        if (want[key] !== on[key] || force) {
          seq += `\u001b[?${MODE[key]}${want[key] ? 'h' : 'l'}`;
          if (key === 'mouse') seq += `\u001b[?${SGR}${want[key] ? 'h' : 'l'}`;
        }
        on[key] = want[key];
      }
      if (seq) write(seq);
    },
    off() {
      on.paste = false;
      on.focus = false;
      on.mouse = false;
      return `\u001b[?${MODE.paste}l\u001b[?${MODE.focus}l\u001b[?${MODE.mouse}l\u001b[?${SGR}l`;
    },
  };
}
