// Which known name a mistyped one is near: the edit distance with a swap of two neighbours counted as one
// edit (stauts → status is one), and how far a word may be from a name before it is taken as meant. Used
// for a lone word that looks like a subcommand and for an unknown flag. Pure.

/** edits (insert, delete, replace, swap two neighbours) from a to b: the optimal string alignment distance */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** how many edits still count as a slip of the fingers: one for a short name (ls, web, kill), two beyond */
export function slipAllowance(name: string): number {
  return name.length <= 4 ? 1 : 2;
}

/** the known name `word` is a slip of (case aside), the nearest first; null when none is near enough */
export function nearestName(word: string, names: readonly string[]): string | null {
  const typed = word.toLowerCase();
  let best: { name: string; distance: number } | null = null;
  for (const name of names) {
    const distance = editDistance(typed, name.toLowerCase());
    if (distance > slipAllowance(name)) continue;
    if (best === null || distance < best.distance) best = { name, distance };
  }
  return best?.name ?? null;
}
