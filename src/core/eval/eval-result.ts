// `flower-pty eval compaction`'s result: the scored summaries of many transcripts as the JSON other tools
// read (its shape is fixed: docs/eval.md), and as the table a terminal shows. Pure; every text from a
// path is made one line (no control character reaches the terminal).

import { oneLine } from '../one-line.js';
import { CATEGORIES, type Category } from '../coverage/successor-facts.js';
import { scoreTotals, type CoverageScore } from '../coverage/coverage-score.js';

export interface EvalSummary {
  /** the transcript's path */
  transcript: string;
  /** the summary row's 1-based line */
  line: number;
  /** against the facts from the transcript's start */
  score: CoverageScore;
  /** against the facts since the previous compaction */
  since: CoverageScore;
}

export interface EvalJson {
  summaries: Array<{ transcript: string; line: number; categories: CoverageScore; since_previous: CoverageScore }>;
  totals: Record<Category, { found: number; total: number }>;
  totals_since_previous: Record<Category, { found: number; total: number }>;
}

export function evalJson(summaries: readonly EvalSummary[]): EvalJson {
  return {
    summaries: summaries.map((s) => ({
      transcript: s.transcript,
      line: s.line,
      categories: s.score,
      since_previous: s.since,
    })),
    totals: scoreTotals(summaries.map((s) => s.score)),
    totals_since_previous: scoreTotals(summaries.map((s) => s.since)),
  };
}

/** the two countings, as the table heads them */
export const COUNTINGS = {
  since: 'against the facts since the previous compaction (what the model had in hand besides it):',
  start: "against the facts from the transcript's start:",
} as const;

/** how a category is headed on the terminal and the page */
export const CATEGORY_TITLES: Record<Category, string> = {
  files: 'files',
  dead_ends: 'dead ends',
  instructions: 'instructions',
  tasks: 'tasks',
  identifiers: 'identifiers',
};

/** found of total, and the share when there is any: "5/7 71%", "0/0" */
export function foundText(found: number, total: number): string {
  return total === 0 ? `${found}/${total}` : `${found}/${total} ${Math.round((found / total) * 100)}%`;
}

// Both countings, each headed: first since the previous compaction, then from the start. A transcript that
// compacted once has the same figures in both.
export function evalTable(summaries: readonly EvalSummary[], shown: (path: string) => string): string[] {
  return [
    COUNTINGS.since,
    ...countingTable(summaries, (s) => s.since, shown),
    COUNTINGS.start,
    ...countingTable(summaries, (s) => s.score, shown),
  ];
}

// One row per summary, its transcript last (a long path does not push the figures off the screen), then
// the totals. `shown` is how a path is written (relative to the folder the command ran in).
function countingTable(
  summaries: readonly EvalSummary[],
  scoreOf: (s: EvalSummary) => CoverageScore,
  shown: (path: string) => string,
): string[] {
  const head = ['line', ...CATEGORIES.map((c) => CATEGORY_TITLES[c]), 'transcript'];
  const rows = summaries.map((s) => [
    String(s.line),
    ...CATEGORIES.map((c) => foundText(scoreOf(s)[c].found, scoreOf(s)[c].total)),
    oneLine(shown(s.transcript)),
  ]);
  const totals = scoreTotals(summaries.map(scoreOf));
  rows.push([
    '',
    ...CATEGORIES.map((c) => foundText(totals[c].found, totals[c].total)),
    `total of ${summaries.length} summar${summaries.length === 1 ? 'y' : 'ies'}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (i === head.length - 1 ? 0 : r[i]!.length))));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : i === 0 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)];
}
