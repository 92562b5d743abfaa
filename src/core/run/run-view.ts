// What the faces show of a run, and when the run next needs the clock: both pure functions of the
// run. A run with nothing due sets no timer at all (idle CPU).

import { successorAwaitsExit } from './child-timing.js';
import { formatClock } from '../screen/clock-text.js';
import { currentGeneration, type RunState, type Waiting } from './run-state.js';
import type { StatusView } from '../screen/status-view.js';
import { troubleAttention } from './write-trouble.js';

export function attentionText(w: Waiting | null, hooksMissing: boolean): string | null {
  if (w?.kind === 'parked') return w.until === null ? 'parked on a usage limit' : `parked until ${formatClock(w.until)}`;
  if (w?.kind === 'permission') return `waiting for your permission: ${w.what}`;
  if (w?.kind === 'question') return `claude asks: ${w.text}`;
  if (w?.kind === 'idle') return 'waiting for you';
  if (hooksMissing) return 'no hooks: requests are typed';
  return null;
}

// What the failures of the session say now: during the review, how many its document leaves out
// (flower-pty's facts name them); afterwards, how often the successor repeated a dead end.
export function deadEndsText(s: RunState): string | null {
  const n = s.forgotten ?? 0;
  if (s.cycle.phase === 'review' && n > 0) return `${n} ${n === 1 ? 'failure' : 'failures'} not in the document`;
  const r = s.gen?.repeats ?? 0;
  return r > 0 ? `${r} dead ${r === 1 ? 'end' : 'ends'} repeated` : null;
}

// Seconds left in the review window, for the status line (null outside review).
export function reviewRemaining(s: RunState, now: number): number | null {
  const c = s.cycle;
  if (c.phase !== 'review' || c.reviewUntil === null) return null;
  return Math.max(0, Math.ceil((c.reviewUntil - now) / 1000));
}

export function runView(s: RunState, now: number): StatusView {
  const m = s.cycle;
  return {
    phase: m.phase === 'working' && m.nearSent ? 'near' : m.phase,
    context: s.gen?.context ?? 0,
    window: s.policy.window,
    at: m.line,
    warnAt: s.policy.warnAt,
    generation: Math.max(1, currentGeneration(s)),
    maxGenerations: s.policy.maxGenerations,
    handoff: s.settings.handoff,
    reviewLeft: reviewRemaining(s, now),
    held: m.held,
    workbench: s.settings.workbench,
    documentPath: s.settings.documentPath,
    note: s.note,
    // A file that could not be written comes first: it may be a person's only chance to keep it.
    attention: s.trouble ? troubleAttention(s.trouble) : attentionText(s.waiting, s.hooksMissing),
    deadEnds: deadEndsText(s),
  };
}

// While the document is being frozen, or the review is over with an old claude the successor must not
// overlap (core/run/child-timing.ts) not yet gone, the cycle waits on an event (written, exited), not on the
// clock: its deadlines are not checked.
export function cycleWaitsOnEvent(s: RunState): boolean {
  return s.freezing || (s.cycle.phase === 'review' && s.gen !== null && !s.gen.ended && successorAwaitsExit(s.gen.place, s.settings.cwd));
}

/** while a hook is held for its transcript row, the row is looked for this often */
export const ROW_LOOK_MS = 10;

// The earliest moment a decision is due: the write deadline, the review's end (and each second of
// its countdown), a held hook's row (looked for) and its wait's end, the hook check, an API-key session's continue.
export function nextWake(s: RunState, now: number): number | null {
  if (s.finished) return null;
  const due: number[] = [];
  const m = s.cycle;
  // A cycle's moment already past while the cycle waits on an event is not asked for again: it
  // would wake the run every millisecond until the event came.
  const waits = cycleWaitsOnEvent(s);
  const cycleDue = (at: number) => {
    if (!waits || at > now) due.push(at);
  };
  if (m.phase === 'writing' && m.writingSince !== null) cycleDue(m.writingSince + s.settings.writeTimeoutMs);
  if (m.phase === 'review' && m.reviewUntil !== null && !m.held) {
    cycleDue(m.reviewUntil);
    // the countdown a face shows moves once a second, while there is time left
    if (m.reviewUntil > now) due.push(now + ((m.reviewUntil - now) % 1000 || 1000));
  }
  // A hook held for its row: the runtime reads the transcript before every tick, so the row is seen within
  // ROW_LOOK_MS of landing rather than at the tail's next poll (200 ms, all of it a turn's wait).
  for (const wait of s.boundaryWaits) due.push(Math.min(wait.until, now + ROW_LOOK_MS));
  const g = s.gen;
  if (g && !g.ended && g.hooks === 0 && !s.hooksMissing && s.settings.handoff) {
    due.push(g.spawnedAt + s.settings.hooklessAfterMs);
    if (g.turnEndAt !== null) due.push(g.turnEndAt + s.settings.turnHooklessAfterMs);
  }
  if (g && !g.ended && g.transcriptMissingSince !== null && !g.transcriptLost) due.push(g.transcriptMissingSince + s.settings.transcriptLostAfterMs);
  const w = s.waiting;
  if (w?.kind === 'parked' && !w.autoContinue && !w.continued) due.push(continueAt(w, s.settings.parkedRetryMs));
  const future = due.filter((t) => Number.isFinite(t));
  return future.length === 0 ? null : Math.max(now, Math.min(...future));
}

// When an API-key session parked on a limit is continued: a little after its reset, else after a back-off.
export function continueAt(w: { since: number; until: number | null }, retryMs: number): number {
  return w.until !== null ? w.until + 5_000 : w.since + retryMs;
}
