// `flower-pty replay` on real transcripts: the JSON events (handoff before every compaction with
// a 200k window, compaction meter vs preTokens, overflow), the human timeline, and the errors.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runReplay, type ReplayEvent } from '../src/commands/replay.js';
import { claudeFixtures, fixturesDir } from './helpers/fixtures.js';

const fixtures = fixturesDir();
const spotterCompacted = [
  '4d5611e5-241a-462a-8d15-5122611a9569.jsonl',
  '8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl',
  'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl',
].map((f) => path.join(fixtures, 'spotter-2.1.39', f));
const cc332 = (folder: string, file: string): string => claudeFixtures('2.1.332', 'sessions', folder, file);

async function replayJson(
  file: string,
  extra: { window?: number; headroom?: number } = {},
): Promise<{ code: number; events: ReplayEvent[] }> {
  const lines: string[] = [];
  const code = await runReplay({ file, json: true, out: (l) => lines.push(l), ...extra });
  return { code, events: lines.map((l) => JSON.parse(l) as ReplayEvent) };
}
const pick = <E extends ReplayEvent['event']>(events: ReplayEvent[], name: E): Extract<ReplayEvent, { event: E }>[] =>
  events.filter((e): e is Extract<ReplayEvent, { event: E }> => e.event === name);

t.test('spotter with --window 200000: near and handoff before each compaction, meter within 3%', async (t) => {
  for (const file of spotterCompacted) {
    const name = path.basename(file);
    const { code, events } = await replayJson(file, { window: 200_000 });
    t.equal(code, 0, `${name}: exit 0`);
    const compactions = pick(events, 'compaction');
    t.ok(compactions.length >= 1, `${name}: has a compaction`);
    const handoffs = pick(events, 'handoff');
    const nears = pick(events, 'near');
    for (const c of compactions) {
      const pre = c.preTokens ?? 0;
      t.ok(Math.abs(c.meter - pre) / pre <= 0.03, `${name}: compaction meter ${c.meter} within 3% of ${pre}`);
      t.ok(
        handoffs.some((h) => h.line < c.line),
        `${name}: a handoff comes before the compaction at line ${c.line}`,
      );
    }
    for (const h of handoffs) {
      t.equal(h.at, 150_000);
      t.ok(h.context >= 150_000, `${name}: handoff at the first reading over the line (${h.context})`);
      const readingsBefore = pick(events, 'reading').filter((r) => r.line < h.line && r.context >= 150_000);
      const lastCompactionBefore = Math.max(0, ...compactions.filter((c) => c.line < h.line).map((c) => c.line));
      t.same(
        readingsBefore.filter((r) => r.line > lastCompactionBefore),
        [],
        `${name}: no earlier reading crossed in that generation`,
      );
    }
    t.ok(nears.length >= 1 && (nears[0]?.line ?? Infinity) <= (handoffs[0]?.line ?? 0), `${name}: near fires first`);
    const cuts = [0, ...compactions.map((c) => c.line), Infinity];
    for (let g = 0; g + 1 < cuts.length; g++) {
      const inGen = (e: { line: number }): boolean => e.line > (cuts[g] ?? 0) && e.line < (cuts[g + 1] ?? Infinity);
      t.ok(
        nears.filter(inGen).length <= 1 && handoffs.filter(inGen).length <= 1,
        `${name}: generation ${g + 1} has at most one near and one handoff`,
      );
    }
    const summary = pick(events, 'summary')[0];
    t.match(summary, {
      window: 200_000,
      at: 150_000,
      warnAt: 130_000,
      handoffs: handoffs.length,
      compactions: compactions.length,
      overflows: 0,
      dropped: 0,
    });
    t.equal(events.at(-1)?.event, 'summary', 'the summary is the last event');
  }
});

t.test('near and handoff fire once per generation', async (t) => {
  // 4d56 climbs past 150k and stays there for many readings before Claude Code compacts.
  const { events } = await replayJson(spotterCompacted[0] ?? '', { window: 200_000 });
  const c = pick(events, 'compaction')[0]?.line ?? 0;
  t.equal(pick(events, 'handoff').filter((h) => h.line < c).length, 1);
  t.equal(pick(events, 'near').filter((h) => h.line < c).length, 1);
  t.ok(
    pick(events, 'reading').filter((r) => r.line < c && r.context >= 150_000).length > 1,
    'several readings above the line',
  );
});

t.test('--headroom moves the line', async (t) => {
  const { events } = await replayJson(spotterCompacted[1] ?? '', { window: 200_000, headroom: 100_000 });
  const h = pick(events, 'handoff')[0];
  t.equal(h?.at, 100_000);
  t.match(pick(events, 'summary')[0], { at: 100_000, warnAt: 80_000 });
});

t.test('without --window the model name picks it, and the output says so', async (t) => {
  const { events } = await replayJson(spotterCompacted[0] ?? '');
  t.match(pick(events, 'policy')[0], { model: 'claude-opus-4-6', window: 1_000_000, windowSource: 'model-name' });
  t.equal(pick(events, 'handoff').length, 0, 'a 1M window is never reached here');
  const summary = pick(events, 'summary')[0];
  const lowest = Math.min(...pick(events, 'compaction').map((c) => c.preTokens ?? c.meter));
  t.same(
    summary?.compactedBelow,
    { context: lowest, suggest: 200_000 },
    'it compacted far below the 1M guess: a 200k window',
  );
  const said: string[] = [];
  await runReplay({ file: spotterCompacted[0] ?? '', json: false, out: (l) => said.push(l) });
  t.match(
    said.at(-1),
    /\nClaude Code compacted at [\d.]+K, below the handoff line 950\.0K of the 1M window assumed: the session's window was smaller; replay with --window 200k$/,
  );
  const given = await replayJson(spotterCompacted[0] ?? '', { window: 200_000 });
  t.equal(pick(given.events, 'summary')[0]?.compactedBelow, null, 'with the right window: nothing to say');
  const human: string[] = [];
  await runReplay({ file: spotterCompacted[0] ?? '', json: false, out: (l) => human.push(l) });
  t.match(human.join('\n'), /window 1M \(from the transcript's model name; --window N to override\)/);
});

t.test('2.1.332 overflow and compaction events', async (t) => {
  const blocked = await replayJson(cc332('blocked-prompt-too-long', '4b3a40db-d761-46ca-817d-72dd1463617b.jsonl'), {
    window: 200_000,
  });
  t.same(pick(blocked.events, 'overflow'), [{ event: 'overflow', line: 34 }]);
  t.match(pick(blocked.events, 'summary')[0], { overflows: 1, peak: 178_000 });
  const reactive = await replayJson(
    cc332('compaction-reactive-and-subagent', '72ec2795-483a-4f28-b4e2-a3308c76fd3f.jsonl'),
  );
  t.same(
    pick(reactive.events, 'compaction').map((c) => [c.line, c.preTokens]),
    [
      [57, 16549],
      [83, 3243],
    ],
  );
  t.same(
    pick(reactive.events, 'overflow').map((o) => o.line),
    [88],
  );
});

t.test('a compaction starts a new generation: near and handoff can fire again', async (t) => {
  // fa81 climbs to ~167k, compacts, then climbs past 60k again: a 60k line is crossed in both generations.
  const { events } = await replayJson(spotterCompacted[2] ?? '', { window: 120_000, headroom: 60_000 });
  const c = pick(events, 'compaction')[0]?.line ?? 0;
  const after = pick(events, 'reading').filter((r) => r.line > c && r.context >= 60_000);
  t.ok(after.length > 0, 'the second generation reaches the line too');
  t.equal(pick(events, 'handoff').filter((h) => h.line > c).length, 1, 'a second handoff after the compaction');
  t.equal(pick(events, 'handoff').filter((h) => h.line < c).length, 1);
});

t.test('the human timeline', async (t) => {
  const lines: string[] = [];
  const code = await runReplay({
    file: spotterCompacted[0] ?? '',
    window: 200_000,
    json: false,
    out: (l) => lines.push(l),
  });
  t.equal(code, 0);
  const text = lines.join('\n');
  t.match(text, /model claude-opus-4-6 · window 200K \(from --window\) · near at 130\.0K · handoff at 150\.0K/);
  t.match(text, /^ +\d+ {2}[█░]{20} {2}\d+\.\dK\/200K$/m, 'a bar per reading');
  t.match(text, /→ near: /);
  t.match(text, /→ HANDOFF here \(at 150\.0K\)/);
  t.match(text, /754 {2}× compaction: Claude Code compacted at 170\.3K \(meter 169\.\dK\)/);
  t.match(text, /1512 lines, 139 readings, peak 164\.8K\/200K .*1 handoff, 1 compaction, 0 overflows/);
});

t.test('errors: missing file, directory, not JSONL, empty, bad --window', async (t) => {
  const dir = t.testdir({
    'junk.txt': 'hello world\n'.repeat(10_000),
    'binary.bin': 'x'.repeat(70_000),
    'empty.jsonl': '',
    'short-junk.jsonl': 'not json\n',
    'torn.jsonl': '{"type":"user","message":{"content":"hi"}}\n{"type":"assist',
  });
  const run = (file: string, window?: number): Promise<number> =>
    runReplay({ file, window, json: true, out: () => {} });
  await t.rejects(run(path.join(dir, 'nope.jsonl')), { message: /no such file .*nope\.jsonl/, exitCode: 2 });
  await t.rejects(run(dir), { message: /is a directory/, exitCode: 2 });
  // a FIFO would hold the read open for ever, a device never end
  const fifo = path.join(dir, 'fifo.jsonl');
  t.equal(spawnSync('mkfifo', [fifo]).status, 0);
  await t.rejects(run(fifo), { message: /fifo\.jsonl is a FIFO: give a transcript \.jsonl file/, exitCode: 2 });
  await t.rejects(run('/dev/zero'), {
    message: /\/dev\/zero is not a regular file: give a transcript \.jsonl file/,
    exitCode: 2,
  });
  await t.rejects(run(path.join(dir, 'junk.txt')), {
    message: /is not a Claude Code transcript: no JSON record in its first 64 KB/,
  });
  await t.rejects(run(path.join(dir, 'binary.bin')), { message: /is not a Claude Code transcript/ });
  await t.rejects(run(path.join(dir, 'short-junk.jsonl')), { message: /is not a Claude Code transcript/ });
  await t.rejects(run(path.join(dir, 'empty.jsonl')), { message: /is empty/ });
  await t.rejects(run(spotterCompacted[0] ?? '', Number.NaN), { message: /--window expects a positive token count/ });
  await t.rejects(run(spotterCompacted[0] ?? '', 5_000), { message: /below the 20000 floor/ });
  t.equal(await run(path.join(dir, 'torn.jsonl')), 0, 'a torn last line is skipped, not an error');
  for (const line of (await collect(path.join(dir, 'torn.jsonl'))).split('\n')) t.doesNotThrow(() => JSON.parse(line));
});

async function collect(file: string): Promise<string> {
  const out: string[] = [];
  await runReplay({ file, json: true, out: (l) => out.push(l) });
  return out.join('\n');
}

t.test('a transcript whose first line is larger than the sniff window still replays', async (t) => {
  const dir = t.testdir({});
  const file = path.join(dir, 'big-first.jsonl');
  const big = JSON.stringify({ type: 'api-request-blob', sessionId: 's', blob: 'x'.repeat(200_000) });
  const reading = JSON.stringify({
    type: 'assistant',
    sessionId: 's',
    message: { id: 'm', model: 'claude-haiku-4-5', usage: { input_tokens: 5, cache_read_input_tokens: 100 } },
  });
  writeFileSync(file, `${big}\n${reading}\n`);
  const { events } = await replayJson(file);
  t.same(pick(events, 'reading'), [{ event: 'reading', line: 2, context: 105 }]);
  t.match(pick(events, 'summary')[0], { window: 200_000, windowSource: 'model-name' }, 'haiku → 200k');
});
