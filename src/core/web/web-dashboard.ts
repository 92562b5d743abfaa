// The dashboard's order and wording: the runs that need a person first (a permission, a document in
// review, parked, idle at the prompt), then the working ones, the last to do anything first within a
// group, as the chooser orders them (one order: pictureOrderOf). What a run is
// doing and how urgent it is are the one picture of a run's (core/picture/run-picture.ts), as in `ls` and the chooser.

import type { StatusView } from '../screen/status.js';
import { pictureOrderOf, runState } from '../picture/run-picture.js';

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
  /** when claude last drew anything, ms (absent: an older server does not say) */
  active?: number;
}

const iso = (ms: number | undefined): string | undefined =>
  ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();

/** 0 needs a person most urgently … 5 busy: the one picture of a run's (core/picture/run-picture.ts) */
export function urgency(r: Pick<DashboardRun, 'phase' | 'status'>): number {
  return runState(r).urgency;
}

export function dashboardOrder<R extends DashboardRun>(runs: readonly R[]): R[] {
  return pictureOrderOf(runs, (r) => ({ ...r, since: iso(r.since), active: iso(r.active) }));
}

/** the run's state in words for its row: the words the chooser and `ls` show (core/picture/run-picture.ts) */
export function stateText(r: Pick<DashboardRun, 'phase' | 'status'>): string {
  return runState(r).words;
}

/** what a notification while the page is open says about a change of state, or null for none */
export function notificationFor(
  before: Pick<DashboardRun, 'phase' | 'status'> | null,
  after: Pick<DashboardRun, 'phase' | 'status'> | null,
): string | null {
  if (after === null) return before === null ? null : 'the run ended';
  const was = before === null ? 5 : urgency(before);
  const now = urgency(after);
  if (now === was && (before?.status?.attention ?? null) === (after.status?.attention ?? null)) return null;
  if (now <= 2) return stateText(after);
  return null;
}
