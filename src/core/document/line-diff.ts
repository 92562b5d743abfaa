// Line diff of two texts (the model's draft against the person's version), by longest common
// subsequence. Pure; bounded: past a size limit the changed middle is shown as removed + added.

export type DiffOp = 'same' | 'del' | 'add';

export interface DiffLine {
  op: DiffOp;
  text: string;
}

export interface LineDiff {
  lines: DiffLine[];
  added: number;
  removed: number;
  /** the middle was too large for the LCS table: shown whole as removed then added */
  coarse: boolean;
}

/** cells of the LCS table past which the middle is not aligned line by line (about 16 MB of Uint32) */
export const MAX_DIFF_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

// The common prefix and suffix are taken first: an edit usually touches a few lines of a long text.
export function diffLines(before: string, after: string, maxCells: number = MAX_DIFF_CELLS): LineDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head: DiffLine[] = a.slice(0, start).map((text) => ({ op: 'same', text }));
  const tail: DiffLine[] = a.slice(endA).map((text) => ({ op: 'same', text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  let middle: DiffLine[];
  let coarse = false;
  if ((midA.length + 1) * (midB.length + 1) > maxCells) {
    coarse = true;
    middle = [
      ...midA.map((text): DiffLine => ({ op: 'del', text })),
      ...midB.map((text): DiffLine => ({ op: 'add', text })),
    ];
  } else {
    middle = lcsDiff(midA, midB);
  }
  const lines = [...head, ...middle, ...tail];
  return {
    lines,
    added: lines.filter((l) => l.op === 'add').length,
    removed: lines.filter((l) => l.op === 'del').length,
    coarse,
  };
}

// Classic LCS table from the end, then a walk from the start: removals before additions at a change.
function lcsDiff(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] as number) + 1
          : Math.max(table[(i + 1) * width + j] as number, table[i * width + j + 1] as number);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: 'same', text: a[i] as string });
      i++;
      j++;
    } else if ((table[(i + 1) * width + j] as number) >= (table[i * width + j + 1] as number)) {
      out.push({ op: 'del', text: a[i] as string });
      i++;
    } else {
      out.push({ op: 'add', text: b[j] as string });
      j++;
    }
  }
  while (i < n) out.push({ op: 'del', text: a[i++] as string });
  while (j < m) out.push({ op: 'add', text: b[j++] as string });
  return out;
}
