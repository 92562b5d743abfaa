// One picture of a run, as everything that lists runs shows it: the chooser, `ls`, the web dashboard and
// the status bar's word on the other runs all read this, so they never disagree on what a run is doing,
// what it waits for, or which one needs the person first. Built from what a run server reports of itself
// (its info: phase, generation, the meter and its latest status view); pure.

import type { StatusView } from '../screen/status.js';

/** what a run is doing, one word each; the words a person reads are `stateWords` */
export type RunActivity =
  | 'permission' // waiting for the person's permission on a tool call
  | 'question' // claude asks the person something
  | 'trouble' // a file could not be written: the person may need to keep it
  | 'review' // a frozen document in its review window
  | 'parked' // stopped by a usage limit until it resets
  | 'idle' // at its prompt, its turn done
  | 'exited' // the run's last generation ended
  | 'writing' // writing its handoff document
  | 'starting' // claude starting (or its successor)
  | 'working';

// The fields of a run's info (src/server/wire.ts RunInfo) the picture reads.
export interface RunFacts {
  id: string;
  cwd: string;
  phase: string;
  generation: number;
  context: number;
  window: number;
  started: string;
  status?: StatusView | { attention?: string | null; held?: boolean } | null;
  /** ISO time the run entered its current state (absent from older servers) */
  since?: string;
  /** ISO time claude last drew anything (absent from older servers) */
  active?: string;
}

export interface RunPicture {
  activity: RunActivity;
  /** the state in words: "waiting for your permission: Bash touch x", "in review, 12 s left" */
  words: string;
  /** the run waits on the person: a permission, a question, a file it could not write, a document in review */
  needsPerson: boolean;
  /** 0 needs the person most urgently … 5 busy (working, writing, starting): the order every list of runs shows */
  urgency: number;
  generation: number;
  maxGenerations: number | null;
  meter: { context: number; window: number; at: number; warnAt: number; handoff: boolean };
  /** when it entered this state (ms), when known */
  since: number | null;
  /** when it last did anything (ms): claude's last output, else its state's start, else its start */
  lastActive: number;
}

/** the run's latest full view, when the facts carry one (an older or partial status carries only attention) */
function fullView(f: Pick<RunFacts, 'status'>): StatusView | null {
  const s = f.status;
  return s && 'phase' in s && typeof s.phase === 'string' ? (s as StatusView) : null;
}

// Read from the attention line (core/run/run-view.ts attentionText and write-trouble.ts word it), then the phase.
function activityOf(f: Pick<RunFacts, 'phase' | 'status'>): RunActivity {
  const a = f.status?.attention ?? '';
  if (a.startsWith('waiting for your permission')) return 'permission';
  if (a.startsWith('claude asks')) return 'question';
  if (f.phase === 'review') return 'review';
  if (a.startsWith('parked')) return 'parked';
  if (f.phase === 'stopped') return 'exited';
  if (a === 'waiting for you') return 'idle';
  if (a !== '' && !a.startsWith('no hooks')) return 'trouble';
  if (f.phase === 'writing') return 'writing';
  if (f.phase === 'starting' || f.phase === 'respawning') return 'starting';
  return 'working';
}

const URGENCY: Record<RunActivity, number> = {
  permission: 0,
  question: 0,
  trouble: 0,
  review: 1,
  parked: 2,
  idle: 3,
  exited: 4,
  writing: 5,
  starting: 5,
  working: 5,
};

/** the words for the state, with what the run adds to it (the countdown, what its document leaves out) */
function wordsOf(activity: RunActivity, f: Pick<RunFacts, 'phase' | 'status'>, view: StatusView | null): string {
  const a = f.status?.attention ?? '';
  const extras = [view?.deadEnds, view?.coverage]
    .filter((x): x is string => Boolean(x))
    .map((x) => ` · ${x}`)
    .join('');
  switch (activity) {
    case 'permission':
    case 'trouble':
      return a;
    case 'question':
      return `asking you a question: ${a.replace(/^claude asks:\s*/, '')}`;
    case 'review':
      if (view?.held || f.status?.held === true) return `in review, held for you (C-] p releases)${extras}`;
      return `in review${view?.reviewLeft != null ? ` (${Math.ceil(view.reviewLeft)} s left)` : ''}${extras}`;
    case 'parked':
      return a.replace(/^parked until/, 'parked on a limit until');
    case 'idle':
      return `idle at its prompt${extras}`;
    case 'exited':
      return 'exited';
    case 'writing':
      return 'writing its handoff';
    case 'starting':
      return f.phase === 'respawning' ? 'starting its successor' : 'starting';
    case 'working':
      return `working${extras}`;
  }
}

const ms = (iso: string | undefined): number | null => {
  if (iso === undefined) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

/** the state alone (what it does, its words, how urgent), from the phase and the status: the web's rows read this */
export function runState(
  f: Pick<RunFacts, 'phase' | 'status'>,
): Pick<RunPicture, 'activity' | 'words' | 'needsPerson' | 'urgency'> {
  const activity = activityOf(f);
  return {
    activity,
    words: wordsOf(activity, f, fullView(f)),
    needsPerson: URGENCY[activity] <= 1,
    urgency: URGENCY[activity],
  };
}

export function runPicture(f: RunFacts): RunPicture {
  const view = fullView(f);
  const since = ms(f.since);
  return {
    ...runState(f),
    generation: f.generation,
    maxGenerations: view?.maxGenerations ?? null,
    meter: {
      context: f.context,
      window: f.window,
      at: view?.at ?? f.window,
      warnAt: view?.warnAt ?? f.window,
      handoff: view?.handoff ?? false,
    },
    since,
    lastActive: Math.max(ms(f.active) ?? 0, since ?? 0) || (ms(f.started) ?? 0),
  };
}

/** a listed run's state changed for a person (its phase, or what it waits for): when its "since" starts
 * again for a reader that has only the run's infos (the web face's rows, a host's list) */
export function listedStateChanged(
  before: Pick<RunFacts, 'phase' | 'status'> | undefined,
  after: Pick<RunFacts, 'phase' | 'status'>,
): boolean {
  return (
    !before || before.phase !== after.phase || (before.status?.attention ?? null) !== (after.status?.attention ?? null)
  );
}

// Runs that need the person first (most urgent first), then the ones that did something last; the id
// keeps the order still when nothing tells two runs apart.
export function pictureOrder<R extends RunFacts>(runs: readonly R[]): R[] {
  return pictureOrderOf(runs, (r) => r);
}

/** the same order for rows that carry a run's facts in their own shape (the web dashboard's), read through `factsOf` */
export function pictureOrderOf<R>(runs: readonly R[], factsOf: (r: R) => RunFacts): R[] {
  const keyed = runs.map((r) => ({ r, f: factsOf(r) })).map((k) => ({ ...k, p: runPicture(k.f) }));
  keyed.sort((a, b) => a.p.urgency - b.p.urgency || b.p.lastActive - a.p.lastActive || a.f.id.localeCompare(b.f.id));
  return keyed.map((k) => k.r);
}

/** how long a run has been in its state, in a few characters: "12s", "4m", "3h", "2d" ("" when unknown) */
export function durationText(sinceMs: number | null, now: number): string {
  if (sinceMs === null) return '';
  const s = Math.max(0, Math.floor((now - sinceMs) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}
