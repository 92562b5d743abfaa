// The report of a lineage as one value: what `flower-pty report` draws as a page and prints with
// --json. Pure: the command reads the manifest, the documents, the events and the transcripts and
// hands them in; every missing piece becomes a note in the model, never an exception.

import { runningGeneration, type GenerationRecord, type Manifest } from '../lineage/manifest.js';
import type { CurvePoint } from './downsample.js';
import type { TranscriptScan } from './report-transcript.js';
import { diffLines, type LineDiff } from '../document/line-diff.js';
import { seedSuccessor } from '../lineage/handoff-lineage.js';
import { POLICY_DEFAULTS } from '../run/policy.js';
import { generationOf, type RunEventRecord } from '../run/run-events.js';
import { deadEndsOf, deadEndsTrend, type GenerationDeadEnds } from './report-dead-ends.js';
import { coverageOf, type GenerationCoverage } from './report-coverage.js';

export interface DocumentFile {
  path: string;
  kind: 'current' | 'archive' | 'draft';
  /** the text, cut at the report's limit */
  text: string;
  bytes: number;
  truncated: boolean;
}

export interface TranscriptInput {
  path: string;
  scan: TranscriptScan | null;
  /** why there is no scan (gone, unreadable) */
  problem: string | null;
}

export interface ReportInput {
  workbench: string;
  now: string;
  manifest: Manifest | null;
  manifestProblem: string | null;
  /** generation records cleanManifest left out */
  manifestDropped?: number;
  events: RunEventRecord[] | null;
  eventsPath: string | null;
  eventsProblem: string | null;
  documents: DocumentFile[];
  /** by session id */
  transcripts: ReadonlyMap<string, TranscriptInput>;
  /**
   * notes/successor-prompt-<n>.md files: every successor's first prompt as recorded on a workbench;
   * `tooLong` when it was too long for the command line and the session was told to read the file instead
   */
  spilledPrompts: ReadonlyMap<number, { path: string; text: string; truncated: boolean; tooLong?: boolean }>;
  /** where the documents limit cuts (bytes), for the notes */
  documentLimit: number;
}

export interface Mark {
  t: number;
  v: number;
  line: number | null;
}

export interface GenerationReport {
  n: number;
  sessionId: string;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  end: GenerationRecord['end'] | 'unknown';
  endWords: string;
  peak: number;
  costUsd: number | null;
  turns: number | null;
  /** errors and degraded reasons, in words */
  problems: string[];
  /** what a person did, in words (not an error) */
  remarks: string[];
  transcript: {
    path: string | null;
    found: boolean;
    problem: string | null;
    bytes: number;
    readings: number;
    junkLines: number;
    droppedLines: number;
    /** the transcript had no timestamps: readings are spread over the generation's span by line */
    untimed: boolean;
  };
  /** the context readings, downsampled; t in ms since the epoch */
  curve: CurvePoint[];
  handoffAsked: (Mark & { source: 'events' | 'transcript' }) | null;
  compactions: Array<Mark & { preTokens: number | null }>;
  overflows: Array<Mark & { text: string }>;
  document: DocumentReport | null;
  /** its failures: seen, carried into its document (by its writer, by flower-pty's facts) or not, repeated by its successor */
  deadEnds: GenerationDeadEnds | null;
  /** its frozen document's coverage of its transcript, checked at the freeze (null: no check) */
  coverage: GenerationCoverage | null;
  /** what this generation was told first */
  firstPrompt: {
    text: string;
    source: 'original' | 'recorded' | 'reproduced';
    path: string | null;
    note: string | null;
  } | null;
}

export interface DocumentReport {
  path: string;
  text: string;
  bytes: number;
  truncated: boolean;
  edit: { changedSections: string[]; draftPath: string | null; draftFound: boolean; diff: LineDiff | null } | null;
}

export interface ReportModel {
  version: 1;
  generatedAt: string;
  workbench: string;
  step: string | null;
  cwd: string | null;
  live: boolean;
  startedAt: string | null;
  endedAt: string | null;
  spanMs: number | null;
  costUsd: number;
  turns: number;
  ending: string;
  thresholds: { window: number; at: number; warnAt: number } | null;
  /** missing or doubtful data, in words */
  notes: string[];
  generations: GenerationReport[];
  /** per generation, what failed, how much of it its writer carried, and how many dead ends its document lists (null: none of these) */
  deadEndsTrend: string | null;
  /** frozen documents no generation claims (no manifest, or an older lineage's archive) */
  otherDocuments: DocumentReport[];
}

/** problems listed per generation; a night of API errors must not make the page long */
const MAX_PROBLEMS = 20;

const END_WORDS: Record<GenerationReport['end'], string> = {
  handoff: 'handed off: it wrote its document',
  degraded: 'degraded handoff: flower-pty wrote the document for it',
  crash: 'claude crashed',
  quit: 'quit: the session was ended by a person or by claude',
  stopped: 'stopped by flower-pty',
  running: 'still running (reported up to now)',
  unknown: 'unknown: no record of how it ended',
};

function ms(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

function isoOf(t: number | null): string | null {
  return t === null ? null : new Date(t).toISOString();
}

const ENDS: ReadonlyArray<GenerationRecord['end']> = ['running', 'handoff', 'degraded', 'quit', 'stopped', 'crash'];

const numberOr = (x: unknown, fallback: number): number => (typeof x === 'number' && Number.isFinite(x) ? x : fallback);
const stringOr = <T>(x: unknown, fallback: T): string | T => (typeof x === 'string' ? x : fallback);

// One generation record as the report can trust it: wrong types become defaults, an unknown end
// becomes 'quit' or 'running' by whether it has an end time; no session id drops the record.
function cleanGeneration(raw: unknown, index: number): GenerationRecord | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const g = raw as Record<string, unknown>;
  const sessionId = stringOr(g.session_id, null);
  if (sessionId === null) return null;
  const endedAt = stringOr(g.ended_at, null);
  const edit = g.human_edit as Record<string, unknown> | null | undefined;
  return {
    generation: numberOr(g.generation, index + 1),
    session_id: sessionId,
    started_at: stringOr(g.started_at, ''),
    ended_at: endedAt,
    peak_context: numberOr(g.peak_context, 0),
    context: numberOr(g.context, 0),
    cost_usd: numberOr(g.cost_usd, 0),
    num_turns: numberOr(g.num_turns, 0),
    handoff_path: stringOr(g.handoff_path, null),
    degraded: g.degraded === true,
    reason: stringOr(g.reason, null),
    end: ENDS.includes(g.end as GenerationRecord['end'])
      ? (g.end as GenerationRecord['end'])
      : endedAt === null
        ? 'running'
        : 'quit',
    human_edit:
      typeof edit === 'object' && edit !== null
        ? {
            changed_sections: Array.isArray(edit.changed_sections)
              ? edit.changed_sections.filter((x): x is string => typeof x === 'string')
              : [],
            draft_path: stringOr(edit.draft_path, null),
          }
        : null,
    ...(typeof g.transcript_path === 'string' ? { transcript_path: g.transcript_path } : {}),
  };
}

// A parsed manifest is only checked at its top level: every field the report reads is checked here,
// so a hand-edited or half-broken file cannot put markup or a crash into the page.
export function cleanManifest(m: Manifest): { manifest: Manifest; dropped: number } {
  const generations = m.generations.map(cleanGeneration).filter((g): g is GenerationRecord => g !== null);
  const errors = Array.isArray(m.errors)
    ? m.errors.filter(
        (e) => typeof e === 'object' && e !== null && typeof e.reason === 'string' && typeof e.generation === 'number',
      )
    : [];
  return {
    manifest: {
      ...m,
      cwd: stringOr(m.cwd, ''),
      window: numberOr(m.window, 0),
      at: numberOr(m.at, 0),
      errors,
      generations,
      original_prompt: stringOr(m.original_prompt, null),
    },
    dropped: m.generations.length - generations.length,
  };
}

// The generations of the lineage: the manifest's, else the events file's generation-start lines.
export function lineageGenerations(
  manifest: Manifest | null,
  events: readonly RunEventRecord[] | null,
): GenerationRecord[] {
  if (manifest) return manifest.generations;
  const out: GenerationRecord[] = [];
  for (const e of events ?? []) {
    if (e.event === 'generation-start') {
      const prev = out.at(-1);
      if (prev && prev.ended_at === null) prev.ended_at = e.ts;
      out.push(runningGeneration({ generation: e.generation, sessionId: e.session_id, now: e.ts }));
    }
    const g = e.event === 'done' ? out.find((x) => x.generation === e.generation) : undefined;
    if (g && e.event === 'done') {
      g.end = e.degraded ? 'degraded' : 'handoff';
      g.ended_at = e.ts;
      g.handoff_path = e.path;
      if (e.reason !== undefined) g.reason = e.reason;
    }
  }
  // With no manifest nothing says how a generation without a `done` ended.
  for (const g of out) if (g.end === 'running' && g.ended_at !== null) g.end = 'quit';
  return out;
}

// Frozen documents in the order they were frozen: the archive (oldest first; the name starts with
// the time it was archived) then the current one. The generations that froze one take them from the
// newest backwards, so an archive that also holds an older lineage's documents does not shift them.
function assignDocuments(gens: readonly GenerationRecord[], docs: readonly DocumentFile[]): Map<number, DocumentFile> {
  const frozen = [
    ...docs.filter((d) => d.kind === 'archive').sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    ...docs.filter((d) => d.kind === 'current'),
  ];
  const froze = gens.filter((g) => g.handoff_path !== null);
  const out = new Map<number, DocumentFile>();
  for (let k = 1; k <= froze.length && k <= frozen.length; k++) {
    out.set((froze[froze.length - k] as GenerationRecord).generation, frozen[frozen.length - k] as DocumentFile);
  }
  return out;
}

function problemsOf(g: GenerationRecord, manifest: Manifest | null, events: readonly RunEventRecord[]): string[] {
  const out: string[] = [];
  if (g.reason) out.push(g.end === 'degraded' ? `degraded: ${g.reason}` : g.reason);
  for (const e of manifest?.errors ?? []) {
    if (e.generation === g.generation && e.reason !== g.reason) out.push(e.reason);
  }
  for (const e of events) {
    if (generationOf(e) !== g.generation) continue;
    if (e.event === 'error') out.push(`error: ${e.message}`);
    if (e.event === 'api-error') out.push(`API error: ${e.error} ${e.details}`.trim());
    if (e.event === 'crash') out.push(`claude exited unexpectedly (code ${e.code})`);
    if (e.event === 'document-problem' && e.missing.length > 0)
      out.push(`the document lacked: ${e.missing.join(', ')}`);
  }
  return [...new Set(out)];
}

function handoffAskedOf(
  g: GenerationRecord,
  events: readonly RunEventRecord[],
  scan: TranscriptScan | null,
): GenerationReport['handoffAsked'] {
  const writing = events.find((e) => e.event === 'writing' && e.generation === g.generation);
  const t = writing ? ms(writing.ts) : null;
  if (writing?.event === 'writing' && t !== null)
    return { t, v: writing.context, line: scan?.crossing?.line ?? null, source: 'events' };
  if (scan?.crossing && !scan.untimed) return { ...scan.crossing, source: 'transcript' };
  return null;
}

// A transcript with no timestamps: its readings are spread over the generation's span by line.
function spread(points: CurvePoint[], scan: TranscriptScan, from: number | null, to: number | null): CurvePoint[] {
  if (!scan.untimed || from === null) return points;
  const end = to ?? from + 1;
  const lines = Math.max(1, scan.lines);
  return points.map((p) => ({ ...p, t: from + ((end - from) * p.line) / lines }));
}

function firstPromptOf(
  g: GenerationRecord,
  previous: { doc: DocumentFile | undefined; gen: GenerationRecord } | null,
  input: ReportInput,
): GenerationReport['firstPrompt'] {
  const spilled = input.spilledPrompts.get(g.generation);
  if (spilled) {
    return {
      text: spilled.text,
      source: 'recorded',
      path: spilled.path,
      note: `${spilled.tooLong === true ? `recorded: too long for the command line, the session was told to read ${spilled.path}` : `recorded as given to the session, in ${spilled.path}`}${spilled.truncated ? ' (cut for this page)' : ''}`,
    };
  }
  if (previous === null) {
    const original = input.manifest?.original_prompt ?? null;
    return original === null
      ? null
      : { text: original, source: 'original', path: null, note: "the person's prompt that started the lineage" };
  }
  if (!previous.doc) return null;
  const seed = seedSuccessor({
    onDisk: previous.doc.text,
    kept: null,
    frozen: null,
    path: previous.gen.handoff_path,
    originalPrompt: input.manifest?.original_prompt ?? '',
    step: input.manifest?.step ?? 'work',
  });
  const cut = previous.doc.truncated ? ' from the document as cut for this page' : '';
  return {
    text: seed.prompt,
    source: 'reproduced',
    path: previous.doc.path,
    note: `reproduced${cut} with the same function flower-pty seeds a successor with (seedSuccessor), from the document as it is on disk now`,
  };
}

// By name: the manifest records absolute paths, and a workbench may have been moved since.
const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

// One generation as the report shows it: its times, its ending, its problems, its transcript's curve and
// marks, its document (and a person's edit of it), its dead ends, coverage and first prompt.
function generationReport(
  g: GenerationRecord,
  previous: { doc: DocumentFile | undefined; gen: GenerationRecord } | null,
  c: {
    input: ReportInput;
    docs: Map<number, DocumentFile>;
    drafts: Map<string, DocumentFile>;
    nowMs: number;
  },
): GenerationReport {
  const { input, nowMs } = c;
  const { manifest } = input;
  const events = input.events ?? [];
  const tin = input.transcripts.get(g.session_id);
  const scan = tin?.scan ?? null;
  const started = ms(g.started_at) ?? scan?.firstAt ?? null;
  const endedRaw = ms(g.ended_at);
  const ended = endedRaw ?? (g.end === 'running' ? nowMs : (scan?.lastAt ?? null));
  const problems = problemsOf(g, manifest, events);
  if (tin?.problem) problems.push(tin.problem);
  if (scan && scan.junkLines > 0)
    problems.push(`${scan.junkLines} line(s) of its transcript were not JSON records and were skipped`);
  if (scan && scan.droppedLines > 0) problems.push(`${scan.droppedLines} over-long transcript line(s) were skipped`);
  for (const o of (scan?.overflows ?? []).slice(0, MAX_PROBLEMS))
    problems.push(`overflow at transcript line ${o.line}: ${o.text}`);
  if (scan && scan.overflowCount > MAX_PROBLEMS) problems.push(`${scan.overflowCount} overflows in all`);
  if (scan && scan.compactionCount > scan.compactions.length)
    problems.push(`${scan.compactionCount} compactions in all; the first ${scan.compactions.length} are marked`);
  const doc = c.docs.get(g.generation);
  let document: DocumentReport | null = null;
  if (doc) {
    const draftPath = g.human_edit?.draft_path ?? null;
    const draft = draftPath ? (c.drafts.get(draftPath) ?? c.drafts.get(baseName(draftPath))) : undefined;
    document = {
      path: doc.path,
      text: doc.text,
      bytes: doc.bytes,
      truncated: doc.truncated,
      edit: g.human_edit
        ? {
            changedSections: g.human_edit.changed_sections,
            draftPath,
            draftFound: draft !== undefined,
            diff: draft ? diffLines(draft.text, doc.text) : null,
          }
        : null,
    };
  } else if (g.handoff_path) {
    problems.push(`its document (${g.handoff_path}) is no longer on disk`);
  }
  const mark = (t: number | null, line: number): number => t ?? (started ?? 0) + line;
  return {
    n: g.generation,
    sessionId: g.session_id,
    startedAt: isoOf(started),
    endedAt: isoOf(ended),
    durationMs: started !== null && ended !== null ? Math.max(0, ended - started) : null,
    end: g.end,
    endWords: g.end === 'degraded' && g.reason ? `${END_WORDS.degraded} (${g.reason})` : END_WORDS[g.end],
    peak: Math.max(g.peak_context, scan?.peak ?? 0),
    costUsd: manifest ? g.cost_usd : (scan?.costUsd ?? null),
    turns: manifest ? g.num_turns : (scan?.turns ?? null),
    problems:
      problems.length > MAX_PROBLEMS
        ? [...problems.slice(0, MAX_PROBLEMS), `… and ${problems.length - MAX_PROBLEMS} more`]
        : problems,
    remarks: g.human_edit
      ? [
          `a person edited its document (${g.human_edit.changed_sections.length > 0 ? g.human_edit.changed_sections.join(', ') : 'no section changed'})`,
        ]
      : [],
    transcript: {
      path: tin?.path ?? null,
      found: scan !== null,
      problem: tin?.problem ?? null,
      bytes: scan?.bytes ?? 0,
      readings: scan?.readings ?? 0,
      junkLines: scan?.junkLines ?? 0,
      droppedLines: scan?.droppedLines ?? 0,
      untimed: scan?.untimed ?? false,
    },
    curve: scan ? spread(scan.points, scan, started, ended) : [],
    handoffAsked: handoffAskedOf(g, events, scan),
    compactions: (scan?.compactions ?? []).map((c) => ({
      t: mark(c.t, c.line),
      v: c.before,
      line: c.line,
      preTokens: c.preTokens,
    })),
    overflows: (scan?.overflows ?? []).map((o) => ({ t: mark(o.t, o.line), v: 0, line: o.line, text: o.text })),
    document,
    deadEnds: deadEndsOf(g.generation, events),
    coverage: coverageOf(g.generation, events),
    firstPrompt: firstPromptOf(g, previous, input),
  };
}

export function buildReport(input: ReportInput): ReportModel {
  const { manifest } = input;
  const events = input.events ?? [];
  const gens = lineageGenerations(manifest, input.events);
  const notes: string[] = [];
  if (input.manifestProblem) {
    notes.push(
      `${input.manifestProblem}: ${gens.length > 0 ? 'the generations come from the events file' : 'only the documents are shown'}`,
    );
  }
  if (input.manifestDropped)
    notes.push(`${input.manifestDropped} generation record(s) of the manifest have no session id: left out`);
  if (input.eventsProblem) notes.push(input.eventsProblem);
  const docs = assignDocuments(gens, input.documents);
  // By name too: the manifest records absolute paths, and a workbench may have been moved since.
  const draftFiles = input.documents.filter((d) => d.kind === 'draft');
  const drafts = new Map([
    ...draftFiles.map((d): [string, DocumentFile] => [baseName(d.path), d]),
    ...draftFiles.map((d): [string, DocumentFile] => [d.path, d]),
  ]);
  const nowMs = ms(input.now) ?? 0;
  let previous: { doc: DocumentFile | undefined; gen: GenerationRecord } | null = null;
  const generations: GenerationReport[] = [];
  for (const g of gens) {
    generations.push(generationReport(g, previous, { input, docs, drafts, nowMs }));
    previous = { doc: docs.get(g.generation), gen: g };
  }
  const missing = generations.filter((g) => !g.transcript.found).length;
  if (missing > 0)
    notes.push(`${missing} of ${generations.length} transcript(s) could not be read: their curves are missing`);
  if (input.documents.some((d) => d.truncated)) {
    notes.push(`documents over ${Math.round(input.documentLimit / 1024)} KB are cut at that size on this page`);
  }
  const starts = generations.map((g) => ms(g.startedAt)).filter((t): t is number => t !== null);
  const ends = generations.map((g) => ms(g.endedAt)).filter((t): t is number => t !== null);
  // reduce, not a spread: a spread of a 72,000-generation lineage overflows the stack
  const startedAt = starts.length > 0 ? starts.reduce((a, b) => Math.min(a, b)) : null;
  const endedAt = ends.length > 0 ? ends.reduce((a, b) => Math.max(a, b)) : null;
  const last = generations.at(-1);
  const live = last?.end === 'running';
  // Without a manifest the run's own `start` (or a later `window`) event says where the lines were.
  const announced = [...events].reverse().find((x) => x.event === 'window' || x.event === 'start');
  const lines = announced?.event === 'window' || announced?.event === 'start' ? announced : null;
  const window = manifest && manifest.window > 0 ? manifest.window : (lines?.window ?? null);
  const at = manifest && manifest.at > 0 ? manifest.at : (lines?.at ?? null);
  return {
    version: 1,
    generatedAt: input.now,
    workbench: input.workbench,
    step: manifest?.step ?? null,
    cwd: manifest?.cwd ?? null,
    live,
    startedAt: isoOf(startedAt),
    endedAt: isoOf(endedAt),
    spanMs: startedAt !== null && endedAt !== null ? endedAt - startedAt : null,
    costUsd: Math.round(generations.reduce((s, g) => s + (g.costUsd ?? 0), 0) * 1e6) / 1e6,
    turns: generations.reduce((s, g) => s + (g.turns ?? 0), 0),
    ending: last ? `generation ${last.n}: ${last.endWords}` : 'no generation recorded',
    thresholds:
      window !== null && at !== null
        ? { window, at, warnAt: Math.max(POLICY_DEFAULTS.warnFloor, at - POLICY_DEFAULTS.warnGap) }
        : null,
    notes,
    generations,
    deadEndsTrend: deadEndsTrend(generations),
    otherDocuments: input.documents
      .filter((d) => d.kind !== 'draft' && ![...docs.values()].includes(d))
      .map((d) => ({ path: d.path, text: d.text, bytes: d.bytes, truncated: d.truncated, edit: null })),
  };
}
