// Manifest model: retired ids in order, sums across generations, errors for degraded handoffs.
import t from 'tap';
import {
  createManifest,
  startGeneration,
  recordUsage,
  endGeneration,
  recordHumanEdit,
  parseManifest,
  describeManifest,
  recordOriginalPrompt,
  recordPlace,
  lastPlace,
  recordTranscript,
} from '../../../src/core/lineage/manifest.js';

const now = (s: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, s)).toISOString();

t.test('a lineage of three generations', async (t) => {
  let m = createManifest({ step: 'work', cwd: '/p', window: 200_000, at: 150_000, now: now(0) });
  m = recordOriginalPrompt(m, 'build the thing');
  m = recordOriginalPrompt(m, 'second prompt is not the original');
  m = startGeneration(m, { generation: 1, sessionId: 'a', now: now(1) });
  m = recordUsage(m, { context: 120_000, costUsd: 0.5, numTurns: 3, now: now(2) });
  m = recordUsage(m, { context: 151_000, costUsd: 0.75, numTurns: 4, now: now(3) });
  m = endGeneration(m, { end: 'handoff', now: now(4), handoffPath: '/p/.flower/notes/交接-work.md' });
  m = startGeneration(m, { generation: 2, sessionId: 'b', now: now(5) });
  m = recordUsage(m, { context: 160_000, costUsd: 1, numTurns: 2, now: now(6) });
  m = endGeneration(m, { end: 'degraded', now: now(7), degraded: true, reason: 'overflow: prompt is too long' });
  m = startGeneration(m, { generation: 3, sessionId: 'c', now: now(8) });
  m = recordUsage(m, { context: 40_000, costUsd: 0.25, numTurns: 1, now: now(9) });

  t.equal(m.original_prompt, 'build the thing');
  t.same(m.retired, ['a', 'b'], 'burned ids in order');
  t.equal(m.session_id, 'c', 'newest successor');
  t.equal(m.attempts, 0, 'handoffs are not failed attempts');
  t.equal(m.cost_usd, 2, 'cost summed across generations');
  t.equal(m.num_turns, 7, 'turns summed');
  t.equal(m.context, 40_000, 'what the last turn saw');
  t.equal(m.generations[0]!.peak_context, 151_000);
  t.equal(m.generations[1]!.degraded, true);
  t.same(
    m.errors.map((e) => [e.generation, e.reason]),
    [[2, 'overflow: prompt is too long']],
  );
  t.equal(m.generations[2]!.ended_at, null);

  m = endGeneration(m, { end: 'crash', now: now(10), degraded: true, reason: 'claude exited with code 1' });
  t.equal(m.attempts, 1, 'a crash is a failed attempt');
  t.same(endGeneration(m, { end: 'quit', now: now(11) }), m, 'ending twice changes nothing');

  m = recordHumanEdit(m, 1, { changedSections: ['next'], draftPath: '/d.md', now: now(12) });
  t.same(m.generations[0]!.human_edit, { changed_sections: ['next'], draft_path: '/d.md' });

  const round = parseManifest(JSON.stringify(m));
  t.same(round.manifest, m);
  const text = describeManifest(m).join('\n');
  t.match(text, /3 generation\(s\)/);
  t.match(text, /#2 b degraded \(degraded\)/);
  t.match(text, /error in #2: overflow/);
});

t.test('parseManifest never throws', async (t) => {
  t.match(parseManifest('{nope').problem, /not valid JSON/);
  t.equal(parseManifest('42').problem, 'the manifest is 42, expected an object');
  t.equal(parseManifest('{"version":2}').problem, 'version is 2, expected 1');
  t.equal(
    parseManifest('{"version":1,"step":"a/../b"}').problem,
    `step is "a/../b", which is not a step name (letters, digits, '-', '_', '.')`,
  );
});

t.test('a generation keeps its place through a write and a read; a bad place names its field', async (t) => {
  let m = createManifest({ step: 'work', cwd: '/p', window: 200_000, at: 150_000, now: now(0) });
  m = startGeneration(m, { generation: 1, sessionId: 's1', now: now(1) });
  m = recordPlace(m, { folder: '/p/.claude/worktrees/wt1', permission_mode: 'plan', added_dirs: ['/d'] }, now(2));
  const read = parseManifest(JSON.stringify(m));
  t.equal(read.problem, null);
  t.same(lastPlace(read.manifest!), {
    folder: '/p/.claude/worktrees/wt1',
    permission_mode: 'plan',
    added_dirs: ['/d'],
  });
  const bad = JSON.parse(JSON.stringify(m));
  bad.generations[0].place.added_dirs = 'lots';
  t.match(parseManifest(JSON.stringify(bad)).problem, /generations\[0\]\.place\.added_dirs/);
});

t.test(
  'a generation keeps where claude writes its transcript, for the report; a bad one names its field',
  async (t) => {
    let m = createManifest({ step: 'work', cwd: '/p', window: 200_000, at: 150_000, now: now(0) });
    m = startGeneration(m, {
      generation: 1,
      sessionId: 's1',
      now: now(1),
      transcriptPath: '/demo/config/projects/-p/s1.jsonl',
    });
    t.equal(m.generations[0]!.transcript_path, '/demo/config/projects/-p/s1.jsonl');
    m = recordTranscript(m, '/demo/config/projects/-p-wt/s1.jsonl', now(2));
    const read = parseManifest(JSON.stringify(m));
    t.equal(read.problem, null);
    t.equal(
      read.manifest!.generations[0]!.transcript_path,
      '/demo/config/projects/-p-wt/s1.jsonl',
      'the newest, through a write and a read',
    );
    const old = startGeneration(createManifest({ step: 'work', cwd: '/p', window: 1, at: 1, now: now(0) }), {
      generation: 1,
      sessionId: 's',
      now: now(1),
    });
    t.notOk('transcript_path' in old.generations[0]!, 'absent when not known (a manifest from before)');
    t.notOk('transcript_path' in parseManifest(JSON.stringify(old)).manifest!.generations[0]!);
    const bad = JSON.parse(JSON.stringify(m));
    bad.generations[0].transcript_path = 7;
    t.match(parseManifest(JSON.stringify(bad)).problem, /generations\[0\]\.transcript_path/);
  },
);
