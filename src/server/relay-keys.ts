// Keys for claude that go to its pty at once, through the native relay, and reach the run a timer
// later as keys the relay delivered: the run's bookkeeping (a decision and a status view per key, the
// size that follows the typist) then runs after the echo is on its way, not between key and echo.
// Used by the split view drawn here and by the watchers on the wire (the web face's pages).

import type { FastRelay } from '../adapters/fast-relay.js';

/** keys claude has already (the relay wrote them), told to the run together a timer later, in order.
 * `soon`: the keys' echo is handed over in this same turn of the event loop (the relay tells of the keys
 * it sent itself just before claude's next output): told after it, in the turn's check phase, without
 * the cost of arming a timer before the echo is drawn. Keys still waiting are told with them, in order. */
export function toldLater(tell: (data: string, delivered?: boolean) => void): (data: string, soon?: boolean) => void {
  let typed = '';
  const later = (): void => {
    const data = typed;
    typed = '';
    tell(data, true);
  };
  return (data, soon = false) => {
    if (!typed) {
      if (soon) setImmediate(later);
      else setTimeout(later, 0);
    }
    typed += data;
  };
}

/** `tell(data, delivered)`: the run's side of a key; without a relay (or once claude is released) it is
 * told at once and writes the keys itself. `later`: where the keys the relay took are told (one queue
 * with the keys the relay forwarded on its own, so the run hears them in the order they were typed) */
export function keysThroughRelay(
  relay: FastRelay,
  tell: (data: string, delivered?: boolean) => void,
  later = toldLater(tell),
): (data: string) => void {
  return (data) => {
    if (!relay.writeClaude(data)) return tell(data);
    later(data);
  };
}
