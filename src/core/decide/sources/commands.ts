// What a person asks of the run from a face: hand off now, hold or release the review, quit; and their
// keystrokes into claude's prompt.

import { EXIT } from '../../exit-code.js';
import { onlyTerminalReports } from '../../screen/terminal-reports.js';
import type { RunInput } from '../../run/run-state.js';
import { forceHandoff, typedAtPrompt } from '../stages/handoff.js';
import { startNext, stop } from '../stages/generations.js';
import { typedWhileParked } from '../turn/parking.js';
import type { Out } from '../out.js';

export function commanded(o: Out, e: Extract<RunInput, { type: 'command' }>): void {
  const { now } = e;
  switch (e.command) {
    case 'force-handoff':
      o.set({ note: 'handoff armed: it happens at the next message boundary (typed at once if claude is idle)' });
      return forceHandoff(o, now);
    case 'hold':
      return o.cycle({ held: true });
    case 'release': {
      const c = o.s.cycle;
      o.cycle({ held: false });
      if (c.phase === 'review' && c.reviewUntil !== null && now >= c.reviewUntil) startNext(o, now);
      return;
    }
    case 'quit':
      // Stopped mid-handoff: the generation did not end as a person's quit ends it.
      if (o.s.cycle.phase === 'writing' || o.s.freezing)
        o.set({ stopReason: 'flower-pty was stopped while the handoff document was being written' });
      o.cycle({ phase: 'stopped' });
      o.do({ type: 'end-child' });
      return stop(o, EXIT.ok, now);
  }
}

export function typed(o: Out, e: Extract<RunInput, { type: 'typed' }>): void {
  // The terminal answering claude's queries, or saying its window lost focus, is nobody at the prompt.
  if (onlyTerminalReports(e.data)) return;
  typedWhileParked(o);
  typedAtPrompt(o);
}
