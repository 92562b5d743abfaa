// The run loop's event queue: every input, one at a time, through `decide()` (in the core), and the effects
// it returns handed on in order. An input posted while one is being decided (an effect that answers at
// once) waits its turn behind it, so no decision ever sees a run half way through another.

import { decide } from '../core/decide/decide.js';
import type { RunEffect, RunInput, RunState } from '../core/run/run-state.js';

export interface RunQueue {
  post(event: RunInput): void;
  /** the run as it stands after the last decision */
  readonly state: RunState;
}

export function createRunQueue(initial: RunState, carryOut: (effect: RunEffect) => void): RunQueue {
  let state = initial;
  const queue: RunInput[] = [];
  let draining = false;
  return {
    post(event) {
      queue.push(event);
      if (draining) return;
      draining = true;
      try {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const step = decide(state, next);
          state = step.state;
          for (const effect of step.effects) carryOut(effect);
        }
      } finally {
        draining = false;
      }
    },
    get state() {
      return state;
    },
  };
}
