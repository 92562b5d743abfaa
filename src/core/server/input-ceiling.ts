// How much typed input may wait for claude. A client's `input` frame is written to claude's pty; while
// claude does not read (stopped, hung) the kernel's small pty buffer fills and the rest waits in the run
// server's memory (the relay's queue, or the Node writer's), so a client sending frames on end grows the
// server without bound. What waits is counted as the bytes typed since claude last wrote anything: a
// claude that reads its keys answers them (an echo, a redraw); one that writes nothing reads nothing.
// Past the ceiling a frame is refused whole (never cut: half a paste is worse than none) and its
// sender is told in one line; the count starts again at claude's next output. Pure.

/** input waiting for claude, at most: far over any paste a person makes, far under the server's memory */
export const MAX_PENDING_INPUT_BYTES = 4 * 1024 * 1024;

export interface InputCeiling {
  /** a frame of `bytes` for claude: true when it may go (and is counted), false when it is refused */
  admit(bytes: number): boolean;
  /** claude wrote something: what was typed before has been read */
  output(): void;
  readonly pending: number;
}

export function createInputCeiling(max: number = MAX_PENDING_INPUT_BYTES): InputCeiling {
  let pending = 0;
  return {
    admit(bytes) {
      if (pending + bytes > max) return false;
      pending += bytes;
      return true;
    },
    output() {
      pending = 0;
    },
    get pending() {
      return pending;
    },
  };
}

/** the one line a client is told when its input is refused */
export function inputRefusedLine(bytes: number, pending: number, max: number = MAX_PENDING_INPUT_BYTES): string {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return (
    `flower-pty: ${mib(bytes)} of input not sent: claude has not read the ${mib(pending)} already waiting ` +
    `(at most ${mib(max)} may wait); it may be stopped or hung: type again once it answers`
  );
}
