// The clock: one table of rules, each with the moment it is due and what it does then. After every event
// the router (decide.ts) runs the rules that are due, and the run's next wake-up is the earliest moment any
// rule is due (nextWake). A deadline is written once, here; a run with nothing due sets no timer (idle CPU).

import { successorAwaitsExit } from '../run/child-timing.js';
import type { RunState } from '../run/run-state.js';
import { hooksMissing } from './sources/hooks.js';
import { transcriptLost } from './sources/transcript.js';
import { degrade } from './stages/freezing.js';
import { amendMs, checkTimedOut, checkUnderWay } from './stages/coverage-check.js';
import { startNext } from './stages/generations.js';
import { settleWait } from './turn/boundaries.js';
import { continueAfterReset } from './turn/parking.js';
import type { Out } from './out.js';

export interface ClockRule {
  /** what comes due, in a person's words */
  readonly name: string;
  /** the moment it is next due for this run, or null when it is not waited for at all */
  due(s: RunState, now: number): number | null;
  /** a moment of the handoff cycle: not run (nor woken for once past) while the cycle waits on an event */
  readonly cycle?: true;
  /** what it does once due; a rule without one only wakes the run (a look, a countdown a face shows) */
  run?(o: Out, now: number): void;
}

/** while a hook is held for its transcript row, the row is looked for this often */
export const ROW_LOOK_MS = 10;

// While the document is being frozen, or the review is over with an old claude the successor must not
// overlap (core/run/child-timing.ts) not yet gone, the cycle waits on an event (written, exited), not on the
// clock.
export function cycleWaitsOnEvent(s: RunState): boolean {
  return (
    s.freezing ||
    (s.cycle.phase === 'review' && s.gen !== null && !s.gen.ended && successorAwaitsExit(s.gen.place, s.settings.cwd))
  );
}

// When an API-key session parked on a limit is continued: a little after its reset, else after a back-off.
export function continueAt(w: { since: number; until: number | null }, retryMs: number): number {
  return w.until !== null ? w.until + 5_000 : w.since + retryMs;
}

// A generation that has said nothing through its hooks yet, while hooks are expected.
function awaitsFirstHook(s: RunState): boolean {
  const g = s.gen;
  return g !== null && !g.ended && g.hooks === 0 && !s.hooksMissing && s.settings.handoff;
}

const earliest = (moments: number[]): number | null => (moments.length === 0 ? null : Math.min(...moments));

// In the order they run when several are due at once.
export const CLOCK_RULES: readonly ClockRule[] = [
  {
    name: 'a hook held for its transcript row runs out of time: decided from what the transcript holds',
    due: (s) => earliest(s.boundaryWaits.map((w) => w.until)),
    run: (o, now) => {
      for (const wait of o.s.boundaryWaits) {
        if (now < wait.until) continue;
        const row =
          wait.awaits.kind === 'reply'
            ? "the Stop hook's last response"
            : `the PostToolUse hook's tool call (${wait.awaits.toolUseId})`;
        o.do({ type: 'log', line: `${row} did not reach the transcript within ${o.s.settings.stopWaitMs} ms` });
        settleWait(o, wait, now, false);
      }
    },
  },
  {
    // The runtime reads the transcript before every tick, so a held hook's row is seen within ROW_LOOK_MS of
    // landing rather than at the tail's next poll (200 ms, all of it a turn's wait).
    name: "a held hook's row is looked for",
    due: (s, now) => (s.boundaryWaits.length > 0 ? now + ROW_LOOK_MS : null),
  },
  {
    name: 'a turn ended with no Stop hook: hooks are missing, and the turn end is the boundary',
    due: (s) =>
      awaitsFirstHook(s) && s.gen!.turnEndAt !== null ? s.gen!.turnEndAt + s.settings.turnHooklessAfterMs : null,
    run: (o, now) => hooksMissing(o, now, 'turn'),
  },
  {
    name: 'no hook since claude started: hooks are missing',
    due: (s) => (awaitsFirstHook(s) ? s.gen!.spawnedAt + s.settings.hooklessAfterMs : null),
    run: (o, now) => hooksMissing(o, now, 'start'),
  },
  {
    name: 'a turn under way with no transcript: it is lost, and the session hands off at its next boundary',
    due: (s) => {
      const g = s.gen;
      return g && !g.ended && g.transcriptMissingSince !== null && !g.transcriptLost
        ? g.transcriptMissingSince + s.settings.transcriptLostAfterMs
        : null;
    },
    run: transcriptLost,
  },
  {
    name: 'an API-key session parked on a usage limit is continued once after the reset',
    due: (s) => {
      const w = s.waiting;
      return w?.kind === 'parked' && !w.autoContinue && !w.continued ? continueAt(w, s.settings.parkedRetryMs) : null;
    },
    run: (o) => continueAfterReset(o),
  },
  {
    // A model that ignores the request must not stall the run.
    name: 'the writing turn gives no document in time: a degraded one is frozen',
    cycle: true,
    due: (s) =>
      s.cycle.phase === 'writing' && s.cycle.writingSince !== null && checkUnderWay(s) === null
        ? s.cycle.writingSince + s.settings.writeTimeoutMs
        : null,
    run: (o, now) => degrade(o, now, `no handoff document within ${Math.round(o.s.settings.writeTimeoutMs / 1000)}s`),
  },
  {
    // The check at the freeze is bounded too: the document there is is frozen.
    name: 'the document is not scored, or not amended, in time: the one there is is frozen',
    cycle: true,
    due: (s) => {
      const c = s.cycle.phase === 'writing' ? checkUnderWay(s) : null;
      return c !== null ? c.since + amendMs(s) : null;
    },
    run: checkTimedOut,
  },
  {
    // A frozen document waits for a person only so long.
    name: 'the review window ends: the successor starts',
    cycle: true,
    due: (s) =>
      s.cycle.phase === 'review' && s.cycle.reviewUntil !== null && !s.cycle.held ? s.cycle.reviewUntil : null,
    run: startNext,
  },
  {
    name: "the review's countdown a face shows moves, once a second",
    due: (s, now) => {
      const c = s.cycle;
      return c.phase === 'review' && c.reviewUntil !== null && !c.held && c.reviewUntil > now
        ? now + ((c.reviewUntil - now) % 1000 || 1000)
        : null;
    },
  },
];

// Runs every rule that is due now, in the table's order; each sees what the ones before it did.
export function runDue(o: Out, now: number, rules: readonly ClockRule[] = CLOCK_RULES): void {
  for (const rule of rules) {
    if (o.s.finished) return;
    if (!rule.run || (rule.cycle && cycleWaitsOnEvent(o.s))) continue;
    const at = rule.due(o.s, now);
    if (at !== null && now >= at) rule.run(o, now);
  }
}

// The earliest moment a rule is due. A cycle's moment already past while the cycle waits on an event is not
// asked for again: it would wake the run every millisecond until the event came.
export function nextWake(s: RunState, now: number, rules: readonly ClockRule[] = CLOCK_RULES): number | null {
  if (s.finished) return null;
  const waits = cycleWaitsOnEvent(s);
  const due: number[] = [];
  for (const rule of rules) {
    const at = rule.due(s, now);
    if (at !== null && Number.isFinite(at) && !(rule.cycle && waits && at <= now)) due.push(at);
  }
  return due.length === 0 ? null : Math.max(now, Math.min(...due));
}
