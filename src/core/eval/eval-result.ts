// `flower-pty eval compaction`'s result: the scored summaries of many transcripts as the JSON other tools
// read (its shape is fixed: docs/eval.md), and as the table a terminal shows. Pure; every text from a
// path is made one line (no control character reaches the terminal).

import { oneLine } from '../one-line.js';
import { CATEGORIES, type Category } from './successor-facts.js';
import { scoreTotals, type CoverageScore } from './coverage-score.js';

export interface EvalSummary {
  /** the transcript's path */
  transcript: string;
  /** the summary row's 1-based line */
  line: number;
  score: CoverageScore;
}

export interface EvalJson {
  summaries: Array<{ transcript: string; line: number; categories: CoverageScore }>;
  totals: Record<Category, { found: number; total: number }>;
}

export function evalJson(summaries: readonly EvalSummary[]): EvalJson {
  return {
    summaries: summaries.map((s) => ({ transcript: s.transcript, line: s.line, categories: s.score })),
    totals: scoreTotals(summaries.map((s) => s.score)),
  };
}

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

// One row per summary, its transcript last (a long path does not push the figures off the screen), then
// the totals. `shown` is how a path is written (relative to the folder the command ran in).
export function evalTable(summaries: readonly EvalSummary[], shown: (path: string) => string): string[] {
  const head = ['line', ...CATEGORIES.map((c) => CATEGORY_TITLES[c]), 'transcript'];
  const rows = summaries.map((s) => [String(s.line), ...CATEGORIES.map((c) => foundText(s.score[c].found, s.score[c].total)), oneLine(shown(s.transcript))]);
  const totals = scoreTotals(summaries.map((s) => s.score));
  rows.push(['', ...CATEGORIES.map((c) => foundText(totals[c].found, totals[c].total)), `total of ${summaries.length} summar${summaries.length === 1 ? 'y' : 'ies'}`]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (i === head.length - 1 ? 0 : r[i]!.length))));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : i === 0 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(head), ...rows.map(line)];
}
