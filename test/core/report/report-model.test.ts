// buildReport and its helpers: generations from the manifest or the events, documents matched to
// the generations that froze them, the first prompts, the handoff moment, bad manifests cleaned.
import t from 'tap';
import {
  buildReport,
  cleanManifest,
  lineageGenerations,
  type DocumentFile,
  type ReportInput,
  type TranscriptInput,
} from '../../../src/core/report/report-model.js';
import { parseRunEvents, type RunEventRecord } from '../../../src/core/run/run-events.js';
import { createManifest, endGeneration, startGeneration, type Manifest } from '../../../src/core/lineage/manifest.js';
import type { TranscriptScan } from '../../../src/core/report/report-transcript.js';
import { renderReportHtml } from '../../../src/core/report/report-html.js';

const iso = (s: number): string => new Date(Date.UTC(2026, 10, 30, 22, 0, s)).toISOString();
const CUR = '/w/notes/交接-work.md';

function lineage(n: number): Manifest {
  let m = createManifest({ step: 'work', cwd: '/p', window: 200_000, at: 150_000, now: iso(0) });
  for (let g = 1; g <= n; g++) {
    m = startGeneration(m, { generation: g, sessionId: `s${g}`, now: iso(g * 100) });
    if (g < n) m = endGeneration(m, { end: 'handoff', now: iso(g * 100 + 90), handoffPath: CUR });
  }
  return m;
}

const docFile = (path: string, kind: DocumentFile['kind'], text: string): DocumentFile => ({
  path,
  kind,
  text,
  bytes: text.length,
  truncated: false,
});
const DOC = (next: string): string => `## Doing · 现在在做\n\nwork\n\n## Next · 下一步\n\n${next}\n`;

function input(over: Partial<ReportInput>): ReportInput {
  return {
    workbench: '/w',
    now: iso(1000),
    manifest: null,
    manifestProblem: null,
    events: null,
    eventsPath: null,
    eventsProblem: null,
    documents: [],
    transcripts: new Map(),
    spilledPrompts: new Map(),
    documentLimit: 1024,
    ...over,
  };
}

function scan(over: Partial<TranscriptScan>): TranscriptInput {
  return {
    path: '/t.jsonl',
    problem: null,
    scan: {
      bytes: 10,
      lines: 10,
      readings: 0,
      peak: 0,
      context: 0,
      costUsd: null,
      turns: 0,
      model: null,
      points: [],
      untimed: false,
      crossing: null,
      compactions: [],
      overflows: [],
      compactionCount: 0,
      overflowCount: 0,
      junkLines: 0,
      droppedLines: 0,
      firstAt: null,
      lastAt: null,
      ...over,
    },
  };
}

t.test(
  "documents go to the generations that froze them, newest first; an older lineage's archive is left over",
  async (t) => {
    const m = lineage(3);
    const docs = [
      docFile('/w/notes/archive/交接/work-2026-01-01T000000.000Z.md', 'archive', DOC('from an older lineage')),
      docFile('/w/notes/archive/交接/work-2026-11-30T220300.000Z.md', 'archive', DOC('one')),
      docFile(CUR, 'current', DOC('two')),
    ];
    const r = buildReport(input({ manifest: m, documents: docs }));
    t.same(
      r.generations.map((g) => g.document?.text.includes('one') ?? null),
      [true, false, null],
    );
    t.same(
      r.generations.map((g) => g.document?.path ?? null),
      [docs[1]?.path, CUR, null],
    );
    t.same(
      r.otherDocuments.map((d) => d.path),
      [docs[0]?.path],
    );
    t.equal(r.generations[1]?.firstPrompt?.source, 'reproduced');
    t.match(
      r.generations[1]?.firstPrompt?.text ?? '',
      /\bone\b/,
      "generation 2 was seeded with generation 1's document",
    );
    t.match(r.generations[2]?.firstPrompt?.text ?? '', /\btwo\b/);
    t.same(r.thresholds, { window: 200_000, at: 150_000, warnAt: 130_000 });
    t.equal(r.live, true, 'the last generation is still running');
    t.equal(r.generations[2]?.endedAt, iso(1000), 'a running generation is reported up to now');
  },
);

t.test('a recorded (spilled) prompt wins over the reproduction', async (t) => {
  const r = buildReport(
    input({
      manifest: lineage(2),
      documents: [docFile(CUR, 'current', DOC('x'))],
      spilledPrompts: new Map([[2, { path: '/w/notes/successor-prompt-2.md', text: 'THE PROMPT', truncated: false }]]),
    }),
  );
  t.same(r.generations[1]?.firstPrompt && [r.generations[1].firstPrompt.source, r.generations[1].firstPrompt.text], [
    'recorded',
    'THE PROMPT',
  ]);
});

t.test('a recorded prompt is labelled too long for the command line only when it was', async (t) => {
  const note = (tooLong: boolean | undefined) =>
    buildReport(
      input({
        manifest: lineage(2),
        documents: [docFile(CUR, 'current', DOC('x'))],
        spilledPrompts: new Map([
          [
            2,
            {
              path: '/w/notes/successor-prompt-2.md',
              text: 'P',
              truncated: false,
              ...(tooLong === undefined ? {} : { tooLong }),
            },
          ],
        ]),
      }),
    ).generations[1]?.firstPrompt?.note ?? '';
  t.equal(
    note(true),
    'recorded: too long for the command line, the session was told to read /w/notes/successor-prompt-2.md',
  );
  t.equal(note(false), 'recorded as given to the session, in /w/notes/successor-prompt-2.md');
  t.notMatch(note(undefined), /too long/, 'a file of unknown size is not called too long');
});

t.test("the handoff moment: the events file's `writing` line, else the transcript's crossing", async (t) => {
  const m = lineage(2);
  const crossing = { t: Date.parse(iso(150)), v: 151_000, line: 9 };
  const transcripts = new Map([['s1', scan({ crossing, points: [crossing], readings: 1, peak: 151_000 })]]);
  t.same(buildReport(input({ manifest: m, transcripts })).generations[0]?.handoffAsked, {
    ...crossing,
    source: 'transcript',
  });
  const events: RunEventRecord[] = [
    { ts: iso(160), event: 'writing', generation: 1, context: 152_000, at: 150_000, cut: 'turn-end' },
  ];
  t.same(buildReport(input({ manifest: m, transcripts, events })).generations[0]?.handoffAsked, {
    t: Date.parse(iso(160)),
    v: 152_000,
    line: 9,
    source: 'events',
  });
});

t.test('a transcript with no timestamps is spread over its generation by line', async (t) => {
  const m = lineage(2);
  const transcripts = new Map([
    [
      's1',
      scan({
        untimed: true,
        lines: 10,
        points: [
          { t: 5, v: 10, line: 5 },
          { t: 10, v: 20, line: 10 },
        ],
      }),
    ],
  ]);
  const g = buildReport(input({ manifest: m, transcripts })).generations[0];
  t.same(
    g?.curve.map((p) => p.t - Date.parse(iso(100))),
    [45_000, 90_000],
    'halfway and at the end of its 90 s',
  );
  t.equal(g?.transcript.untimed, true);
});

t.test('no manifest: the generations and the lines come from the events file', async (t) => {
  const policy = { window: 100_000, at: 50_000 };
  const { events, junk } = parseRunEvents(
    [
      JSON.stringify({
        ts: iso(1),
        event: 'start',
        ...policy,
        warnAt: 30_000,
        windowSource: 'flag',
        maxGenerations: 8,
        handoff: true,
        workbench: '/w',
        step: 'main',
      }),
      JSON.stringify({
        ts: iso(2),
        event: 'generation-start',
        generation: 1,
        session_id: 'e1',
        successor: false,
        ...policy,
      }),
      'junk',
      JSON.stringify({
        ts: iso(50),
        event: 'done',
        generation: 1,
        context: 60_000,
        window: 100_000,
        degraded: true,
        reason: 'timeout',
        path: CUR,
        sections: [],
      }),
      JSON.stringify({
        ts: iso(60),
        event: 'generation-start',
        generation: 2,
        session_id: 'e2',
        successor: true,
        ...policy,
      }),
      '[]',
      JSON.stringify({
        ts: iso(61),
        event: 'generation-start',
        generation: '3',
        session_id: 'e3',
        successor: true,
        ...policy,
      }),
    ].join('\n'),
  );
  t.equal(junk, 3, 'not JSON, not an object, and an event whose field has the wrong type');
  const gens = lineageGenerations(null, events);
  t.same(
    gens.map((g) => [g.session_id, g.end, g.ended_at, g.reason]),
    [
      ['e1', 'degraded', iso(50), 'timeout'],
      ['e2', 'running', null, null],
    ],
  );
  const r = buildReport(
    input({
      events,
      manifestProblem: 'no manifest at /w/manifest.json',
      documents: [docFile(CUR, 'current', DOC('n'))],
    }),
  );
  t.same(r.thresholds, { window: 100_000, at: 50_000, warnAt: 30_000 });
  t.equal(r.generations[0]?.document?.path, CUR);
  t.match(r.notes[0], 'no manifest at /w/manifest.json: the generations come from the events file');
});

t.test('a manifest with junk in its records: cleaned, never markup or a crash', async (t) => {
  const m = lineage(2);
  const bad = {
    ...m,
    cwd: 42,
    generations: [
      {
        ...m.generations[0],
        end: '"><script>alert(1)</script>',
        peak_context: 'lots',
        human_edit: { changed_sections: ['next', 7] },
      },
      { nope: true },
      'x',
    ],
  } as unknown as Manifest;
  const { manifest, dropped } = cleanManifest(bad);
  t.equal(dropped, 2);
  t.equal(manifest.cwd, '');
  t.same(
    manifest.generations.map((g) => [g.end, g.peak_context, g.human_edit?.changed_sections]),
    [['quit', 0, ['next']]],
  );
  const html = renderReportHtml(buildReport(input({ manifest, manifestDropped: dropped })));
  t.notMatch(html, /<script/i);
  t.match(html, '2 generation record(s) of the manifest have no session id: left out');
  t.match(html, 'a person edited its document (next)');
});

t.test('a night of errors is listed up to a bound, then counted', async (t) => {
  const events: RunEventRecord[] = Array.from({ length: 500 }, (_, i) => ({
    ts: iso(101),
    event: 'api-error',
    generation: 1,
    error: `overloaded ${i}`,
    details: '',
  }));
  const g = buildReport(input({ manifest: lineage(1), events })).generations[0];
  t.equal(g?.problems.length, 21);
  t.equal(g?.problems.at(-1), '… and 480 more');
});
