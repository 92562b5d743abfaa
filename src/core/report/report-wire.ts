// A report's model as another machine's flower-pty prints it (`report --json`), read back to be drawn
// here (`report HOST:ID`, the web face's report of a remote run). Every field the page, the chart and the
// run page's lineage read is checked to the depth they read it (core/hosts/remote-value.ts): numbers are
// finite, times are times, an ending is one of the known endings, strings and lists are bounded; the model
// is rebuilt from those fields alone. Anything else is another program's output, and the command says so
// in one line naming the field rather than draw it. Pure.

import type { DocumentReport, GenerationReport, ReportModel } from './report-model.js';
import type { GenerationDeadEnds } from './report-dead-ends.js';
import type { GenerationCoverage } from './report-coverage.js';
import type { CurvePoint } from './downsample.js';
import type { DiffLine, LineDiff } from '../document/line-diff.js';
import { CATEGORIES } from '../coverage/successor-facts.js';
import { jsonObject } from '../json-object.js';
import {
  count,
  epochMs,
  finite,
  flag,
  keyed,
  listOf,
  oneOf,
  orNull,
  readRemote,
  record,
  text,
  time,
  type Shape,
} from '../hosts/remote-value.js';

/** a path, a word, a line of a problem: longer is not a report's */
const LINE = 64 * 1024;
/** a document or a prompt (the report cuts documents at 256 KB; a seed adds the original prompt) */
const TEXT = 4 * 1024 * 1024;
/** lists: generations, a curve's points, a diff's lines, notes */
const ITEMS = 1_000_000;

const line = text(LINE);
const mark = { t: epochMs, v: finite, line: orNull(finite) };

const diffShape: Shape<LineDiff> = record<LineDiff>({
  lines: listOf(record<DiffLine>({ op: oneOf(['same', 'del', 'add'] as const), text: text(TEXT) }), ITEMS),
  added: count,
  removed: count,
  coarse: flag,
});

const documentShape: Shape<DocumentReport> = record<DocumentReport>({
  path: line,
  text: text(TEXT),
  bytes: count,
  truncated: flag,
  edit: orNull(
    record<NonNullable<DocumentReport['edit']>>({
      changedSections: listOf(line, ITEMS),
      draftPath: orNull(line),
      draftFound: flag,
      diff: orNull(diffShape),
    }),
  ),
});

const deadEndsShape: Shape<GenerationDeadEnds> = record<GenerationDeadEnds>({
  seen: count,
  byWriter: count,
  byFacts: count,
  notAtAll: count,
  missing: listOf(line, ITEMS),
  repeats: listOf(
    record<GenerationDeadEnds['repeats'][number]>({ call: line, deadEnd: line, line: orNull(count), ok: flag }),
    ITEMS,
  ),
  repeatCount: count,
});

const coverageShape: Shape<GenerationCoverage> = record<GenerationCoverage>({
  categories: orNull(keyed(CATEGORIES, record<{ found: number; total: number }>({ found: count, total: count }))),
  missing: listOf(line, ITEMS),
  asked: flag,
  amended: flag,
  skipped: listOf(line, ITEMS),
});

const ENDS = ['running', 'handoff', 'degraded', 'quit', 'stopped', 'crash', 'unknown'] as const satisfies ReadonlyArray<
  GenerationReport['end']
>;

const generationShape: Shape<GenerationReport> = record<GenerationReport>({
  n: count,
  sessionId: line,
  startedAt: orNull(time),
  endedAt: orNull(time),
  durationMs: orNull(finite),
  end: oneOf(ENDS),
  endWords: line,
  peak: finite,
  costUsd: orNull(finite),
  turns: orNull(finite),
  problems: listOf(line, ITEMS),
  remarks: listOf(line, ITEMS),
  transcript: record<GenerationReport['transcript']>({
    path: orNull(line),
    found: flag,
    problem: orNull(line),
    bytes: count,
    readings: count,
    junkLines: count,
    droppedLines: count,
    untimed: flag,
  }),
  curve: listOf(record<CurvePoint>({ t: epochMs, v: finite, line: finite }), ITEMS),
  handoffAsked: orNull(
    record<NonNullable<GenerationReport['handoffAsked']>>({
      ...mark,
      source: oneOf(['events', 'transcript'] as const),
    }),
  ),
  compactions: listOf(record<GenerationReport['compactions'][number]>({ ...mark, preTokens: orNull(finite) }), ITEMS),
  overflows: listOf(record<GenerationReport['overflows'][number]>({ ...mark, text: line }), ITEMS),
  document: orNull(documentShape),
  deadEnds: orNull(deadEndsShape),
  coverage: orNull(coverageShape),
  firstPrompt: orNull(
    record<NonNullable<GenerationReport['firstPrompt']>>({
      text: text(TEXT),
      source: oneOf(['original', 'recorded', 'reproduced'] as const),
      path: orNull(line),
      note: orNull(line),
    }),
  ),
});

const modelShape: Shape<ReportModel> = record<ReportModel>({
  version: oneOf([1] as const),
  generatedAt: time,
  workbench: line,
  step: orNull(line),
  cwd: orNull(line),
  live: flag,
  startedAt: orNull(time),
  endedAt: orNull(time),
  spanMs: orNull(finite),
  costUsd: finite,
  turns: finite,
  ending: line,
  thresholds: orNull(record<NonNullable<ReportModel['thresholds']>>({ window: finite, at: finite, warnAt: finite })),
  notes: listOf(line, ITEMS),
  generations: listOf(generationShape, ITEMS),
  deadEndsTrend: orNull(line),
  otherDocuments: listOf(documentShape, ITEMS),
});

/** the model, or what is wrong with the text in one line (not JSON, another version, the first field of the wrong kind) */
export function readReportModel(textIn: string): { model: ReportModel } | { problem: string } {
  const m = jsonObject(textIn);
  if (!m) return { problem: 'it is not one JSON object' };
  if (m['version'] !== 1)
    return {
      problem: `its version is ${typeof m['version'] === 'number' ? m['version'] : 'missing'}, this flower-pty reads version 1`,
    };
  const read = readRemote(modelShape, m);
  return 'value' in read ? { model: read.value } : read;
}
