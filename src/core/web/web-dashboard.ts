// The dashboard's order and wording: the runs that need a person first (a permission, a document in
// review, parked, idle at the prompt), then the working ones, oldest first within a group.

import type { StatusView } from '../screen/status.js';

export interface DashboardRun {
  id: string;
  cwd: string;
  step: string;
  started: string;
  clients: number;
  generation: number;
  phase: string;
  context: number;
  window: number;
  status: StatusView | null;
  /** when the run entered its current state (phase and attention), ms */
  since: number;
}

/** 0 needs a person most urgently … 5 working */
export function urgency(r: Pick<DashboardRun, 'phase' | 'status'>): number {
  const a = r.status?.attention ?? '';
  if (a.startsWith('waiting for your permission')) return 0;
  if (r.phase === 'review') return 1;
  if (a.startsWith('parked')) return 2;
  if (a === 'waiting for you') return 3;
  if (r.phase === 'stopped') return 4;
  return 5;
}

export function dashboardOrder<R extends DashboardRun>(runs: readonly R[]): R[] {
  return [...runs].sort((a, b) => urgency(a) - urgency(b) || a.started.localeCompare(b.started) || a.id.localeCompare(b.id));
}

/** the run's state in words for its row */
export function stateText(r: Pick<DashboardRun, 'phase' | 'status'>): string {
  const s = r.status;
  if (s?.attention) return s.attention;
  // the failures a frozen document leaves out, and its coverage, beside the countdown
  const deadEnds = [s?.deadEnds, s?.coverage].map((x) => (x ? ` · ${x}` : '')).join('');
  if (r.phase === 'review') return (s?.held ? 'in review (held)' : `in review${s?.reviewLeft != null ? ` (${Math.ceil(s.reviewLeft)} s left)` : ''}`) + deadEnds;
  if (deadEnds !== '') return `${r.phase}${deadEnds}`;
  return r.phase;
}

/** what a notification while the page is open says about a change of state, or null for none */
export function notificationFor(before: Pick<DashboardRun, 'phase' | 'status'> | null, after: Pick<DashboardRun, 'phase' | 'status'> | null): string | null {
  if (after === null) return before === null ? null : 'the run ended';
  const was = before === null ? 5 : urgency(before);
  const now = urgency(after);
  if (now === was && (before?.status?.attention ?? null) === (after.status?.attention ?? null)) return null;
  if (now <= 2) return stateText(after);
  return null;
}
