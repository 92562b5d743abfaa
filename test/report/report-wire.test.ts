// A report's model as another machine printed it (report --json), read back before it is drawn here:
// the model this checkout makes reads back as itself; every field the page reads is checked to its depth,
// and a model with any one field of the wrong kind is refused in one line that names the field.
import t from 'tap';
import { readReportModel } from '../../src/core/report/report-wire.js';
import { buildReport, type ReportModel } from '../../src/core/report/report-model.js';
import { everyLeaf, fullModel, hostileStrings, MARKUP } from '../helpers/report-models.js';

const empty = buildReport({
  workbench: '/w',
  now: '2026-12-05T00:00:00.000Z',
  manifest: null,
  manifestProblem: 'no manifest at /w/manifest.json',
  manifestDropped: 0,
  events: null,
  eventsPath: null,
  eventsProblem: null,
  documents: [],
  transcripts: new Map(),
  spilledPrompts: new Map(),
  documentLimit: 1024,
});

t.test('a model reads back as itself', async (t) => {
  for (const model of [empty, fullModel])
    t.same(readReportModel(JSON.stringify(model)), { model: JSON.parse(JSON.stringify(model)) });
});

t.test('not one object, or another version: refused', async (t) => {
  for (const text of ['', 'not json', '[]', 'null', '"x"', JSON.stringify({ ...fullModel, version: 2 })]) {
    t.ok('problem' in readReportModel(text), text.slice(0, 40));
  }
});

// Each case: a change to the full model (a path and the bad value put there) and the field the line names.
const HOSTILE = '"><script>alert(1)</script>';
const cases: Array<[string, unknown]> = [
  ['generatedAt', HOSTILE],
  ['generatedAt', '2026-13-45'],
  ['workbench', 7],
  ['step', {}],
  ['cwd', []],
  ['live', 'yes'],
  ['startedAt', 'yesterday'],
  ['endedAt', 17],
  ['spanMs', '1'],
  ['costUsd', null],
  ['turns', '<img src=x onerror=alert(1)>'],
  ['ending', 1],
  ['thresholds', 'x'],
  ['thresholds.window', '200000'],
  ['thresholds.at', null],
  ['thresholds.warnAt', true],
  ['notes', 'a'],
  ['notes.0', {}],
  ['notes', Array.from({ length: 1_000_001 }, () => '')],
  ['deadEndsTrend', 3],
  ['generations', {}],
  ['otherDocuments', null],
  ['generations.0', 'x'],
  ['generations.0.n', HOSTILE],
  ['generations.0.n', -1],
  ['generations.0.n', 1.5],
  ['generations.0.sessionId', null],
  ['generations.0.startedAt', HOSTILE],
  ['generations.0.endedAt', '2026-12-05 00:00'],
  ['generations.0.durationMs', 'long'],
  ['generations.0.end', HOSTILE],
  ['generations.0.end', 'exploded'],
  ['generations.0.endWords', 5],
  ['generations.0.peak', '1'],
  ['generations.0.costUsd', '$1'],
  ['generations.0.turns', '<img src=x onerror=alert(1)>'],
  ['generations.0.problems', [1]],
  ['generations.0.remarks', 'r'],
  ['generations.0.transcript', null],
  ['generations.0.transcript.path', 1],
  ['generations.0.transcript.found', 1],
  ['generations.0.transcript.bytes', -3],
  ['generations.0.transcript.readings', '2'],
  ['generations.0.transcript.untimed', null],
  ['generations.0.curve', {}],
  ['generations.0.curve.0.t', 'now'],
  ['generations.0.curve.0.t', 1e300],
  ['generations.0.curve.1.v', null],
  ['generations.0.curve.0.line', 'x'],
  ['generations.0.handoffAsked.source', 'mine'],
  ['generations.0.handoffAsked.t', HOSTILE],
  ['generations.0.compactions.0.preTokens', '9'],
  ['generations.0.overflows.0.text', 9],
  ['generations.0.overflows.0.line', {}],
  ['generations.0.document.path', 1],
  ['generations.0.document.text', null],
  ['generations.0.document.text', 'x'.repeat(4 * 1024 * 1024 + 1)],
  ['generations.0.document.bytes', '5'],
  ['generations.0.document.truncated', 0],
  ['generations.0.document.edit.changedSections', 'Scene'],
  ['generations.0.document.edit.diff.lines.1.op', 'insert'],
  ['generations.0.document.edit.diff.added', HOSTILE],
  ['generations.0.document.edit.draftFound', 'no'],
  ['generations.0.deadEnds.seen', '2'],
  ['generations.0.deadEnds.repeats.0.line', HOSTILE],
  ['generations.0.deadEnds.repeats.0.ok', 'yes'],
  ['generations.0.deadEnds.missing', [null]],
  ['generations.0.coverage.categories.files.found', '1'],
  ['generations.0.coverage.categories.tasks', null],
  ['generations.0.coverage.asked', 1],
  ['generations.0.firstPrompt.source', 'theirs'],
  ['generations.0.firstPrompt.text', 1],
  ['otherDocuments.0.edit', 'x'],
  ['otherDocuments.0.bytes', Infinity],
];

function put(model: ReportModel, path: string, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(model)) as Record<string, unknown>;
  const keys = path.split('.');
  let at: Record<string, unknown> = copy;
  for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
  at[keys.at(-1)!] = value;
  return copy;
}

t.test('every field of the wrong kind is refused, and the line names it', async (t) => {
  for (const [path, value] of cases) {
    // JSON cannot say Infinity: the reader is handed the parsed value's text, with it as null, or as a string
    const text =
      value === Infinity
        ? JSON.stringify(put(fullModel, path, 'Infinity'))
        : JSON.stringify(put(fullModel, path, value));
    const read = readReportModel(text);
    const named = path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
    t.ok(
      'problem' in read && read.problem.startsWith(named),
      `${path} = ${JSON.stringify(value)?.slice(0, 30)}: ${'problem' in read ? read.problem.slice(0, 120) : 'accepted'}`,
    );
    t.notOk('problem' in read && read.problem.includes('<'), 'the line carries none of the value');
  }
});

t.test('a field the page does not read is dropped, however deep', async (t) => {
  const text = JSON.stringify({
    ...fullModel,
    extra: 'x',
    generations: [{ ...fullModel.generations[0], extra: 1 }],
  }).replace('"extra":"x"', `"extra":${'['.repeat(200_000)}1${']'.repeat(200_000)}`);
  const read = readReportModel(text);
  t.ok('model' in read, 'read');
  if ('model' in read) {
    t.notOk('extra' in read.model, 'not carried on');
    t.notOk('extra' in read.model.generations[0]!, 'nor in a generation');
    t.doesNotThrow(() => JSON.stringify(read.model), 'and the model prints');
  }
});

t.test('the page escapes every value it draws, checked or not', async (t) => {
  const { renderReportHtml } = await import('../../src/core/report/report-html.js');
  // strings everywhere (what the checks let through) and, unchecked, markup in the numbers' and times' places
  const strings = everyLeaf(fullModel, (v) => (typeof v === 'string' ? MARKUP : v)) as ReportModel;
  t.ok(
    'model' in readReportModel(JSON.stringify(hostileStrings(MARKUP))),
    'markup in every free string passes the checks: the page must escape it',
  );
  const issue = {
    ...fullModel,
    generations: [
      {
        ...fullModel.generations[0]!,
        n: MARKUP,
        turns: '<img src=x onerror=alert(1)>',
        end: MARKUP,
        startedAt: MARKUP,
        endedAt: `2026-12-05T00:00:00.000Z${MARKUP}`,
      },
    ],
    turns: MARKUP,
  } as unknown as ReportModel;
  for (const [name, model] of [
    ['hostile strings', strings],
    ['hostile numbers and times, unchecked', issue],
  ] as const) {
    let html = '';
    try {
      html = renderReportHtml(model);
    } catch {
      // a value the page cannot draw at all (a time toFixed cannot take): nothing drawn, nothing run
      continue;
    }
    t.notMatch(html, /<script|<img|<meta http-equiv|onerror="/i, `${name}: no element of the model's making`);
    t.match(html, /&lt;script&gt;/, `${name}: the markup is there as text`);
  }
});
