// What the faces show of a run (the status view and its texts), a pure function of the run. When the run
// next needs the clock is the clock's (core/decide/clock.ts).

import { formatClock } from '../screen/clock-text.js';
import { currentGeneration, type RunState, type Waiting } from './run-state.js';
import type { StatusView } from '../screen/status.js';
import { troubleAttention } from './write-trouble.js';
import { CATEGORIES } from '../coverage/successor-facts.js';

export function attentionText(w: Waiting | null, hooksMissing: boolean): string | null {
  if (w?.kind === 'parked')
    return w.until === null ? 'parked on a usage limit' : `parked until ${formatClock(w.until)}`;
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

// The frozen document's score, while it is under review: each category with facts in it, found of total.
export function coverageText(s: RunState): string | null {
  const c = s.coverage;
  if (s.cycle.phase !== 'review' || !c || c.generation !== currentGeneration(s) || !c.score) return null;
  const score = c.score;
  const parts = CATEGORIES.filter((k) => score[k].total > 0).map(
    (k) => `${k.replace('_', ' ')} ${score[k].found}/${score[k].total}`,
  );
  if (parts.length === 0) return null;
  return `${c.amended ? 'amended, covers' : 'covers'} ${parts.join(', ')}`;
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
    coverage: coverageText(s),
  };
}
