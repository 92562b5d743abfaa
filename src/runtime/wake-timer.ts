// The run's one wake-up on the clock port: set for the next moment something is due (`wake-at`), moved
// when a later decision says another, gone at the run's end. A fake clock runs a lineage without sleeping.

import type { ClockPort, Disposable } from './ports.js';

export interface WakeTimer {
  /** the one wake-up at `at` (null: none), replacing the one before */
  set(at: number | null): void;
  dispose(): void;
}

export function wakeTimer(clock: ClockPort, fire: () => void): WakeTimer {
  let wake: Disposable | null = null;
  return {
    set(at) {
      wake?.dispose();
      wake = at === null ? null : clock.wakeAt(at, fire);
    },
    dispose() {
      wake?.dispose();
      wake = null;
    },
  };
}
