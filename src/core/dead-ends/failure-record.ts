// What failed in a session's main thread, as facts: failed shell commands (a non-zero exit), failed tools,
// and edits a later edit undid. Bounded and deduplicated: one entry per call (its normalised command, or
// its tool and input), with how many times it failed, when, and the newest error's first line. Fed the
// main thread's tool runs (tool-run.ts) while the transcript is metered. Pure and immutable: each run in
// gives a new record (failures are few; a success touches it only when it repeats a failure or edits).

import { commandJobs, normaliseCommand } from './command-match.js';
import { oneLine } from '../one-line.js';
import type { ToolRun } from './tool-run.js';

export interface Failure {
  key: string;
  kind: 'command' | 'tool' | 'reverted-edit';
  tool: string;
  /** the call as one line, cut short */
  input: string;
  /** a shell call's normalised command; null for another tool */
  command: string | null;
  /** what another tool's call was about, whole (its file, its search, a skill's name); a shell call's command */
  target: string;
  /** every try was a trivial failure (a search that found nothing, a path that does not exist, an edit
   *  before a read): not a dead end a successor must avoid */
  trivial: boolean;
  /** a shell failure's jobs (program and subcommand of each segment) no later call has done yet */
  pending: readonly string[];
  files: string[];
  /** the newest failure's first telling line */
  error: string;
  tries: number;
  firstAt: number | null;
  lastAt: number | null;
  /** the same call worked later in the session */
  workedLater: boolean;
}

interface EditSeen {
  file: string;
  before: string;
  after: string;
  input: string;
}

export interface FailureRecord {
  readonly failures: readonly Failure[];
  /** the newest successful edits, to see one undone */
  readonly edits: readonly EditSeen[];
  /** failures forgotten to keep the record bounded (the least tried, the oldest) */
  readonly dropped: number;
}

export const EMPTY_FAILURES: FailureRecord = { failures: [], edits: [], dropped: 0 };

/** entries kept; one more forgets the least tried, the oldest of them */
export const MAX_FAILURES = 100;
const EDITS_KEPT = 64;
/** a target is kept to this many characters (a goal's condition can be long; a file path is not cut) */
export const TARGET_CHARS = 1_000;
export const INPUT_CHARS = 160;
export const ERROR_CHARS = 160;

const targetOf = (run: ToolRun): string => oneLine(run.target ?? run.input, TARGET_CHARS);

function keyOf(run: ToolRun): string {
  return run.command !== null ? `command:${normaliseCommand(run.command)}` : `tool:${run.tool}:${targetOf(run)}`;
}

function withFailure(r: FailureRecord, f: Omit<Failure, 'tries' | 'firstAt' | 'workedLater'>): FailureRecord {
  const i = r.failures.findIndex((x) => x.key === f.key);
  if (i >= 0) {
    const old = r.failures[i]!;
    const failures = [...r.failures];
    failures[i] = {
      ...old,
      error: f.error,
      tries: old.tries + 1,
      lastAt: f.lastAt ?? old.lastAt,
      workedLater: false,
      trivial: old.trivial && f.trivial,
      pending: f.pending,
    };
    return { ...r, failures };
  }
  let failures = [...r.failures, { ...f, tries: 1, firstAt: f.lastAt, workedLater: false }];
  let dropped = r.dropped;
  if (failures.length > MAX_FAILURES) {
    // The newest stays: it is what the session is going round right now.
    let victim = 0;
    for (let j = 1; j < failures.length - 1; j++) {
      const a = failures[j]!;
      const b = failures[victim]!;
      if (a.tries < b.tries || (a.tries === b.tries && (a.lastAt ?? 0) < (b.lastAt ?? 0))) victim = j;
    }
    failures = failures.filter((_, j) => j !== victim);
    dropped += 1;
  }
  return { ...r, failures, dropped };
}

// A run of the main thread into the record.
export function recordRun(r: FailureRecord, run: ToolRun): FailureRecord {
  // Most runs are successes that are no edit, and nothing of the same tool failed and is still open:
  // nothing to work out (a call can only be the same call as a failure of its own tool).
  if (run.ok && run.edit === null && !r.failures.some((f) => !f.workedLater && f.tool === run.tool)) return r;
  const key = keyOf(run);
  if (!run.ok) {
    const input = oneLine(run.input, INPUT_CHARS);
    const command = run.command === null ? null : normaliseCommand(run.command);
    const kind = run.command !== null ? 'command' : 'tool';
    const target = command ?? targetOf(run);
    const pending = command === null ? [] : commandJobs(command);
    return withFailure(r, {
      key,
      kind,
      tool: run.tool,
      input,
      command,
      target,
      trivial: run.trivial === true,
      pending,
      files: run.files,
      error: oneLine(run.error ?? 'failed', ERROR_CHARS),
      lastAt: run.at,
    });
  }
  let next = r;
  // The same call worked; or, for a shell call, every job of the failed one (its program and subcommand)
  // has since been done by a call that worked, in any form (`mise run lint && mise run test` does
  // `mise run lint`'s job).
  const jobs = run.command === null ? [] : commandJobs(run.command);
  let failures: Failure[] | null = null;
  r.failures.forEach((f, i) => {
    if (f.workedLater || f.tool !== run.tool) return;
    const pending =
      jobs.length === 0 || f.pending.length === 0 ? f.pending : f.pending.filter((j) => !jobs.includes(j));
    const worked = f.key === key || (f.pending.length > 0 && pending.length === 0);
    if (!worked && pending.length === f.pending.length) return;
    failures ??= [...r.failures];
    failures[i] = { ...f, pending, workedLater: worked };
  });
  if (failures !== null) next = { failures, edits: next.edits, dropped: next.dropped };
  const e = run.edit;
  if (e === null) return next;
  // An edit that puts back exactly what an earlier edit of the same file replaced undoes it.
  const undone = next.edits.findIndex((x) => x.file === e.file && x.before === e.after && x.after === e.before);
  if (undone >= 0) {
    const earlier = next.edits[undone]!;
    const edits = next.edits.filter((_, j) => j !== undone);
    return withFailure(
      { ...next, edits },
      {
        key: `edit:${earlier.file}:${earlier.before}:${earlier.after}`,
        kind: 'reverted-edit',
        tool: run.tool,
        input: earlier.input,
        command: null,
        target: earlier.file,
        trivial: false,
        pending: [],
        files: [earlier.file],
        error: 'undone by a later edit of the same text',
        lastAt: run.at,
      },
    );
  }
  // A record per successful edit: written field by field (an object spread is V8's slow path), the list
  // cut only once it is over its bound.
  const edits = [
    ...next.edits,
    { file: e.file, before: e.before, after: e.after, input: oneLine(run.input, INPUT_CHARS) },
  ];
  return {
    failures: next.failures,
    edits: edits.length > EDITS_KEPT ? edits.slice(-EDITS_KEPT) : edits,
    dropped: next.dropped,
  };
}

// The most tried first; among equals, the newest first.
export function topFailures(r: FailureRecord, n: number): Failure[] {
  return [...r.failures].sort((a, b) => b.tries - a.tries || (b.lastAt ?? 0) - (a.lastAt ?? 0)).slice(0, n);
}

// A code span that holds `text` whatever backticks it contains.
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest === 0 ? `${fence}${text}${fence}` : `${fence} ${text} ${fence}`;
}

const clock = (ms: number | null): string => (ms === null ? '' : new Date(ms).toISOString().slice(11, 19));

// A failure as one list line: the call, the tool, how often and when, the error.
export function failureLine(f: Failure): string {
  const times = f.tries === 1 ? 'failed once' : `failed ${f.tries} times`;
  const when =
    f.lastAt === null ? '' : f.tries === 1 ? ` at ${clock(f.lastAt)}` : ` (${clock(f.firstAt)} to ${clock(f.lastAt)})`;
  const later = f.workedLater ? '; worked later' : '';
  return `${codeSpan(f.input)} (${f.tool}) ${f.kind === 'reverted-edit' ? (f.tries === 1 ? 'undone' : `undone ${f.tries} times`) : times}${when}: ${f.error}${later}`;
}
