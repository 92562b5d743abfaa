// The report's account of each generation's failures: seen, carried by the writer or by flower-pty's facts
// or not at all, repeated by its successor; the lineage's trend; on the page, escaped.
import t from 'tap';
import { deadEndsListed, deadEndsOf, deadEndsTrend, deadEndsWords } from '../../../src/core/report/report-dead-ends.js';
import { parseRunEvents } from '../../../src/core/run/run-events.js';
import { renderReportHtml } from '../../../src/core/report/report-html.js';
import { buildReport } from '../../../src/core/report/report-model.js';

const lines = [
  {
    ts: '2026-12-03T07:00:00Z',
    event: 'dead-ends-checked',
    generation: 1,
    seen: 4,
    byWriter: 2,
    byFacts: 1,
    notAtAll: 1,
    missing: ['<b>make</b> check'],
    degraded: false,
  },
  {
    ts: '2026-12-03T07:10:00Z',
    event: 'dead-end-repeated',
    generation: 2,
    tool: 'Bash',
    call: 'make check',
    deadEnd: 'failed in this session…',
    line: 14,
    ok: false,
  },
  {
    ts: '2026-12-03T07:11:00Z',
    event: 'dead-end-repeated',
    generation: 2,
    tool: 'Bash',
    call: 'npm run build',
    deadEnd: '`npm run build` needs node 22',
    line: 7,
    ok: true,
  },
  {
    ts: '2026-12-03T07:20:00Z',
    event: 'dead-ends-checked',
    generation: 2,
    seen: 2,
    byWriter: 2,
    byFacts: 0,
    notAtAll: 0,
    missing: [],
    degraded: false,
  },
];
const { events, junk } = parseRunEvents(lines.map((l) => JSON.stringify(l)).join('\n'));

t.test('per generation, from the events', async (t) => {
  t.equal(junk, 0, 'the events fit their table');
  const one = deadEndsOf(1, events)!;
  t.same([one.seen, one.byWriter, one.byFacts, one.notAtAll, one.repeatCount], [4, 2, 1, 1, 2]);
  t.same(
    one.repeats.map((r) => [r.call, r.ok, r.line]),
    [
      ['make check', false, 14],
      ['npm run build', true, 7],
    ],
    "its successor's repeats",
  );
  t.equal(
    deadEndsWords(one),
    "4 failed · 2 in the document by its writer · 1 by flower-pty's facts · 1 not at all · 2 repeated by its successor (1 worked this time)",
  );
  t.equal(deadEndsOf(2, events)!.repeatCount, 0);
  t.equal(deadEndsOf(3, events), null, 'nothing said of it');
  t.equal(
    deadEndsTrend([
      { n: 1, deadEnds: one },
      { n: 2, deadEnds: deadEndsOf(2, events) },
      { n: 3, deadEnds: null },
    ]),
    '#1 4 failed · 2 in the document by its writer · 0 listed in its document → #2 2 failed · 2 in the document by its writer · 0 listed in its document',
  );
});

t.test('the header counts the dead ends a document lists, even when nothing failed', async (t) => {
  const doc = (deadEnds: string) => ({
    text: `# 交接 · work\n\n## Doing · 现在在做\n\nx\n\n## Dead ends · 走不通的\n\n${deadEnds}\n\n## Next · 下一步\n\ny\n`,
  });
  t.equal(
    deadEndsListed(doc('- `wc -w`: dropped\n- `cat -n`: no\n  (it numbers blank lines)').text),
    2,
    'two items, a continuation line is not a third',
  );
  t.equal(deadEndsListed(doc('1. a\n2) b\n3. c').text), 3, 'numbered');
  t.equal(deadEndsListed(doc('Tried sed; it mangled the file.').text), 1, 'prose alone is one');
  t.equal(deadEndsListed(doc('(空)').text), 0, 'the empty marker lists none');
  t.equal(
    deadEndsTrend([
      { n: 1, deadEnds: null, document: doc('- a\n- b') },
      { n: 2, deadEnds: null, document: null },
    ]),
    '#1 0 failed · 0 in the document by its writer · 2 listed in its document',
    'the demo: nothing failed, two listed',
  );
  t.equal(deadEndsTrend([{ n: 1, deadEnds: null, document: doc('(空)') }]), null, 'nothing failed and nothing listed');
});

t.test('the page shows the counts, escaped', async (t) => {
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
  const model = buildReport({
    workbench: '/p/.flower',
    now: '2026-12-03T08:00:00Z',
    manifest: manifest as never,
    manifestProblem: null,
    events,
    eventsPath: null,
    eventsProblem: null,
    documents: [],
    transcripts: new Map(),
    spilledPrompts: new Map(),
    documentLimit: 1 << 20,
  });
  t.equal(model.generations[0]!.deadEnds?.seen, 4);
  const html = renderReportHtml(model);
  t.match(html, /4 failed · 2 in the document by its writer · 1 by flower-pty&#39;s facts · 1 not at all/);
  t.match(html, /&lt;b&gt;make&lt;\/b&gt; check/, 'a call from the transcript is escaped');
  t.notMatch(html, /<b>make<\/b>/);
  t.match(html, /#1 4 failed · 2 in the document by its writer · 0 listed in its document → #2 2 failed/);
  t.match(html, /<code>npm run build<\/code> worked this time/);
});
