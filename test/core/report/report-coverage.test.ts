// The report's account of each generation's check at the freeze: its frozen document's figures per category
// (the amended one's when it came, the first one's when the amendment never did), what it left out, why a
// document went unchecked; on the page, escaped.
import t from 'tap';
import { coverageOf, coverageWords } from '../../../src/core/report/report-coverage.js';
import { parseRunEvents } from '../../../src/core/run/run-events.js';
import { renderReportHtml } from '../../../src/core/report/report-html.js';
import { buildReport } from '../../../src/core/report/report-model.js';

const figures = (files: [number, number], tasks: [number, number]) => ({
  files_found: files[0],
  files_total: files[1],
  dead_ends_found: 0,
  dead_ends_total: 0,
  instructions_found: 0,
  instructions_total: 0,
  tasks_found: tasks[0],
  tasks_total: tasks[1],
  identifiers_found: 0,
  identifiers_total: 0,
});
const lines = [
  {
    ts: '2026-12-03T07:00:00Z',
    event: 'coverage',
    generation: 1,
    document: 'first',
    threshold: 0.5,
    below: ['files'],
    missing: ['files: src/<b>x</b>.ts', 'files: b.ts'],
    ...figures([1, 3], [1, 1]),
  },
  { ts: '2026-12-03T07:00:01Z', event: 'amendment', generation: 1, below: ['files'], items: 2, ms: 150_000 },
  {
    ts: '2026-12-03T07:01:00Z',
    event: 'coverage',
    generation: 1,
    document: 'amended',
    threshold: 0.5,
    below: [],
    missing: [],
    ...figures([3, 3], [1, 1]),
  },
  {
    ts: '2026-12-03T07:20:00Z',
    event: 'coverage',
    generation: 2,
    document: 'first',
    threshold: 0.5,
    below: ['files'],
    missing: ['files: c.ts'],
    ...figures([0, 1], [0, 0]),
  },
  { ts: '2026-12-03T07:20:01Z', event: 'amendment', generation: 2, below: ['files'], items: 1, ms: 150_000 },
  {
    ts: '2026-12-03T07:22:31Z',
    event: 'coverage-skipped',
    generation: 2,
    reason: 'no amended document within 150s: the first document is frozen',
  },
  {
    ts: '2026-12-03T07:40:00Z',
    event: 'coverage-skipped',
    generation: 3,
    reason: 'a degraded document is not checked for what it leaves out',
  },
];
const { events, junk } = parseRunEvents(lines.map((l) => JSON.stringify(l)).join('\n'));

t.test('per generation, from the events', async (t) => {
  t.equal(junk, 0, 'the events fit their table');
  t.equal(coverageWords(coverageOf(1, events)!), 'files 3/3 · tasks 1/1 (amended)', "the amended document's figures");
  t.equal(
    coverageWords(coverageOf(2, events)!),
    'files 0/1 (asked to amend; the first document frozen)',
    "the first document's, when no amendment came",
  );
  t.same(coverageOf(2, events)!.skipped, ['no amended document within 150s: the first document is frozen']);
  t.equal(coverageWords(coverageOf(3, events)!), 'not scored');
  t.equal(coverageOf(4, events), null, 'nothing said of it');
});

t.test('the page shows the figures, escaped', async (t) => {
  const manifest = {
    version: 1,
    step: 'work',
    cwd: '/p',
    window: 200_000,
    at: 150_000,
    created_at: '2026-12-03T06:59:00Z',
    original_prompt: 'go',
    events_path: null,
    generations: [1, 2].map((n) => ({
      generation: n,
      session_id: `s${n}`,
      started_at: '2026-12-03T07:00:00Z',
      ended_at: '2026-12-03T07:30:00Z',
      peak_context: 1,
      cost_usd: 0,
      num_turns: 1,
      handoff_path: null,
      degraded: false,
      reason: null,
      end: 'handoff',
      human_edit: null,
    })),
    retired: [],
    errors: [],
  };
  const first = lines
    .slice(0, 1)
    .map((l) => JSON.stringify(l))
    .join('\n');
  const model = buildReport({
    workbench: '/p/.flower',
    now: '2026-12-03T08:00:00Z',
    manifest: manifest as never,
    manifestProblem: null,
    events: parseRunEvents(first).events,
    eventsPath: null,
    eventsProblem: null,
    documents: [],
    transcripts: new Map(),
    spilledPrompts: new Map(),
    documentLimit: 1 << 20,
  });
  const html = renderReportHtml(model);
  t.match(html, /What its document carries of what its transcript shows: files 1\/3 · tasks 1\/1\./);
  t.match(html, /files: src\/&lt;b&gt;x&lt;\/b&gt;\.ts/, 'an item from the transcript is escaped');
  t.notMatch(html, /<b>x<\/b>/);
});
