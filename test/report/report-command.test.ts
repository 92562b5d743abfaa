// `flower-pty report` end to end through the bin, on synthetic lineages on disk: the page, the
// chart's points against the transcript readings, --json, and every kind of bad or missing input.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import {
  readFileSync,
  writeFileSync,
  rmSync,
  mkdirSync,
  statSync,
  lstatSync,
  symlinkSync,
  existsSync,
  chmodSync,
  readdirSync,
} from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeLineage, doc, T0, GEN_SPAN, type Lineage } from '../helpers/report-lineage.js';
import { CHART, chartScale } from '../../src/core/report/report-chart.js';
import type { ReportModel } from '../../src/core/report/report-model.js';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'flower-pty.js');

function report(l: Lineage, args: string[] = [], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, 'report', '--workbench', l.workbench, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: l.root, CLAUDE_CONFIG_DIR: l.configDir, ...env },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

// the file named `name` anywhere under `dir`
function findUnder(dir: string, name: string): string | null {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return path;
    if (entry.isDirectory()) {
      const found = findUnder(path, name);
      if (found) return found;
    }
  }
  return null;
}

const page = (l: Lineage): string => readFileSync(join(l.workbench, 'report.html'), 'utf8');

function three(): Lineage {
  return makeLineage([
    {
      sessionId: 'aaaaaaaa-0000-4000-8000-000000000001',
      readings: [
        { after: 30_000, context: 20_000 },
        { after: 200_000, context: 120_000 },
        { after: 400_000, context: 152_000 },
        { after: 500_000, context: 158_000 },
      ],
      end: 'handoff',
      document: doc('Append letters.txt (edited by a person).'),
      draft: doc('Append letters.txt.'),
    },
    {
      sessionId: 'aaaaaaaa-0000-4000-8000-000000000002',
      readings: [
        { after: 20_000, context: 15_000 },
        { after: 300_000, context: 151_500 },
      ],
      end: 'degraded',
      reason: 'the session did not write its document within 300 s',
      document: doc('Show the report.', ' <script>alert("doc")</script>'),
    },
    {
      sessionId: 'aaaaaaaa-0000-4000-8000-000000000003',
      readings: [
        { after: 10_000, context: 12_000 },
        { after: 60_000, context: 40_000 },
      ],
      end: 'running',
    },
  ]);
}

t.test('a synthetic lineage of three generations makes a whole page', async (t) => {
  const l = three();
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  const r = report(l);
  t.equal(r.code, 0, r.err);
  t.match(r.out, new RegExp(`^report: ${l.workbench}/report\\.html \\(3 generation\\(s\\), [\\d.]+ KB\\)`));
  const html = page(l);
  t.match(html, '<dt>generations</dt><dd>3</dd>');
  t.match(html, '<dt>total cost</dt><dd>$0.0600</dd>', 'the sum of 0.01 + 0.02 + 0.03');
  t.match(html, '<dt>total turns</dt><dd>8</dd>');
  t.match(html, 'generation 3: still running (reported up to now)');
  t.match(html, '(live: up to now)');
  t.match(html, 'handed off: it wrote its document');
  t.match(
    html,
    'degraded handoff: flower-pty wrote the document for it (the session did not write its document within 300 s)',
  );
  t.match(html, 'a person edited its document (next)');
  t.match(
    html,
    '<div class="del">− Append letters.txt.</div><div class="add">+ Append letters.txt (edited by a person).</div>',
    "the draft against the person's version",
  );
  t.match(
    html,
    /The successor's first prompt \(reproduced[^<]*<\/summary><pre>[^<]*Append letters\.txt \(edited by a person\)\./,
    'generation 2 was told the edited Next',
  );
  t.match(html, 'make the &lt;b&gt;toy&lt;/b&gt; report', 'the original prompt, escaped');
  t.notMatch(html, /<script/i, "the document's script is text");
  t.match(html, '&lt;script&gt;alert(&quot;doc&quot;)&lt;/script&gt;');
  t.equal((html.match(/<polyline/g) ?? []).length, 3, 'one curve per generation');
  t.match(html, 'class="near"');
  t.match(html, 'class="handoff"');
  t.equal(
    (html.match(/<g class="asked"/g) ?? []).length,
    2,
    'the two handoffs were asked for at the first reading past the line',
  );
});

t.test("the chart's points are the transcript's readings (x: their timestamps, y: their tokens)", async (t) => {
  const l = three();
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  t.equal(report(l).code, 0);
  const model = JSON.parse(report(l, ['--json']).out) as ReportModel;
  const scale = chartScale(model);
  const html = page(l);
  const plotW = CHART.width - CHART.left - CHART.right;
  const plotH = CHART.height - CHART.top - CHART.bottom;
  const expected: Record<string, Array<[number, number]>> = {};
  for (const [g, gen] of l.manifest.generations.entries()) {
    // the readings the helper wrote into that transcript
    const lines = readFileSync(l.transcript(gen.session_id), 'utf8')
      .trim()
      .split('\n')
      .map((x) => JSON.parse(x) as { type: string; timestamp: string; message: { usage?: Record<string, number> } });
    expected[String(g + 1)] = lines
      .filter((x) => x.type === 'assistant')
      .map((x) => {
        const u = x.message.usage ?? {};
        return [
          Date.parse(x.timestamp),
          (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
        ];
      });
  }
  for (const m of html.matchAll(/<polyline class="curve" data-generation="(\d+)"[^>]*points="([^"]+)"/g)) {
    const back = (m[2] as string).split(' ').map((pair): [number, number] => {
      const [x, y] = pair.split(',').map(Number) as [number, number];
      return [
        scale.t0 + ((x - CHART.left) / plotW) * (scale.t1 - scale.t0),
        scale.yMax * (1 - (y - CHART.top) / plotH),
      ];
    });
    const want = expected[m[1] as string] ?? [];
    t.equal(back.length, want.length, `generation ${m[1]}: one point per reading`);
    back.forEach(([tt, v], i) => {
      const [wt, wv] = want[i] as [number, number];
      t.ok(
        Math.abs(tt - wt) <= (scale.t1 - scale.t0) / plotW / 50 + 1,
        `generation ${m[1]} point ${i}: time ${tt} ≈ ${wt}`,
      );
      t.ok(
        Math.abs(v - wv) <= scale.yMax / plotH / 50 + 1,
        `generation ${m[1]} point ${i}: tokens ${Math.round(v)} ≈ ${wv}`,
      );
    });
  }
  t.same(Object.keys(expected), ['1', '2', '3']);
});

t.test('--json prints the same data as one JSON document and writes no page', async (t) => {
  const l = three();
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  const r = report(l, ['--json']);
  t.equal(r.code, 0, r.err);
  t.equal(r.out.trim().split('\n').length, 1, 'one line');
  const model = JSON.parse(r.out) as ReportModel;
  t.same(
    model.generations.map((g) => [g.n, g.end, g.peak, g.turns]),
    [
      [1, 'handoff', 158_000, 4],
      [2, 'degraded', 151_500, 2],
      [3, 'running', 40_000, 2],
    ],
  );
  t.same(
    model.generations.map((g) => g.handoffAsked?.source ?? null),
    ['transcript', 'transcript', null],
  );
  t.equal(model.generations[0]?.handoffAsked?.v, 152_000, 'the first reading at or past the line (150K)');
  t.equal(model.generations[1]?.firstPrompt?.source, 'reproduced');
  t.equal(model.generations[0]?.firstPrompt?.source, 'original');
  t.throws(() => statSync(join(l.workbench, 'report.html')), 'no page written');
});

t.test('-o FILE, and the events file: the handoff moment comes from its `writing` line', async (t) => {
  const l = three();
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  const events = join(l.root, 'events.jsonl');
  const writingAt = new Date(T0 + 450_000).toISOString();
  writeFileSync(
    events,
    [
      JSON.stringify({
        ts: writingAt,
        event: 'writing',
        generation: 1,
        context: 155_000,
        at: 150_000,
        cut: 'tool-boundary',
      }),
      'junk',
      JSON.stringify({
        ts: new Date(T0 + GEN_SPAN + 5).toISOString(),
        event: 'api-error',
        generation: 2,
        error: 'overloaded',
        details: '529 <b>busy</b>',
      }),
    ].join('\n') + '\n',
  );
  const out = join(l.root, 'out', 'r.html');
  mkdirSync(dirname(out));
  const r = report(l, ['-o', out, '--events', events]);
  t.equal(r.code, 0, r.err);
  const html = readFileSync(out, 'utf8');
  t.match(html, 'handoff asked for at 155.0K (the events file)');
  t.match(html, 'API error: overloaded 529 &lt;b&gt;busy&lt;/b&gt;');
  t.match(html, '1 line(s) of the events file');
});

t.test('no workbench (a --no-workbench run) or an empty one: one line, exit 2', async (t) => {
  const l = makeLineage([]);
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  const gone = report({ ...l, workbench: join(l.root, 'nowhere') });
  t.equal(gone.code, 2);
  t.match(
    gone.err,
    /^flower-pty: report: no workbench at .*nowhere \(a --no-workbench run keeps no lineage on disk, so there is nothing to report\)/,
  );
  t.equal(gone.err.trim().split('\n').length, 1, 'one line, no stack');
  rmSync(join(l.workbench, 'manifest.json'));
  const empty = report(l);
  t.equal(empty.code, 2);
  t.match(
    empty.err,
    /^flower-pty: report: nothing to report in .*: no manifest at .*manifest\.json, no events file and no documents/,
  );
  t.equal(empty.err.trim().split('\n').length, 1);
});

t.test('a malformed manifest: a partial report from the documents, the problem on the page', async (t) => {
  const l = three();
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  writeFileSync(join(l.workbench, 'manifest.json'), '{"version": 1, "step": ');
  const r = report(l);
  t.equal(r.code, 0, r.err);
  const html = page(l);
  t.match(
    html,
    /the manifest .*manifest\.json is malformed \(the manifest is not valid JSON\): only the documents are shown/,
  );
  t.match(html, 'Show the report.', 'the current document is still shown');
  t.notMatch(html, /<script/i);
});

t.test('transcripts gone or full of junk: marked on the page, never fatal', async (t) => {
  const l = makeLineage([
    {
      sessionId: 'bbbbbbbb-0000-4000-8000-000000000001',
      readings: [{ after: 1000, context: 160_000 }],
      end: 'handoff',
      document: doc('next'),
      noTranscript: true,
    },
    {
      sessionId: 'bbbbbbbb-0000-4000-8000-000000000002',
      readings: [
        { after: 1000, context: 5000 },
        { after: 2000, context: 7000 },
      ],
      end: 'quit',
      junk: ['garbage', '\u0000\u0001<script>x</script>', '[1,2]'],
    },
  ]);
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  const r = report(l);
  t.equal(r.code, 0, r.err);
  const html = page(l);
  t.match(
    html,
    /No transcript: its transcript was not found at [^ ]*bbbbbbbb-0000-4000-8000-000000000001\.jsonl \(the manifest does not say where the run&#39;s claude kept it: set CLAUDE_CONFIG_DIR/,
  );
  t.notMatch(html, /gone/, 'never "gone" when it only looked');
  t.match(html, '1 of 2 transcript(s) could not be read');
  t.match(html, '3 line(s) of its transcript were not JSON records and were skipped');
  t.equal((html.match(/<polyline/g) ?? []).length, 1);
  t.match(html, '<td class="num">160.0K</td>', 'the peak from the manifest when the transcript is gone');
  t.notMatch(html, /<script/i);
});

t.test(
  "the transcripts where the run recorded them (the demo's own Claude config folder), whatever this shell's",
  async (t) => {
    const l = three();
    t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
    // the run's claude kept its transcripts in a config folder of its own; the manifest says where
    const elsewhere = join(l.root, 'the-runs-own-config');
    const manifestFile = join(l.workbench, 'manifest.json');
    const m = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
      generations: Array<{ session_id: string; transcript_path?: string }>;
    };
    for (const g of m.generations) {
      const from = findUnder(l.configDir, `${g.session_id}.jsonl`);
      const to = join(elsewhere, 'projects', 'p', `${g.session_id}.jsonl`);
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, readFileSync(from!));
      rmSync(from!);
      g.transcript_path = to;
    }
    m.generations[2]!.transcript_path = join(elsewhere, 'projects', 'p', 'moved-away.jsonl');
    writeFileSync(manifestFile, JSON.stringify(m));
    const r = report(l, ['--json'], { CLAUDE_CONFIG_DIR: join(l.root, 'another-config') });
    t.equal(r.code, 0, r.err);
    const model = JSON.parse(r.out) as ReportModel;
    t.ok(
      model.generations[0]!.curve.length >= 4 && model.generations[1]!.curve.length >= 2,
      'the curves are drawn from the recorded transcripts',
    );
    t.equal(model.generations[0]!.transcript.path, m.generations[0]!.transcript_path);
    t.match(
      model.generations[2]!.transcript.problem,
      `its transcript was not found at ${join(elsewhere, 'projects', 'p', 'moved-away.jsonl')}, where the run recorded it (nor under ${join(l.root, 'another-config', 'projects')})`,
      'the path looked in, and where else',
    );
  },
);

t.test('compactions and overflows are marked on the chart, with their lines and numbers', async (t) => {
  const sid = 'eeeeeeee-0000-4000-8000-000000000001';
  const at = (s: number): string => new Date(T0 + s * 1000).toISOString();
  const l = makeLineage([
    {
      sessionId: sid,
      readings: [
        { after: 10_000, context: 100_000 },
        { after: 20_000, context: 190_000 },
      ],
      end: 'quit',
      tail: [
        JSON.stringify({
          parentUuid: null,
          isSidechain: false,
          type: 'system',
          subtype: 'compact_boundary',
          compactMetadata: { trigger: 'auto', preTokens: 191_000, postTokens: 9_000 },
          timestamp: at(30),
          sessionId: sid,
        }),
        JSON.stringify({
          type: 'assistant',
          isSidechain: false,
          sessionId: sid,
          timestamp: at(40),
          isApiErrorMessage: true,
          message: {
            id: 'e',
            model: '<synthetic>',
            role: 'assistant',
            content: [{ type: 'text', text: 'Prompt is too long' }],
            usage: { input_tokens: 0, output_tokens: 0 },
          },
        }),
      ],
    },
  ]);
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  t.equal(report(l).code, 0);
  const html = page(l);
  t.match(
    html,
    /<g class="compaction" data-generation="1">[^]*?compaction at line 4: Claude Code compacted at 191\.0K<\/title>/,
  );
  t.match(html, /<g class="overflow" data-generation="1">[^]*?overflow at line 5: Prompt is too long<\/title>/);
  t.match(html, 'overflow at transcript line 5: Prompt is too long', 'and in the timeline, in words');
});

t.test('a 10 MB document is cut: the page stays small and says so', async (t) => {
  const huge = doc('next') + '\n' + '- a very long scene line with <tags> & more\n'.repeat(240_000);
  const l = makeLineage([
    {
      sessionId: 'cccccccc-0000-4000-8000-000000000001',
      readings: [{ after: 1000, context: 1000 }],
      end: 'handoff',
      document: huge,
    },
    { sessionId: 'cccccccc-0000-4000-8000-000000000002', readings: [], end: 'quit' },
  ]);
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  t.ok(Buffer.byteLength(huge) > 10 * 1024 * 1024, 'over 10 MB');
  const started = Date.now();
  const r = report(l);
  t.equal(r.code, 0, r.err);
  t.ok(Date.now() - started < 30_000, 'in seconds');
  const size = statSync(join(l.workbench, 'report.html')).size;
  t.ok(size < 1024 * 1024, `the page is ${size} bytes`);
  const html = page(l);
  t.match(html, /This document is 10\.\d MB: only its beginning is shown/);
  t.match(html, 'documents over 256 KB are cut at that size on this page');
  t.notMatch(html, /<tags>/);
});

t.test('--open with no opener on the PATH: the page is written, then one line, exit 2', async (t) => {
  const l = three();
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  const empty = join(l.root, 'empty-bin');
  mkdirSync(empty);
  const r = report(l, ['--open'], { PATH: empty });
  t.equal(r.code, 2);
  t.match(
    r.err,
    /^flower-pty: report: written to .*report\.html, but there is no (xdg-open|open) on the PATH to open it: open that file in a browser\n$/,
  );
  t.ok(statSync(join(l.workbench, 'report.html')).size > 0);
});

t.test("--open hands the page to the platform's opener", async (t) => {
  const l = three();
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  const fakeBin = join(l.root, 'fake-bin');
  const said = join(l.root, 'opened.txt');
  mkdirSync(fakeBin);
  for (const name of ['xdg-open', 'open']) {
    // written aside then renamed: the test never sees a half-written file
    writeFileSync(
      join(fakeBin, name),
      `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(said + '.tmp')} && mv ${JSON.stringify(said + '.tmp')} ${JSON.stringify(said)}\n`,
    );
    chmodSync(join(fakeBin, name), 0o755);
  }
  const r = report(l, ['--open'], { PATH: `${fakeBin}:${process.env.PATH ?? ''}` });
  t.equal(r.code, 0, r.err);
  // The opener is detached: wait for it, bounded, however slow the machine is.
  const deadline = performance.now() + 30_000;
  while (!existsSync(said) && performance.now() < deadline) await new Promise((ok) => setTimeout(ok, 50));
  t.equal(existsSync(said) ? readFileSync(said, 'utf8') : null, join(l.workbench, 'report.html'));
});

t.test(
  'run from the project folder with no flags: the workbench and the events file are found as a run finds them',
  async (t) => {
    const l = three();
    t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
    writeFileSync(join(l.workbench, 'config.json'), JSON.stringify({ events: 'events.jsonl' }));
    writeFileSync(
      join(l.project, 'events.jsonl'),
      JSON.stringify({
        ts: new Date(T0 + 450_000).toISOString(),
        event: 'writing',
        generation: 1,
        context: 155_500,
        at: 150_000,
        cut: 'turn-end',
      }) + '\n',
    );
    const r = spawnSync(process.execPath, [bin, 'report'], {
      cwd: l.project,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: l.root, CLAUDE_CONFIG_DIR: l.configDir },
      timeout: 60_000,
    });
    t.equal(r.status, 0, r.stderr);
    t.match(page(l), 'handoff asked for at 155.5K (the events file)');
    const recorded = join(l.root, 'recorded-events.jsonl');
    writeFileSync(
      recorded,
      JSON.stringify({
        ts: new Date(T0 + 460_000).toISOString(),
        event: 'writing',
        generation: 1,
        context: 156_500,
        at: 150_000,
        cut: 'turn-end',
      }) + '\n',
    );
    writeFileSync(join(l.workbench, 'manifest.json'), JSON.stringify({ ...l.manifest, events_path: recorded }));
    t.equal(
      spawnSync(process.execPath, [bin, 'report'], {
        cwd: l.project,
        env: { PATH: process.env.PATH ?? '', HOME: l.root, CLAUDE_CONFIG_DIR: l.configDir },
      }).status,
      0,
    );
    t.match(
      page(l),
      'handoff asked for at 156.5K (the events file)',
      "a manifest's events_path beats the configuration",
    );
    writeFileSync(join(l.workbench, 'config.json'), '{ broken');
    const broken = spawnSync(process.execPath, [bin, 'report'], {
      cwd: l.project,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: l.root, CLAUDE_CONFIG_DIR: l.configDir },
      timeout: 60_000,
    });
    t.equal(broken.status, 0, 'a broken config.json does not stop the report');
    t.match(page(l), /the configuration was not read: .*config\.json/);
  },
);

t.test('a recorded successor prompt is called too long for the command line only when it was', async (t) => {
  const l = three();
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  const notes = join(l.workbench, 'notes');
  mkdirSync(notes, { recursive: true });
  writeFileSync(join(notes, 'successor-prompt-2.md'), 'You are TAKING OVER: a short recorded prompt');
  writeFileSync(join(notes, 'successor-prompt-3.md'), `You are TAKING OVER: a long one ${'x'.repeat(110 * 1024)}`);
  const r = report(l);
  t.equal(r.code, 0, r.err);
  const html = page(l);
  t.match(
    html,
    `recorded as given to the session, in ${join(notes, 'successor-prompt-2.md')}`,
    'the short one was only recorded',
  );
  t.match(
    html,
    `recorded: too long for the command line, the session was told to read ${join(notes, 'successor-prompt-3.md')}`,
    'the long one went through the file',
  );
  t.equal(html.split('too long for the command line').length - 1, 1, 'said of one prompt only');
});

t.test('-o naming a special file, a folder or a link: one line, exit 2, nothing replaced', async (t) => {
  const l = three();
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  // Never the machine's own /dev/null or /dev/full: a build that still renamed over them would replace the
  // device for every process on the machine. A FIFO is a special file of the test's own.
  const fifo = join(l.root, 'pipe');
  t.equal(spawnSync('mkfifo', [fifo]).status, 0, 'a FIFO made');
  const kept = join(l.root, 'kept.html');
  writeFileSync(kept, "the person's own page");
  const link = join(l.root, 'link.html');
  symlinkSync(kept, link);
  for (const [target, what] of [
    [fifo, 'not a regular file'],
    [l.root, 'a folder'],
    [link, 'a symbolic link'],
  ] as const) {
    const r = report(l, ['-o', target]);
    t.equal(r.code, 2, `${target}: refused`);
    t.equal(
      r.err,
      `flower-pty: report: ${target} is ${what}: name a new file or a regular one with -o, e.g. -o report.html\n`,
      'in one line',
    );
  }
  t.ok(lstatSync(fifo).isFIFO(), 'the FIFO is still a FIFO');
  t.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
  t.equal(readFileSync(kept, 'utf8'), "the person's own page", "the link's target is untouched");
  const fine = report(l, ['-o', join(l.root, 'mine.html')]);
  t.equal(fine.code, 0, 'a new path is fine');
});

t.test("-o '' (an empty value): one line saying the value is empty and what to pass", async (t) => {
  const l = three();
  t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
  const r = report(l, ['-o', '']);
  t.equal(r.code, 2, 'refused');
  t.equal(
    r.err,
    'flower-pty: report: -o is empty: name the HTML file to write, e.g. -o report.html (or leave -o out for <workbench>/report.html)\n',
    'in one line',
  );
  t.notOk(existsSync(join(l.workbench, 'report.html')), 'no page written');
});

t.test(
  "a manifest's transcript that is a link, a FIFO or a device is never read: said on the page, never fatal",
  async (t) => {
    const l = three();
    t.teardown(() => rmSync(l.root, { recursive: true, force: true }));
    // a cloned repository's manifest can name any path as a transcript
    const manifestFile = join(l.workbench, 'manifest.json');
    const m = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
      generations: Array<{ session_id: string; transcript_path?: string }>;
    };
    const link = join(l.root, 'link.jsonl');
    symlinkSync(findUnder(l.configDir, `${m.generations[0]!.session_id}.jsonl`)!, link);
    const fifo = join(l.root, 'fifo.jsonl');
    t.equal(spawnSync('mkfifo', [fifo]).status, 0);
    m.generations[0]!.transcript_path = link;
    m.generations[1]!.transcript_path = fifo;
    m.generations[2]!.transcript_path = '/dev/zero';
    writeFileSync(manifestFile, JSON.stringify(m));
    const r = report(l, ['--json']);
    t.equal(r.code, 0, r.err);
    const model = JSON.parse(r.out) as ReportModel;
    t.same(
      model.generations.map((g) => g.transcript.problem),
      [
        `its transcript ${link} is a symbolic link: flower-pty reads a transcript only as a regular file`,
        `its transcript ${fifo} is a FIFO: flower-pty reads a transcript only as a regular file`,
        'its transcript /dev/zero is not a regular file: flower-pty reads a transcript only as a regular file',
      ],
    );
  },
);
