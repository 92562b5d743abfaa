// Modes the child asks of "its" terminal that only the real, outer terminal can provide: bracketed
// paste (so pastes arrive marked), focus reports and mouse reports (always asked of the outer terminal
// as any-event + SGR, so coordinates past column 223 survive; the face filters and re-encodes them
// for the child), and, while claude has the keys, its cursor shape (DECSCUSR) and keyboard modes (the
// kitty keyboard protocol's flags, pushed on the terminal's own stack and popped again; modifyOtherKeys).
// Mirrored there; all off on every hand-back, so no terminal is left sending CSI u to a shell.

const MODE = { paste: 2004, focus: 1004, mouse: 1003 } as const;
const SGR = 1006;

export interface OuterWant {
  paste: boolean;
  focus: boolean;
  mouse: boolean;
  /** DECSCUSR n (0: the terminal's own shape) */
  cursorShape?: number;
  /** the kitty keyboard flags to push (0: nothing pushed) */
  kitty?: number;
  /** modifyOtherKeys level (0: off) */
  modifyOtherKeys?: number;
}

export interface OuterModes {
  /** bring the outer terminal in line with what the child wants; `force` re-sends everything; `write`:
   *  where the sequence goes this time (a frame's own buffer), else the terminal's writer */
  sync(want: OuterWant, force?: boolean, write?: (sequence: string) => void): void;
  /** the sequence that turns every mirrored mode off (the state is forgotten, so sync re-sends) */
  off(): string;
}

export function createOuterModes(write: (sequence: string) => void): OuterModes {
  const on = { paste: false, focus: false, mouse: false };
  let shape = 0;
  let kitty = 0;
  let mok = 0;
  const keysOff = (): string => {
    let seq = '';
    if (kitty) seq += '\u001b[<u';
    if (mok) seq += '\u001b[>4m';
    if (shape) seq += '\u001b[0 q';
    kitty = 0;
    mok = 0;
    shape = 0;
    return seq;
  };
  return {
    sync(want, force = false, writeHere = write) {
      let seq = '';
      for (const key of ['paste', 'focus', 'mouse'] as const) {
        if (want[key] !== on[key] || force) {
          seq += `\u001b[?${MODE[key]}${want[key] ? 'h' : 'l'}`;
          if (key === 'mouse') seq += `\u001b[?${SGR}${want[key] ? 'h' : 'l'}`;
        }
        on[key] = want[key];
      }
      const wantShape = want.cursorShape ?? 0;
      if (wantShape !== shape) seq += `\u001b[${wantShape} q`;
      shape = wantShape;
      const wantKitty = want.kitty ?? 0;
      if (wantKitty !== kitty) {
        // one entry of ours on the terminal's stack at most: replaced by a pop and a push
        if (kitty) seq += '\u001b[<u';
        if (wantKitty) seq += `\u001b[>${wantKitty}u`;
      }
      kitty = wantKitty;
      const wantMok = want.modifyOtherKeys ?? 0;
      if (wantMok !== mok) seq += wantMok ? `\u001b[>4;${wantMok}m` : '\u001b[>4m';
      mok = wantMok;
      if (seq) writeHere(seq);
    },
    off() {
      on.paste = false;
      on.focus = false;
      on.mouse = false;
      return `\u001b[?${MODE.paste}l\u001b[?${MODE.focus}l\u001b[?${MODE.mouse}l\u001b[?${SGR}l${keysOff()}`;
    },
  };
}
