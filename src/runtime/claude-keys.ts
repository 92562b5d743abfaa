// The one way keys reach claude, as tmux's window_pane_key is: a key typed or pasted in a face, sent from
// a web page, a terminal's answer to claude's query, or the run's own (the handoff request typed at the
// prompt, an amendment, `continue` after a usage limit, and the Enter after each) is written by send(), in
// the order it came, through claude's one writer (the child's: the native relay's queue while the relay
// holds claude's pty, adapters/pty-session.ts's queue without it). The run is told of a person's keys (its
// `typed` input) after they are written: with the relay, a timer later, so the run's books (a decision and
// a status view per key, the size that follows the typist) come after the echo is on its way, not between
// a key and its echo. The relay's own thread carries plain typed text to claude without JavaScript (its
// fast path: a plain face's keys, the split view's pass-through); those keys are told here only
// (relayed()), in the same queue, so the run hears every key in typed order.

import type { ChildHandle } from './ports.js';

/** who sends keys: what the sink does besides writing them */
export interface KeySender {
  /** the sender's own books on its keys (the run server's: claude's size follows the typist), kept when
   * the run is told of them */
  readonly books?: () => void;
  /** the run's own keys (the handoff request typed at the prompt, `continue`): claude gets them, the run is
   * not told */
  readonly quiet?: boolean;
}

/** keys of the run's own making */
export const RUN_KEYS: KeySender = { quiet: true };
/** a person's keys from a sender that keeps no books of its own */
export const PERSON_KEYS: KeySender = {};

/** where the sink's keys go, given by the run loop when it starts */
export interface ClaudeEnd {
  /** the claude that runs now (or ran last): the sink writes to it, and needs nothing else of it */
  child(): Pick<ChildHandle, 'exited' | 'write'> | null;
  /** the run is told of a person's keys */
  told(data: string): void;
}

export interface ClaudeKeys {
  /** every key for claude: written now, in order (nowhere when no claude runs); the run told after */
  send(data: string, from: KeySender): void;
  /** keys the relay's thread has written to claude already (its fast path): told as send()'s are, in
   * order with them. `soon`: their echo is handed over in this same turn of the event loop (the relay
   * tells of the keys it sent just before claude's next output): told in the turn's check phase, without
   * the cost of arming a timer before the echo is drawn */
  relayed(data: string, o: { from: KeySender; soon: boolean }): void;
  /** the run loop's claude; keys sent before it is connected go nowhere, as keys with no claude do */
  connect(end: ClaudeEnd): void;
}

/** `echoFirst`: the native relay draws claude's echo without the event loop (the run server with its
 * relay): the run is told of written keys a timer later. Without it they are told at once. */
export function createClaudeKeys(o: { echoFirst: boolean }): ClaudeKeys {
  let end: ClaudeEnd | null = null;
  // Keys written and not yet told, each run of them with its sender, in the order they were written.
  let waiting: Array<{ from: KeySender; data: string }> = [];
  let armed = false;

  const tell = (data: string, from: KeySender): void => {
    from.books?.();
    end?.told(data);
  };
  const tellWaiting = (): void => {
    armed = false;
    const told = waiting;
    waiting = [];
    for (const { from, data } of told) tell(data, from);
  };
  const later = (data: string, from: KeySender, soon: boolean): void => {
    const last = waiting.at(-1);
    if (last?.from === from) last.data += data;
    else waiting.push({ from, data });
    if (armed) return;
    armed = true;
    if (soon) setImmediate(tellWaiting);
    else setTimeout(tellWaiting, 0);
  };

  return {
    send(data, from) {
      const child = end?.child() ?? null;
      const written = child !== null && !child.exited;
      if (written) child.write(data);
      if (from.quiet) return;
      if (written && o.echoFirst) return later(data, from, false);
      // told at once: after the keys still waiting, so the run hears them in the order they came
      if (waiting.length > 0) tellWaiting();
      tell(data, from);
    },
    relayed(data, { from, soon }) {
      if (!from.quiet) later(data, from, soon);
    },
    connect(claude) {
      end = claude;
    },
  };
}
