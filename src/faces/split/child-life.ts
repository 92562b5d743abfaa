// What the split view knows of the child's life: whether one runs, whether one ever ended (the next
// starts on a fresh pane), and the terminal modes it turned on (undone when it ends, crashed or not).

import { createModeTracker, type ModeTracker } from '../../core/screen/terminal-modes.js';

export interface ChildLife {
  readonly running: boolean;
  /** the child asked for SGR mouse reports (1006) */
  readonly sgrMouse: boolean;
  output(data: string): void;
  /** true when an earlier child ended: its screen is to be forgotten */
  started(): boolean;
  /** the sequence that turns off what the child left on ('' when nothing) */
  ended(): string;
}

export function createChildLife(): ChildLife {
  let modes: ModeTracker = createModeTracker();
  let running = false;
  let everEnded = false;
  return {
    get running() {
      return running;
    },
    get sgrMouse() {
      return modes.isOn(1006);
    },
    output: (data) => modes.push(data),
    started() {
      running = true;
      return everEnded;
    },
    ended() {
      running = false;
      everEnded = true;
      const reset = modes.resetSequence();
      modes = createModeTracker();
      return reset;
    },
  };
}
