// TEMPORARY stand-in for the coverage scorer's API (written on branch h38a): replaced at the merge.

export const CATEGORIES = ['files', 'dead_ends', 'instructions', 'tasks', 'identifiers'] as const;
export type Category = (typeof CATEGORIES)[number];
export interface CategoryScore {
  found: number;
  total: number;
  missing: string[];
}
export type CoverageScore = Record<Category, CategoryScore>;
export type SuccessorFacts = Record<Category, string[]>;

export function successorFacts(_rows: readonly unknown[]): SuccessorFacts {
  return { files: [], dead_ends: [], instructions: [], tasks: [], identifiers: [] };
}

export function scoreDocument(facts: SuccessorFacts, text: string): CoverageScore {
  const one = (items: string[]): CategoryScore => {
    const missing = items.filter((i) => !text.includes(i));
    return { found: items.length - missing.length, total: items.length, missing };
  };
  return { files: one(facts.files), dead_ends: one(facts.dead_ends), instructions: one(facts.instructions), tasks: one(facts.tasks), identifiers: one(facts.identifiers) };
}

export function belowThreshold(score: CoverageScore, threshold: number): Category[] {
  return CATEGORIES.filter((c) => score[c].total > 0 && score[c].found / score[c].total < threshold);
}
