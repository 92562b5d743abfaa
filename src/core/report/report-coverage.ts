// The report's account of a generation's check at the freeze (docs/events.md, "The check at the freeze"): what
// its frozen document carried of what its transcript showed, per category, whether it was amended first, and
// why it was not checked when it was not, from the events `coverage`, `amendment` and `coverage-skipped`. Pure.

import { CATEGORIES, type Category } from '../coverage/successor-facts.js';
import type { RunEventOf, RunEventRecord } from '../run/run-events.js';

export interface GenerationCoverage {
  /** found of total per category of the frozen document (null: it was never scored) */
  categories: Record<Category, { found: number; total: number }> | null;
  /** the items it left out, as `category: item` */
  missing: string[];
  /** the session was asked to amend its document */
  asked: boolean;
  /** the frozen document is the amended one */
  amended: boolean;
  /** why it went unchecked or unamended */
  skipped: string[];
}

export function coverageOf(n: number, events: readonly RunEventRecord[]): GenerationCoverage | null {
  const scored = events.filter(
    (e): e is RunEventOf<'coverage'> & { ts: string } => e.event === 'coverage' && e.generation === n,
  );
  const asked = events.some((e) => e.event === 'amendment' && e.generation === n);
  const skipped = events.flatMap((e) => (e.event === 'coverage-skipped' && e.generation === n ? [e.reason] : []));
  if (scored.length === 0 && skipped.length === 0) return null;
  // The last score is the frozen document's, unless the amendment it asked for never came.
  const last = scored.at(-1);
  const frozen = last && (last.document === 'amended' || !asked) ? last : scored[0];
  const categories = frozen
    ? (Object.fromEntries(
        CATEGORIES.map((c) => [c, { found: frozen[`${c}_found`], total: frozen[`${c}_total`] }]),
      ) as GenerationCoverage['categories'])
    : null;
  return { categories, missing: frozen?.missing ?? [], asked, amended: frozen?.document === 'amended', skipped };
}

/** one generation's account in words: "files 3/4 · tasks 1/1 (amended)" */
export function coverageWords(c: GenerationCoverage): string {
  const cats = c.categories;
  const parts = cats
    ? CATEGORIES.filter((k) => cats[k].total > 0).map((k) => `${k.replace('_', ' ')} ${cats[k].found}/${cats[k].total}`)
    : [];
  const figures = cats === null ? 'not scored' : parts.length === 0 ? 'nothing to carry' : parts.join(' · ');
  return `${figures}${c.amended ? ' (amended)' : c.asked ? ' (asked to amend; the first document frozen)' : ''}`;
}
