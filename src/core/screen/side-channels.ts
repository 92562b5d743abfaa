// What claude tells a terminal besides the screen, and what of it flower-pty passes to the person's
// terminals: clipboard writes (OSC 52, claude's `/copy`), notifications (OSC 9, OSC 777 `notify;…`, kitty's
// OSC 99). A clipboard read (`?`) is never passed: a terminal that answered would hand the person's
// clipboard to the program asking, and the answer would reach claude as if typed. The keyboard modes and
// the cursor shape claude asks for are kept here too, for the split view to ask of the person's terminal
// while claude has the keys and to take back when it has not.

/** the OSC numbers passed to the person's terminals */
export const SIDE_CHANNEL_OSCS = [52, 9, 777, 99] as const;

/** the sequence to pass for OSC `ident` with `data`, or null when it is not passed */
export function sideChannel(ident: number, data: string): string | null {
  if (!(SIDE_CHANNEL_OSCS as readonly number[]).includes(ident)) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0006\u0008-\u001f]/.test(data)) return null; // an OSC's text holds no control character
  if (ident === 52) {
    const semi = data.indexOf(';');
    if (semi < 0) return null;
    const payload = data.slice(semi + 1);
    if (payload === '?' || !/^[A-Za-z0-9+/=]*$/.test(payload)) return null;
  }
  return `\u001b]${ident};${data}\u0007`;
}

/** the kitty keyboard protocol's flags stack and xterm's modifyOtherKeys level, as claude set them */
export interface KeyboardModes {
  /** the flags in force (0: none pushed) */
  kitty: number;
  /** CSI > 4 ; n m: 0 off, 1 or 2 */
  modifyOtherKeys: number;
}

export interface KeyboardState {
  readonly modes: KeyboardModes;
  /** CSI > flags u */
  push(flags: number): void;
  /** CSI < n u */
  pop(count: number): void;
  /** CSI = flags ; mode u (1 set, 2 add, 3 remove) */
  set(flags: number, mode: number): void;
  modifyOtherKeys(level: number): void;
  reset(): void;
}

// kitty keeps at most this many entries; older ones fall off the bottom
const MOST_PUSHED = 16;

export function createKeyboardState(): KeyboardState {
  let stack: number[] = [];
  let mok = 0;
  const top = () => stack[stack.length - 1] ?? 0;
  return {
    get modes() {
      return { kitty: top(), modifyOtherKeys: mok };
    },
    push(flags) {
      stack.push(flags & 0x1f);
      if (stack.length > MOST_PUSHED) stack.shift();
    },
    pop(count) {
      stack = stack.slice(0, Math.max(0, stack.length - Math.max(1, count)));
    },
    set(flags, mode) {
      const now = top();
      const next = mode === 2 ? now | flags : mode === 3 ? now & ~flags : flags;
      if (stack.length === 0) stack.push(next & 0x1f);
      else stack[stack.length - 1] = next & 0x1f;
    },
    modifyOtherKeys(level) {
      mok = level;
    },
    reset() {
      stack = [];
      mok = 0;
    },
  };
}
