// The report's account of a generation's failures: how many its transcript showed, how many its document
// carried (named by the writer, added by flower-pty's facts) or not at all, and how often its successor
// repeated a dead end, from the events `dead-ends-checked` and `dead-end-repeated` (docs/dead-ends.md).
// A lineage's row of these says whether its documents get better or worse at keeping dead ends. Pure.

import type { RunEventOf, RunEventRecord } from '../run/run-events.js';

export interface GenerationDeadEnds {
  /** failures its transcript showed (0: none, or a run from before the record) */
  seen: number;
  byWriter: number;
  byFacts: number;
  notAtAll: number;
  /** the calls flower-pty's facts added */
  missing: string[];
  /** its successor's calls that repeated one of its dead ends or listed failures */
  repeats: Array<{ call: string; deadEnd: string; line: number | null; ok: boolean }>;
  repeatCount: number;
}

/** repeats listed per generation; the count stays whole */
const MAX_REPEATS = 20;

// Generation `n`'s account, or null when no event speaks of it (nothing failed, nothing repeated).
export function deadEndsOf(n: number, events: readonly RunEventRecord[]): GenerationDeadEnds | null {
  const checked = events.find((e): e is RunEventOf<'dead-ends-checked'> & { ts: string } => e.event === 'dead-ends-checked' && e.generation === n);
  const repeated = events.filter((e): e is RunEventOf<'dead-end-repeated'> & { ts: string } => e.event === 'dead-end-repeated' && e.generation === n + 1);
  if (!checked && repeated.length === 0) return null;
  return {
    seen: checked?.seen ?? 0,
    byWriter: checked?.byWriter ?? 0,
    byFacts: checked?.byFacts ?? 0,
    notAtAll: checked?.notAtAll ?? 0,
    missing: checked?.missing ?? [],
    repeats: repeated.slice(0, MAX_REPEATS).map((e) => ({ call: e.call, deadEnd: e.deadEnd, line: e.line, ok: e.ok })),
    repeatCount: repeated.length,
  };
}

// One generation's account in words, for the report's table.
export function deadEndsWords(d: GenerationDeadEnds): string {
  const worked = d.repeats.filter((r) => r.ok).length;
  const repeats = d.repeatCount === 0 ? 'no repeat by its successor' : `${d.repeatCount} repeated by its successor${worked > 0 ? ` (${worked} worked this time)` : ''}`;
  return `${d.seen} failed · ${d.byWriter} in the document by its writer · ${d.byFacts} by flower-pty's facts · ${d.notAtAll} not at all · ${repeats}`;
}

// The lineage at a glance: per generation, the writer's share of its failures.
export function deadEndsTrend(gens: ReadonlyArray<{ n: number; deadEnds: GenerationDeadEnds | null }>): string | null {
  const parts = gens.filter((g) => g.deadEnds !== null && g.deadEnds.seen > 0).map((g) => `#${g.n} ${g.deadEnds!.byWriter} of ${g.deadEnds!.seen}`);
  return parts.length === 0 ? null : `failures its writer carried into the document: ${parts.join(' → ')}`;
}
