// Parked on a usage limit: not idle, not crashed, not a boundary, so whatever is pending stays pending.
// Said once per park; a later word (the transcript's row, the status line) only adds the reset time. A
// session that does not continue by itself (an API-key login) is continued once after the reset, unless
// a person at its keyboard decides.

import { iso, type Out } from '../out.js';

export function park(o: Out, now: number, until: number | null, autoContinue: boolean): void {
  const w = o.s.waiting;
  if (w?.kind === 'parked') {
    o.set({ waiting: { ...w, until: until ?? w.until, autoContinue: until !== null ? autoContinue : w.autoContinue } });
    return;
  }
  o.set({
    waiting: { kind: 'parked', since: now, until, autoContinue, continued: false },
    note: 'parked on a usage limit',
  });
  o.emit('parked', {
    generation: o.generation,
    until: until === null ? null : iso(until),
    ...(until !== null ? { untilMs: until } : {}),
    autoContinue,
  });
}

export function resumeIfParked(o: Out, now: number): void {
  if (o.s.waiting?.kind !== 'parked') return;
  o.set({ waiting: null, note: 'resumed after the usage limit' });
  o.emit('resumed', { generation: o.generation, at: iso(now) });
}

// A person at the keyboard of a parked session decides when to continue it.
export function typedWhileParked(o: Out): void {
  if (o.s.waiting?.kind === 'parked' && !o.s.waiting.continued) o.set({ waiting: { ...o.s.waiting, continued: true } });
}

// An API-key session parked on a limit does not continue by itself: continue it once after the reset.
// When: the clock's rule (clock.ts), a little after the reset, else after a back-off.
export function continueAfterReset(o: Out): void {
  const w = o.s.waiting;
  if (w?.kind !== 'parked') return;
  o.set({ waiting: { ...w, continued: true }, note: 'the usage limit reset: continuing the session once' });
  o.do({ type: 'type-into-child', request: '', line: 'continue' });
}
