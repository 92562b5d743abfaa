// The run's events: what `--events` writes, one JSON object a line ({ ts, event, ...fields }), and what the
// notifier, the report and the tests read back. One table names every event and the type of each field; the
// TypeScript types and the reading guard are both made from it, so the writer, the file's schema and the
// readers cannot drift apart. Pure.

// Field types: 'number', 'string', 'boolean', 'string[]'; `|null` allows null; a trailing '?' makes the
// field optional.
type Tag =
  | 'number'
  | 'string'
  | 'boolean'
  | 'string[]'
  | 'number|null'
  | 'string|null'
  | 'number?'
  | 'string?'
  | 'boolean?'
  | 'string[]?';

export const RUN_EVENT_FIELDS = {
  /** the run began: the policy it runs with */
  start: {
    window: 'number',
    windowSource: 'string',
    at: 'number',
    warnAt: 'number',
    maxGenerations: 'number',
    handoff: 'boolean',
    workbench: 'string|null',
    step: 'string|null',
  },
  /** claude said which model (and so which window) it runs: the policy changed */
  window: { window: 'number', source: 'string', at: 'number', warnAt: 'number' },
  /** `folder`: where claude was started (a successor: where its predecessor was) */
  'generation-start': {
    generation: 'number',
    session_id: 'string',
    successor: 'boolean',
    window: 'number',
    at: 'number',
    folder: 'string?',
  },
  near: { generation: 'number', context: 'number', warnAt: 'number' },
  /** the handoff request went out; `cut`: at a turn's end, a tool boundary, typed, or instead of a compaction */
  writing: { generation: 'number', context: 'number', at: 'number', cut: 'string' },
  'born-high': { generation: 'number', context: 'number', line: 'number' },
  crash: { generation: 'number', code: 'number', signal: 'number?', crashes: 'number' },
  'generation-end': { generation: 'number', peak: 'number', reason: 'string' },
  /** the document is frozen */
  /** `written` false: the disk refused it, and the successor starts from the copy in memory */
  done: {
    generation: 'number',
    context: 'number',
    window: 'number',
    degraded: 'boolean',
    reason: 'string?',
    path: 'string|null',
    written: 'boolean?',
    sections: 'string[]',
  },
  review: { generation: 'number', path: 'string|null', reason: 'string?' },
  degraded: { generation: 'number', path: 'string|null', reason: 'string?' },
  archived: { path: 'string' },
  error: { message: 'string' },
  'child-exit': { generation: 'number', code: 'number', signal: 'number?' },
  'spawn-failed': { generation: 'number', message: 'string' },
  /** a file could not be written (`what`: document, manifest, record, prompt): why, what it costs, what to do */
  'write-failed': { what: 'string', path: 'string', reason: 'string', cost: 'string', advice: 'string' },
  /** a write that had failed worked again */
  'write-recovered': { what: 'string', path: 'string' },
  /** the successor's first prompt went to the model (`via`: its first UserPromptSubmit hook) */
  'seed-delivered': { generation: 'number', via: 'string', chars: 'number' },
  /** the successor's first prompt is more than half its window: a person is told before it starts */
  'document-too-large': { generation: 'number', path: 'string|null', chars: 'number', window: 'number' },
  'transcript-reset': { generation: 'number', reason: 'string' },
  'human-edit': { generation: 'number', changed: 'string[]', draft: 'string|null' },
  'edit-pending': { generation: 'number', changed: 'string[]' },
  'edit-sent': { generation: 'number' },
  'compaction-blocked': { generation: 'number', context: 'number' },
  compaction: { generation: 'number', preTokens: 'number|null', meter: 'number|null' },
  overflow: { generation: 'number', text: 'string' },
  /** a turn crossed the handoff line (`line`, `ms` before) and ran into claude's own limit with no boundary
   * to cut it at: `context`, the last reading. Said at once; the document is degraded */
  'no-boundary': { generation: 'number', context: 'number', line: 'number', ms: 'number' },
  'stop-waited': { generation: 'number', ms: 'number', landed: 'boolean' },
  'tool-waited': { generation: 'number', ms: 'number', landed: 'boolean' },
  /** the CLI refused a tool call by itself (auto mode's classifier): it never ran, and the turn went on */
  'tool-denied': { generation: 'number', tool: 'string', reason: 'string' },
  /** the writing turn's own row reached the transcript `ms` after its Stop hook (`landed` false: never, in time);
   * `context`: its reading, the generation's last, which `done` carries */
  'hooks-back': { generation: 'number' },
  'hooks-missing': { generation: 'number', after: 'string' },
  'session-changed': { generation: 'number', from: 'string', to: 'string', source: 'string' },
  /** claude moved the session (a worktree): its transcript is now `to`, its folder `cwd` */
  'transcript-moved': { generation: 'number', from: 'string', to: 'string', cwd: 'string|null' },
  /** where the session is changed by Claude Code's word; `changed` names which of the three */
  'session-place': {
    generation: 'number',
    folder: 'string|null',
    permissionMode: 'string|null',
    addedDirs: 'string[]',
    changed: 'string[]',
  },
  /** a turn under way and no transcript at `path` for `after` seconds: not metered, handed off at the next boundary */
  'transcript-lost': { generation: 'number', path: 'string', after: 'number' },
  'transcript-found': { generation: 'number', path: 'string' },
  /** the successor could not start where its predecessor was */
  'place-refused': { generation: 'number', reason: 'string' },
  /** a Stop during the writing turn whose text was not taken as the document (another session's, or none's, or never in the transcript) */
  'stop-refused': { generation: 'number', reason: 'string' },
  /** claude waits for a person's approval; `tool` from PermissionRequest, else only the notification's text */
  'needs-permission': { generation: 'number', tool: 'string?', what: 'string' },
  /** claude asks its person a question (AskUserQuestion) and waits for the answer */
  question: { generation: 'number', tool: 'string', question: 'string' },
  'api-error': { generation: 'number', error: 'string', details: 'string' },
  /** a usage limit parked the session until `until` (ISO; null: unknown) */
  parked: { generation: 'number', until: 'string|null', untilMs: 'number?', autoContinue: 'boolean' },
  idle: { generation: 'number', message: 'string' },
  resumed: { generation: 'number', at: 'string' },
  'document-removed': { path: 'string', phase: 'string' },
  'document-problem': { path: 'string|null', missing: 'string[]' },
  'facts-restored': { path: 'string|null' },
  /** at a freeze: what failed in the generation (`seen`), how many its document names (`byWriter`), how many
   * flower-pty's facts add (`byFacts`, their calls in `missing`), and how many neither (`notAtAll`) */
  'dead-ends-checked': {
    generation: 'number',
    seen: 'number',
    byWriter: 'number',
    byFacts: 'number',
    notAtAll: 'number',
    missing: 'string[]',
    degraded: 'boolean',
  },
  /** a successor's call matched a dead end of its document or a failure listed to its writer (`line`: the
   * dead end's line in the document, null when only listed); `ok`: this time it worked */
  'dead-end-repeated': {
    generation: 'number',
    tool: 'string',
    call: 'string',
    deadEnd: 'string',
    line: 'number|null',
    ok: 'boolean',
  },
  /** a document scored against what its transcript shows, before the freeze (`document`: first, or amended);
   * per category what it carries of the total; `below`: the categories under `threshold`; `missing`: the items
   * left out, each as `category: item` (at most 50) */
  coverage: {
    generation: 'number',
    document: 'string',
    threshold: 'number',
    below: 'string[]',
    missing: 'string[]',
    files_found: 'number',
    files_total: 'number',
    dead_ends_found: 'number',
    dead_ends_total: 'number',
    instructions_found: 'number',
    instructions_total: 'number',
    tasks_found: 'number',
    tasks_total: 'number',
    identifiers_found: 'number',
    identifiers_total: 'number',
  },
  /** the session was asked once to add what its document leaves out (`items` of the `below` categories; the
   * ones the request lists in `asked`, as `category: item`), in at most `lines` lines; it has `ms` */
  amendment: {
    generation: 'number',
    below: 'string[]',
    items: 'number',
    ms: 'number',
    asked: 'string[]?',
    lines: 'number?',
  },
  /** what the amendment changed: lines `added` and `removed` against the first document, the asked items the
   * amended one now carries (`gained`), and whether it added more lines than it was allowed (`over`) */
  amended: { generation: 'number', added: 'number', removed: 'number', gained: 'string[]', over: 'boolean' },
  /** the document was frozen without (another) check or amendment, and why */
  'coverage-skipped': { generation: 'number', reason: 'string' },
  stopped: { exitCode: 'number', message: 'string' },
  ended: { exitCode: 'number', message: 'string?' },
} as const satisfies Record<string, Record<string, Tag>>;

type Table = typeof RUN_EVENT_FIELDS;
export type RunEventName = keyof Table;
export const RUN_EVENT_NAMES = Object.keys(RUN_EVENT_FIELDS) as RunEventName[];

type Base<T> = T extends `${infer B}?`
  ? Base<B>
  : T extends `${infer A}|null`
    ? Base<A> | null
    : T extends 'number'
      ? number
      : T extends 'string'
        ? string
        : T extends 'boolean'
          ? boolean
          : T extends 'string[]'
            ? string[]
            : never;
type Required<S> = { -readonly [K in keyof S as S[K] extends `${string}?` ? never : K]: Base<S[K]> };
type Optional<S> = { -readonly [K in keyof S as S[K] extends `${string}?` ? K : never]?: Base<S[K]> };
type Flat<T> = { [K in keyof T]: T[K] };

/** the fields of event `K`, as the writer passes them */
export type RunEventFields<K extends RunEventName> = K extends RunEventName
  ? Flat<Required<Table[K]> & Optional<Table[K]>>
  : never;
/** one event with its name, narrowed by `event` */
export type RunEventOf<K extends RunEventName = RunEventName> = { [N in K]: Flat<{ event: N } & RunEventFields<N>> }[K];
/** one line of the events file */
export type RunEventRecord = RunEventOf & { ts: string };

/** the generation an event is about, when it is about one */
export function generationOf(e: RunEventOf): number | null {
  return 'generation' in e ? e.generation : null;
}

function fits(tag: Tag, value: unknown): boolean {
  if (tag.endsWith('?')) return value === undefined || fits(tag.slice(0, -1) as Tag, value);
  if (tag.endsWith('|null')) return value === null || fits(tag.slice(0, -5) as Tag, value);
  if (tag === 'string[]') return Array.isArray(value) && value.every((v) => typeof v === 'string');
  return typeof value === tag;
}

// The one guard every reader of the events file uses: a line is an event when its name is known and every
// field has its type. Anything else (another version's event, a hand-edited line) is not, and is counted by
// the reader rather than half-read.
export function readRunEvent(value: unknown): RunEventRecord | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.ts !== 'string' || typeof v.event !== 'string' || !Object.hasOwn(RUN_EVENT_FIELDS, v.event)) return null;
  const fields: Record<string, Tag> = RUN_EVENT_FIELDS[v.event as RunEventName];
  for (const [key, tag] of Object.entries(fields)) if (!fits(tag, v[key])) return null;
  return v as RunEventRecord;
}

/** the events of one file's text: junk lines (not JSON, not a known event) are skipped and counted */
export function parseRunEvents(text: string): { events: RunEventRecord[]; junk: number } {
  const events: RunEventRecord[] = [];
  let junk = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = null;
    }
    const event = readRunEvent(parsed);
    if (event) events.push(event);
    else junk++;
  }
  return { events, junk };
}
