// The report's account of a generation's failures: how many its transcript showed, how many its document
// carried (named by the writer, added by flower-pty's facts) or not at all, and how often its successor
// repeated a dead end, from the events `dead-ends-checked` and `dead-end-repeated` (docs/dead-ends.md).
// A lineage's row of these says whether its documents get better or worse at keeping dead ends. Pure.

import type { RunEventOf, RunEventRecord } from '../run/run-events.js';
import { normalizeBody } from '../document/handoff-doc.js';
import { parseDocument } from '../document/handoff-parse.js';

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
  const checked = events.find(
    (e): e is RunEventOf<'dead-ends-checked'> & { ts: string } => e.event === 'dead-ends-checked' && e.generation === n,
  );
  const repeated = events.filter(
    (e): e is RunEventOf<'dead-end-repeated'> & { ts: string } =>
      e.event === 'dead-end-repeated' && e.generation === n + 1,
  );
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
  const repeats =
    d.repeatCount === 0
      ? 'no repeat by its successor'
      : `${d.repeatCount} repeated by its successor${worked > 0 ? ` (${worked} worked this time)` : ''}`;
  return `${d.seen} failed · ${d.byWriter} in the document by its writer · ${d.byFacts} by flower-pty's facts · ${d.notAtAll} not at all · ${repeats}`;
}

/** the dead ends a document lists: its Dead ends section's items (a bullet or a numbered line each; prose alone is one), 0 when it says nothing */
export function deadEndsListed(text: string): number {
  const body = normalizeBody(parseDocument(text).doc.deadends).trim();
  if (body === '') return 0;
  const items = body.split('\n').filter((line) => /^\s*(?:[-*+]|\d+[.)])\s+\S/.test(line)).length;
  return Math.max(1, items);
}

// The lineage at a glance, in the words of each generation's own account: what its transcript showed
// failed, how many of those its writer carried into the document, and how many dead ends the document
// lists (a dead end is not always a failed call: "tried wc -w, dropped it").
export function deadEndsTrend(
  gens: ReadonlyArray<{ n: number; deadEnds: GenerationDeadEnds | null; document?: { text: string } | null }>,
): string | null {
  const parts = gens.flatMap((g) => {
    const listed = g.document ? deadEndsListed(g.document.text) : 0;
    const seen = g.deadEnds?.seen ?? 0;
    if (seen === 0 && listed === 0) return [];
    return [
      `#${g.n} ${seen} failed · ${g.deadEnds?.byWriter ?? 0} in the document by its writer · ${listed} listed in its document`,
    ];
  });
  return parts.length === 0 ? null : parts.join(' → ');
}
