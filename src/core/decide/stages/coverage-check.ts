// The check at the freeze: the document the session wrote is scored against what its transcript shows (core/coverage:
// the files it changed, its dead ends, the person's instructions, the open tasks, identifiers). A category
// under the --coverage-check share, with the session alive and idle at its prompt, brings ONE request to
// amend it, naming what is missing (typed, as an idle session's handoff request is); the amended document,
// or the first one when none comes within half the write timeout, is frozen. Once a generation; a degraded
// document is never checked (freezing.ts says so). Pure reducers over the run.

import { AMEND_LINES, amendmentItems, amendmentRequest } from '../../lineage/handoff-prompts.js';
import { belowThreshold, type CoverageScore } from '../../coverage/coverage-score.js';
import { CATEGORIES, type Category } from '../../coverage/successor-facts.js';
import { currentGeneration, type CoverageCheck, type RunInput, type RunState } from '../../run/run-state.js';
import type { RunEventFields } from '../../run/run-events.js';
import { retire } from './freezing.js';
import type { Out } from '../out.js';

/** the line typed into claude's prompt; the request itself is in the file it names */
export const TYPED_AMEND_LINE =
  'flower-pty: your handoff document leaves things out. Read the file {file} now and do exactly what it asks: reply with the amended document.';

/** the coverage event lists at most this many missing items */
export const MISSING_LISTED = 50;

/** the categories the check may ask about: those whose rules are precise enough on real sessions that a
 * missing item is worth a line of the document (docs/eval.md says why); instructions and identifiers are
 * scored and recorded, never asked for */
export const ASKED_CATEGORIES: readonly Category[] = ['files', 'dead_ends', 'tasks'];

/** the categories of a score the check asks about: those it may ask about, under the threshold */
export function askedBelow(s: CoverageScore, threshold: number): Category[] {
  return belowThreshold(s, threshold).filter((c) => ASKED_CATEGORIES.includes(c));
}

/** the items an amendment request lists, as `category: item` */
function askedItems(s: CoverageScore, below: readonly Category[]): string[] {
  return below.flatMap((c) => amendmentItems(s[c].missing).map((item) => `${c}: ${item}`));
}

// Lines of `after` that `before` does not have, and the other way round, each line counted as often as it stands.
function lineChanges(before: string, after: string): { added: number; removed: number } {
  const count = new Map<string, number>();
  for (const l of before.split('\n')) count.set(l, (count.get(l) ?? 0) + 1);
  let added = 0;
  for (const l of after.split('\n')) {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    else added += 1;
  }
  let removed = 0;
  for (const n of count.values()) removed += n;
  return { added, removed };
}

/** how long the session has to score and amend its document: half the write timeout */
export function amendMs(s: RunState): number {
  return Math.max(1_000, Math.round(s.settings.writeTimeoutMs / 2));
}

/** the check is on and this generation's document has not been checked yet */
export function checksCoverage(s: RunState): boolean {
  const c = s.coverage;
  return s.settings.coverageCheck > 0 && !(c !== null && c.generation === currentGeneration(s));
}

/** a check of the current generation waits for a score or an amendment */
export function checkUnderWay(s: RunState): CoverageCheck | null {
  const c = s.coverage;
  return c !== null && c.generation === currentGeneration(s) && c.stage !== 'done' ? c : null;
}

function score(o: Out, stage: 'scoring' | 'rescoring', now: number, text: string, check: Partial<CoverageCheck>): void {
  const c: CoverageCheck =
    o.s.coverage && o.s.coverage.generation === o.generation
      ? o.s.coverage
      : {
          generation: o.generation,
          stage,
          since: now,
          first: text,
          amendedText: null,
          score: null,
          below: [],
          amended: false,
          skipped: null,
        };
  o.set({ coverage: { ...c, ...check, stage, since: now } });
  o.do({ type: 'score-document', generation: o.generation, text, transcriptPath: o.s.gen?.transcriptPath ?? '' });
}

/** the writing turn gave a complete document: it is scored before it is frozen */
export function scoreFirst(o: Out, now: number, text: string): void {
  score(o, 'scoring', now, text, {});
  o.set({ note: 'checking the handoff document for what it leaves out' });
}

/** the turn that answered the amendment request ended (`text` null: with no complete document): true when
 * it was that turn */
export function amendedTurnEnded(o: Out, now: number, text: string | null): boolean {
  const c = o.s.coverage;
  if (c === null || c.generation !== o.generation || c.stage !== 'asked') return false;
  if (text === null) {
    o.emit('coverage-skipped', {
      generation: c.generation,
      reason: 'the amended document was incomplete: the first one is frozen',
    });
    freeze(o, now, c.first, c.score);
    return true;
  }
  score(o, 'rescoring', now, text, { amendedText: text, amended: true });
  o.set({ note: 'checking the amended handoff document' });
  return true;
}

function freeze(o: Out, now: number, text: string, s: CoverageScore | null): void {
  const c = o.s.coverage;
  if (c) o.set({ coverage: { ...c, stage: 'done', score: s } });
  retire(o, now, { text, degraded: false }, 'handoff');
}

/** the coverage event's fields for one scored document */
export function coverageFields(
  generation: number,
  document: 'first' | 'amended',
  s: CoverageScore,
  threshold: number,
  below: readonly Category[],
): RunEventFields<'coverage'> {
  const missing = CATEGORIES.flatMap((c) => s[c].missing.map((item) => `${c}: ${item}`)).slice(0, MISSING_LISTED);
  return {
    generation,
    document,
    threshold,
    below: [...below],
    missing,
    files_found: s.files.found,
    files_total: s.files.total,
    dead_ends_found: s.dead_ends.found,
    dead_ends_total: s.dead_ends.total,
    instructions_found: s.instructions.found,
    instructions_total: s.instructions.total,
    tasks_found: s.tasks.found,
    tasks_total: s.tasks.total,
    identifiers_found: s.identifiers.found,
    identifiers_total: s.identifiers.total,
  };
}

// Why the session cannot be asked now: it is gone, or not at its prompt, or a person is typing there.
function cannotAsk(s: RunState): string | null {
  if (!s.gen || s.gen.ended) return 'the session has ended';
  if (!s.cycle.idle || s.cycle.turnInRows) return 'the session is not idle at its prompt';
  if (s.cycle.typed) return 'a person is typing at its prompt';
  return null;
}

/** a document's score came back (or could not be had) */
export function documentScored(o: Out, e: Extract<RunInput, { type: 'document-scored' }>): void {
  const c = o.s.coverage;
  if (
    c === null ||
    c.generation !== e.generation ||
    (c.stage !== 'scoring' && c.stage !== 'rescoring') ||
    o.s.cycle.phase !== 'writing'
  )
    return;
  const threshold = o.s.settings.coverageCheck;
  const text = c.stage === 'rescoring' && c.amendedText !== null ? c.amendedText : c.first;
  if (e.score === null) {
    o.emit('coverage-skipped', {
      generation: c.generation,
      reason: `the document could not be scored: ${e.error ?? 'no reason given'}`,
    });
    return freeze(o, e.now, text, null);
  }
  const below = askedBelow(e.score, threshold);
  o.emit(
    'coverage',
    coverageFields(c.generation, c.stage === 'scoring' ? 'first' : 'amended', e.score, threshold, below),
  );
  if (c.stage === 'rescoring' && c.score !== null) {
    const asked = askedItems(c.score, c.below);
    const still = new Set(c.below.flatMap((cat) => e.score![cat].missing.map((item) => `${cat}: ${item}`)));
    const { added, removed } = lineChanges(c.first, text);
    o.emit('amended', {
      generation: c.generation,
      added,
      removed,
      gained: asked.filter((i) => !still.has(i)),
      over: added > AMEND_LINES,
    });
  }
  if (c.stage === 'rescoring' || below.length === 0) return freeze(o, e.now, text, e.score);
  o.set({ coverage: { ...c, score: e.score, below } });
  const why = cannotAsk(o.s);
  if (why !== null) {
    o.emit('coverage-skipped', { generation: c.generation, reason: `not amended: ${why}` });
    return freeze(o, e.now, text, e.score);
  }
  const missing = Object.fromEntries(below.map((cat) => [cat, e.score![cat].missing]));
  const ms = amendMs(o.s);
  o.set({
    coverage: { ...o.s.coverage!, stage: 'asked', since: e.now },
    note: `the handoff document leaves out ${below.join(', ').replace(/_/g, ' ')}: the session is asked once to add it`,
  });
  o.cycle({ idle: false });
  o.do({ type: 'type-into-child', request: amendmentRequest(missing), line: TYPED_AMEND_LINE });
  o.emit('amendment', {
    generation: c.generation,
    below: [...below],
    items: below.reduce((n, cat) => n + e.score![cat].missing.length, 0),
    ms,
    asked: askedItems(e.score, below),
    lines: AMEND_LINES,
  });
}

/** the score or the amendment did not come in time: the document there is is frozen */
export function checkTimedOut(o: Out, now: number): void {
  const c = checkUnderWay(o.s);
  if (c === null) return;
  const late = `${c.stage === 'asked' ? 'no amended document' : 'no score'} within ${Math.round(amendMs(o.s) / 1000)}s`;
  const amended = c.stage === 'rescoring' && c.amendedText !== null;
  o.emit('coverage-skipped', {
    generation: c.generation,
    reason: `${late}: the ${amended ? 'amended' : 'first'} document is frozen`,
  });
  freeze(o, now, amended ? c.amendedText! : c.first, c.stage === 'asked' ? c.score : null);
}
