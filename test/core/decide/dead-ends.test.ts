// A session's failures through the whole decision: recorded off its tool runs, listed in the request for
// the document, checked at the freeze (the ones the document leaves out go in flower-pty's facts, counted
// beside the review's countdown), and a successor's call that repeats a dead end told as an event.
import t from 'tap';
import { decide } from '../../../src/core/decide/decide.js';
import { runView } from '../../../src/core/run/run-view.js';
import { statusBarLines, statusLine } from '../../../src/core/screen/status.js';
import type { RunEffect, RunInput, RunState } from '../../../src/core/run/run-state.js';
import type { ToolRun } from '../../../src/core/dead-ends/tool-run.js';
import { spawnedEvent, given, reading, stopHook, docLanded, working } from './run.js';

const run = (command: string | null, ok: boolean, over: Partial<ToolRun> = {}, now = 2): RunInput => ({
  type: 'tool-run',
  now,
  generation: over.id === 'g2' ? 2 : 1,
  run: {
    id: 'x',
    tool: command === null ? 'Read' : 'Bash',
    command,
    files: [],
    input: command ?? '/w/huge.json',
    ok,
    error: ok ? null : 'exit 1: boom',
    at: now * 1000,
    edit: null,
    ...over,
  },
});

function drive(s: RunState, events: RunInput[]): { state: RunState; effects: RunEffect[] } {
  const effects: RunEffect[] = [];
  for (const e of events) {
    const d = decide(s, e);
    s = d.state;
    effects.push(...d.effects);
  }
  return { state: s, effects };
}

const emitted = (effects: RunEffect[], name: string) =>
  effects.flatMap((e) => (e.type === 'emit' && e.name === name ? [e.fields as Record<string, unknown>] : []));

// The writer names the build and the flag, and leaves the Read out.
const DOC =
  '# Handoff\n\n## Doing\nporting\n\n## Decided\nkeep tap\n\n## Dead ends\n- `npm run build` needs node 22\n- `npx tsc --strict` floods errors: abandoned\n\n## Next\nfinish it\n\n## Scene\nsrc/\n';

function failedSession(): RunState {
  return given(
    [
      run('npm run build', false),
      run('cd /w && npm run build 2>&1', false, {}, 3),
      run('npx tsc --strict', false, {}, 4),
      run(null, false, { files: ['/w/huge.json'], error: 'File content exceeds maximum allowed tokens' }, 5),
      run('ls', true, {}, 6),
    ],
    {},
    working(),
  );
}

t.test('the record: failures counted once per call, successes left out', async (t) => {
  const g = failedSession().gen!;
  t.same(
    g.failures.failures.map((f) => [f.input, f.tries]),
    [
      ['npm run build', 2],
      ['npx tsc --strict', 1],
      ['/w/huge.json', 1],
    ],
  );
});

t.test('the request lists them, most tried first; the freeze checks the document', async (t) => {
  const { state: asked, effects: askedFx } = drive(failedSession(), [reading(152_000, 7), stopHook('', 8)]);
  const reply = askedFx.find((e) => e.type === 'reply');
  const reason = reply?.type === 'reply' && reply.answer.kind === 'block' ? reply.answer.reason : '';
  t.match(reason, /account for each one/);
  const listed = reason.split('\n').filter((l) => l.startsWith('- `'));
  t.same(
    listed.map((l) => l.split('`')[1]),
    ['npm run build', '/w/huge.json', 'npx tsc --strict'],
    'most tried first, then the newest',
  );
  const { state: frozen, effects } = drive(asked, [
    docLanded(DOC, 9),
    stopHook(DOC, 9),
    { type: 'facts-gathered', now: 10, generation: 1, git: null },
  ]);
  const written = effects.find((e) => e.type === 'write-document');
  const text = written?.type === 'write-document' ? written.text : '';
  t.match(text, /- failed in this session, not in the document: `\/w\/huge\.json` \(Read\) failed once/);
  t.notMatch(text, /not in the document: `npm run build`/, 'what the writer named is not repeated');
  t.same(emitted(effects, 'dead-ends-checked'), [
    { generation: 1, seen: 3, byWriter: 2, byFacts: 1, notAtAll: 0, missing: ['/w/huge.json'], degraded: false },
  ]);
  const review = drive(frozen, [
    { type: 'document-written', now: 11, generation: 1, path: '/p/doc.md', archived: null, error: null },
  ]).state;
  t.equal(runView(review, 11).deadEnds, '1 failure not in the document', 'beside the countdown');
  t.match(
    statusLine(runView(review, 11)),
    /· review · successor in \d+s · 1 failure not in the document$/,
    "claude's status line and the title",
  );
  const bar = statusBarLines(runView(review, 11), { width: 120, hint: 'C-] ?' })[0]!
    .map((seg) => seg.text)
    .join('');
  t.match(bar, /successor in \d+s · 1 failure not in the document/, "the split view's status bar");
  t.end();
});

t.test('a degraded document carries the list as its dead ends', async (t) => {
  const { effects } = drive(failedSession(), [
    reading(152_000, 7),
    stopHook('', 8),
    { type: 'tick', now: 8 + 400_000 },
    { type: 'facts-gathered', now: 400_010, generation: 1, git: null },
  ]);
  const written = effects.find((e) => e.type === 'write-document');
  const text = written?.type === 'write-document' ? written.text : '';
  t.match(text, /## Dead ends[\s\S]*Failed in this session[\s\S]*- `npm run build` \(Bash\) failed 2 times/);
  t.notMatch(text, /not in the document/, 'nothing is left out of a list flower-pty wrote itself');
  t.same(
    emitted(effects, 'dead-ends-checked').map((e) => [e.byWriter, e.byFacts, e.degraded]),
    [[0, 3, true]],
  );
});

t.test("the successor is watched: exact repeats told (with the dead end's line), near misses not", async (t) => {
  const { state: asked } = drive(failedSession(), [reading(152_000, 7), stopHook('', 8)]);
  const { state: frozen, effects } = drive(asked, [
    docLanded(DOC, 9),
    stopHook(DOC, 9),
    { type: 'facts-gathered', now: 10, generation: 1, git: null },
  ]);
  const written = effects.find((e) => e.type === 'write-document');
  const text = written?.type === 'write-document' ? written.text : '';
  const lines = text.split('\n');
  const reviewed = drive(frozen, [
    { type: 'document-written', now: 11, generation: 1, path: '/p/doc.md', archived: null, error: null },
    { type: 'child-exit', now: 12, code: 0, lastLines: '' },
  ]).state;
  const seeded = drive(reviewed, [
    { type: 'seed-read', now: 13, generation: 2, onDisk: text },
    spawnedEvent(2, true, 14),
  ]).state;
  t.ok(seeded.gen!.watch.length >= 3, 'the dead ends and the listed failures are watched');
  const { state: after, effects: fx } = drive(seeded, [
    run('npm run build:prod', false, { id: 'g2' }, 20),
    run('npx tsc --strict', false, { id: 'g2' }, 21),
    run('cd /w && npm  run build', true, { id: 'g2' }, 22),
    run(null, false, { id: 'g2', files: ['/w/huge.json'] }, 23),
  ]);
  const repeats = emitted(fx, 'dead-end-repeated');
  t.same(
    repeats.map((r) => [r.call, r.ok, r.line]),
    [
      ['npx tsc --strict', false, lines.findIndex((l) => l.includes('`npx tsc --strict` floods')) + 1],
      ['cd /w && npm  run build', true, lines.findIndex((l) => l.includes('`npm run build` needs')) + 1],
      ['/w/huge.json', false, lines.findIndex((l) => l.includes('not in the document: `/w/huge.json`')) + 1],
    ],
  );
  t.ok(repeats.every((r) => r.generation === 2 && typeof r.deadEnd === 'string' && (r.deadEnd as string).length > 0));
  t.equal(after.gen!.repeats, 3);
  t.equal(runView(after, 30).deadEnds, '3 dead ends repeated');
});
