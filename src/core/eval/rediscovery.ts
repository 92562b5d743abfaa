// The seeded successor's rediscovery cost, as the Handoff Debt protocol measures a handoff: given only the
// document, how much a fresh session spends finding its way before it changes anything. Counted from the
// successor's own transcript, up to its first call that changes a file: its tool calls before it, the input
// tokens of its requests up to and including that one (input and cache tokens, as Claude Code recorded
// them), and the files it read again that the document had named. The dialect reads the rows into steps
// (claude-code/successor-steps.ts). Pure.

/** one thing the successor did, in order */
export type SuccessorStep =
  /** an API response and the input tokens its request carried (once per response) */
  | { kind: 'request'; id: string; tokens: number }
  /** a tool call: `read`, the file it read (null: not a read); `changes`, it changes a file */
  | { kind: 'call'; tool: string; read: string | null; changes: boolean };

export interface Rediscovery {
  /** tool calls before the first change (all of them when none came) */
  calls: number;
  /** input tokens up to the first change */
  tokens: number;
  /** the files it read that the document names, once each */
  reread: string[];
  /** it changed a file at all */
  changed: boolean;
}

export function rediscoveryOf(steps: Iterable<SuccessorStep>, named: (path: string) => boolean): Rediscovery {
  const seen = new Set<string>();
  const reread: string[] = [];
  let calls = 0;
  let tokens = 0;
  for (const s of steps) {
    if (s.kind === 'request') {
      if (seen.has(s.id)) continue;
      seen.add(s.id);
      tokens += s.tokens;
      continue;
    }
    if (s.changes) return { calls, tokens, reread, changed: true };
    calls += 1;
    if (s.read !== null && named(s.read) && !reread.includes(s.read)) reread.push(s.read);
  }
  return { calls, tokens, reread, changed: false };
}

// What the seeded successor is told: the document, and to go on. It is the same words for both arms.
export function continuationPrompt(document: string): string {
  return `A previous session left you this document and nothing else:\n\n<document>\n${document}\n</document>\n\nGo on with its work from where it stopped.`;
}

/** the runs' costs summed, and how many runs changed a file */
export function rediscoveryTotals(all: readonly Rediscovery[]): {
  runs: number;
  changed: number;
  calls: number;
  tokens: number;
  reread: number;
} {
  return all.reduce(
    (t, r) => ({
      runs: t.runs + 1,
      changed: t.changed + (r.changed ? 1 : 0),
      calls: t.calls + r.calls,
      tokens: t.tokens + r.tokens,
      reread: t.reread + r.reread.length,
    }),
    { runs: 0, changed: 0, calls: 0, tokens: 0, reread: 0 },
  );
}
