// Decision machine: every rule of the handoff contract, fed through the real transition function.
import t from 'tap';
import { createMachine, transition, brakeMessage, reviewRemaining } from '../../src/core/machine.js';
import type { MachineConfig, MachineInput, MachineState, Effect } from '../../src/core/machine.js';
import { RUN_DIALECT } from '../../src/claude-code/run-dialect.js';

const config: MachineConfig = {
  handoff: true, window: 200_000, at: 150_000, warnAt: 130_000, maxGenerations: 8,
  writeTimeoutMs: 60_000, reviewMs: 10_000, quietMs: 2_000, blockCompaction: true, stopBlockCap: 8, maxCrashes: 3, dialect: RUN_DIALECT,
};

function run(state: MachineState, ...inputs: MachineInput[]): { state: MachineState; effects: Effect[] } {
  let effects: Effect[] = [];
  for (const input of inputs) {
    const step = transition(state, input);
    state = step.state;
    effects = effects.concat(step.effects);
  }
  return { state, effects };
}
const names = (effects: Effect[]) => effects.map((e) => (e.type === 'notify' ? `notify:${e.notice.name}` : e.type === 'answer' ? `answer:${e.decision}` : e.type));

function working(cfg: MachineConfig = config, generation = 1, successor = false): MachineState {
  return run(createMachine(cfg), { type: 'spawned', now: 0, generation, successor }, { type: 'session', now: 1, sessionId: 's1' }).state;
}

t.test('crossing the line asks at the next turn end, not before', async (t) => {
  let { state, effects } = run(working(), { type: 'reading', now: 2, context: 100_000 }, { type: 'turn-end', now: 3 });
  t.same(names(effects), ['answer:pass'], 'below the line the turn ends normally');
  ({ state, effects } = run(state, { type: 'prompt', now: 4 }, { type: 'reading', now: 4, context: 151_000 }));
  t.same(names(effects), ['notify:near'], 'crossing only marks the cut; no injection mid-stream');
  t.equal(state.phase, 'working');
  ({ state, effects } = run(state, { type: 'turn-end', now: 5 }));
  t.same(names(effects), ['answer:block-handoff', 'notify:writing']);
  t.equal(state.phase, 'writing');
});

t.test('near fires once per generation', async (t) => {
  const { effects, state } = run(working(), { type: 'reading', now: 2, context: 131_000 }, { type: 'reading', now: 3, context: 135_000 }, { type: 'reading', now: 4, context: 140_000 });
  t.same(names(effects), ['notify:near']);
  const next = run(state, { type: 'reading', now: 5, context: 155_000 }, { type: 'turn-end', now: 6 },
    { type: 'turn-end', now: 7, document: { text: 'doc', complete: true, missing: [] } },
    { type: 'tick', now: 20_000 }, { type: 'spawned', now: 20_001, generation: 2, successor: true }, { type: 'session', now: 20_002, sessionId: 's2' },
    { type: 'reading', now: 20_003, context: 131_000 });
  t.equal(names(next.effects).filter((n) => n === 'notify:near').length, 1, 'near again in the new generation');
});

t.test('THE EXEMPTION: a reading above the line during the writing turn does not start another handoff', async (t) => {
  let { state } = run(working(), { type: 'reading', now: 2, context: 152_000 }, { type: 'turn-end', now: 3 });
  t.equal(state.phase, 'writing');
  let effects: Effect[];
  ({ state, effects } = run(state, { type: 'reading', now: 4, context: 170_000 }, { type: 'tool-boundary', now: 5 }, { type: 'reading', now: 6, context: 171_000 }));
  t.same(names(effects), ['answer:pass'], 'no second block, no freeze, no near');
  t.equal(state.phase, 'writing');
  t.equal(state.peak, 171_000, 'the reading is still recorded');
  ({ state, effects } = run(state, { type: 'turn-end', now: 7, document: { text: 'the doc', complete: true, missing: [] } }));
  const freeze = effects.find((e) => e.type === 'freeze');
  t.same(freeze, { type: 'freeze', generation: 1, text: 'the doc', degraded: false }, 'frozen as written, not degraded');
  t.same(names(effects), ['freeze', 'notify:done', 'notify:generation-end', 'end-child']);
  t.equal(state.phase, 'review');
});

t.test('a long autonomous turn is cut at the next tool boundary', async (t) => {
  const { state, effects } = run(working(), { type: 'reading', now: 2, context: 160_000 }, { type: 'tool-boundary', now: 3 });
  t.same(names(effects), ['notify:near', 'answer:block-handoff', 'notify:writing']);
  const writing = effects.find((e) => e.type === 'notify' && e.notice.name === 'writing');
  t.match(writing, { notice: { cut: 'tool-boundary' } });
  t.equal(state.phase, 'writing');
});

t.test('no handoff before the generation has a session id', async (t) => {
  const fresh = run(createMachine(config), { type: 'spawned', now: 0, generation: 1, successor: false }).state;
  let { state, effects } = run(fresh, { type: 'reading', now: 1, context: 160_000 }, { type: 'turn-end', now: 2 });
  t.same(names(effects), ['notify:near', 'answer:pass']);
  ({ state, effects } = run(state, { type: 'session', now: 3, sessionId: 'x' }, { type: 'turn-end', now: 4 }));
  t.same(names(effects), ['answer:block-handoff', 'notify:writing'], 'once the id is known, the pending cut happens');
});

t.test('handoff off: nothing is ever injected', async (t) => {
  const { effects } = run(working({ ...config, handoff: false }), { type: 'reading', now: 2, context: 190_000 }, { type: 'turn-end', now: 3 }, { type: 'overflow', now: 4, text: 'prompt is too long' });
  t.same(names(effects), ['answer:pass']);
});

t.test('overflow degrades at once and is not a failed attempt', async (t) => {
  const { state, effects } = run(working(), { type: 'reading', now: 2, context: 90_000 }, { type: 'overflow', now: 3, text: 'Prompt is too long' });
  const freeze = effects.find((e) => e.type === 'freeze');
  t.match(freeze, { degraded: true, reason: /overflow: Prompt is too long/ });
  t.equal(state.attempts, 0);
  t.equal(state.phase, 'review');
});

t.test('an incomplete or missing document degrades, with the reason', async (t) => {
  const writing = run(working(), { type: 'reading', now: 2, context: 152_000 }, { type: 'turn-end', now: 3 }).state;
  const incomplete = run(writing, { type: 'turn-end', now: 4, document: { text: 'garbage', complete: false, missing: ['doing', 'next'] } });
  t.match(incomplete.effects.find((e) => e.type === 'freeze'), { degraded: true, text: 'garbage', reason: /missing doing, next/ });
  const none = run(writing, { type: 'turn-end', now: 4 });
  t.match(none.effects.find((e) => e.type === 'freeze'), { degraded: true, text: null, reason: /without a document/ });
});

t.test('a model that ignores the request hits the writing deadline', async (t) => {
  const writing = run(working(), { type: 'reading', now: 2, context: 152_000 }, { type: 'turn-end', now: 3 }).state;
  t.same(run(writing, { type: 'tick', now: 3 + 59_999 }).effects, [], 'not yet');
  const late = run(writing, { type: 'tick', now: 3 + 60_000 });
  t.match(late.effects.find((e) => e.type === 'freeze'), { degraded: true, reason: /no handoff document within 60s/ });
});

t.test('review window: countdown, edits extend it, hold stops the clock', async (t) => {
  let { state } = run(working(), { type: 'reading', now: 0, context: 152_000 }, { type: 'turn-end', now: 0 }, { type: 'turn-end', now: 1_000, document: { text: 'd', complete: true, missing: [] } });
  t.equal(reviewRemaining(state, 1_000), 10);
  t.same(run(state, { type: 'tick', now: 10_999 }).effects, []);
  ({ state } = run(state, { type: 'human-edit', now: 10_500 }));
  t.same(run(state, { type: 'tick', now: 11_001 }).effects, [], 'an edit keeps it open until quiet');
  t.same(names(run(state, { type: 'tick', now: 12_500 }).effects), ['spawn']);
  ({ state } = run(state, { type: 'hold', now: 11_000 }));
  t.same(run(state, { type: 'tick', now: 99_000 }).effects, [], 'held: waits forever');
  const released = run(state, { type: 'release', now: 99_001 });
  t.same(released.effects, [{ type: 'spawn', generation: 2 }]);
  t.equal(released.state.phase, 'respawning');
  t.same(run(released.state, { type: 'child-exit', now: 99_002, code: 0 }).effects, [], 'the old child exiting during respawn is expected');
});

t.test('the brake at max_generations with the seed message', async (t) => {
  const cfg = { ...config, maxGenerations: 2, reviewMs: 0 };
  let state = working(cfg);
  for (const generation of [1, 2]) {
    state = run(state, { type: 'reading', now: 0, context: 100 }, { type: 'reading', now: 0, context: 151_000 }, { type: 'turn-end', now: 1 }, { type: 'turn-end', now: 2, document: { text: 'd', complete: true, missing: [] } }).state;
    const step = run(state, { type: 'tick', now: 3 });
    if (generation === 2) {
      t.same(step.effects, [{ type: 'stop', exitCode: 3, message: brakeMessage(2) }]);
      t.match(brakeMessage(2), /below this session's start-up floor; raise --window, or run with --no-handoff/);
      t.equal(step.state.phase, 'stopped');
    } else {
      t.same(step.effects, [{ type: 'spawn', generation: 2 }]);
      state = run(step.state, { type: 'spawned', now: 4, generation: 2, successor: true }, { type: 'session', now: 5, sessionId: 's2' }).state;
    }
  }
});

t.test('a successor born above the line is not handed off in a loop', async (t) => {
  const succ = working(config, 2, true);
  const { state, effects } = run(succ, { type: 'reading', now: 1, context: 155_000 }, { type: 'turn-end', now: 2 });
  t.same(names(effects), ['notify:born-high', 'notify:near', 'answer:pass'], 'no handoff at its first turn end');
  t.equal(state.line, 155_000 + 22_500, 'the line is lifted halfway to the window (flower-pty lifts Claude Code\'s refusal line to it)');
  const own = run(working({ ...config, blockCompaction: false }, 2, true), { type: 'reading', now: 1, context: 155_000 });
  t.equal(own.state.line, 155_000 + 11_000, 'with --keep-auto-compact nothing is lifted: halfway to Claude Code\'s own block (177k)');
  const later = run(state, { type: 'prompt', now: 3 }, { type: 'reading', now: 3, context: 178_000 }, { type: 'turn-end', now: 4 });
  t.same(names(later.effects), ['answer:block-handoff', 'notify:writing'], 'it still hands off before the client block');
  const tiny = working({ ...config, window: 20_000, at: 10_000, warnAt: 1_000 }, 2, true);
  const braked = run(tiny, { type: 'reading', now: 1, context: 15_000 });
  t.same(braked.effects.at(-1), { type: 'stop', exitCode: 3, message: brakeMessage(2) }, 'no room at all: the start-up floor brake');
  const first = working(config, 1, false);
  t.same(names(run(first, { type: 'reading', now: 1, context: 155_000 }, { type: 'turn-end', now: 2 }).effects), ['notify:near', 'answer:block-handoff', 'notify:writing'], 'generation 1 is not "born high"');
});

t.test('child exits: a clean exit quits, crashes degrade and then brake', async (t) => {
  t.same(run(working(), { type: 'child-exit', now: 1, code: 0 }).effects, [{ type: 'stop', exitCode: 0 }]);
  let { state, effects } = run(working(), { type: 'child-exit', now: 1, code: 1 });
  t.same(names(effects), ['notify:crash', 'freeze', 'notify:done', 'notify:generation-end'], 'no end-child for a child already gone');
  t.equal(state.attempts, 1);
  for (let i = 2; i <= 3; i++) {
    state = run(state, { type: 'tick', now: 20_000 * i }, { type: 'spawned', now: 20_000 * i, generation: i, successor: true }).state;
    ({ state, effects } = run(state, { type: 'child-exit', now: 20_000 * i + 1, code: 137, signal: 9 }));
  }
  t.match(effects.at(-1), { type: 'stop', exitCode: 4, message: /crashed 3 times in a row/ });
  const reset = run(working(), { type: 'child-exit', now: 1, code: 1 }).state;
  const afterGoodTurn = run(reset, { type: 'tick', now: 20_000 }, { type: 'spawned', now: 20_000, generation: 2, successor: true }, { type: 'turn-end', now: 20_001 }).state;
  t.equal(afterGoodTurn.crashes, 0, 'a completed turn resets the crash streak');
  t.equal(afterGoodTurn.attempts, 1, 'but attempts keep counting');
});

t.test('force-handoff and quit', async (t) => {
  const forced = run(working(), { type: 'reading', now: 1, context: 20_000 }, { type: 'force-handoff', now: 2 }, { type: 'turn-end', now: 3 });
  t.same(names(forced.effects), ['answer:block-handoff', 'notify:writing']);
  const quit = run(working(), { type: 'quit', now: 1 });
  t.same(quit.effects, [{ type: 'end-child' }, { type: 'stop', exitCode: 0 }]);
  t.same(run(quit.state, { type: 'turn-end', now: 2 }).effects, [{ type: 'answer', decision: 'pass' }], 'a stopped machine lets hooks pass');
});

t.test('a person edits the document after the successor started: a note at its next boundary', async (t) => {
  const first = working();
  t.equal(run(first, { type: 'human-edit', now: 1 }).state.pendingNote, false, 'generation 1 has no document to be told about');
  const succ = working(config, 2, true);
  let { state, effects } = run(succ, { type: 'human-edit', now: 1 });
  t.same(effects, []);
  ({ state, effects } = run(state, { type: 'tool-boundary', now: 2 }));
  t.same(names(effects), ['answer:block-note']);
  ({ effects } = run(state, { type: 'turn-end', now: 3 }));
  t.same(names(effects), ['answer:pass'], 'delivered once');
  const both = run(succ, { type: 'reading', now: 1, context: 100_000 }, { type: 'human-edit', now: 1 }, { type: 'reading', now: 2, context: 160_000 }, { type: 'turn-end', now: 3 });
  t.same(names(both.effects).filter((n) => n.startsWith('answer')), ['answer:block-handoff'], 'a due handoff wins over the note');
});

t.test('a crossing first seen with claude idle is typed at once; a draft a person is typing is never typed over', async (t) => {
  const idle = run(working(), { type: 'reading', now: 2, context: 100_000 }, { type: 'turn-end', now: 3 }).state;
  const crossed = run(idle, { type: 'reading', now: 4, context: 151_000 });
  t.same(names(crossed.effects), ['notify:near', 'type-request', 'notify:writing'], 'the turn already ended: the request is typed');
  t.equal(crossed.state.phase, 'writing');
  const drafting = run(idle, { type: 'typed', now: 4 }, { type: 'reading', now: 5, context: 151_000 });
  t.same(names(drafting.effects), ['notify:near'], 'a person is typing: wait for their turn to end');
  t.equal(drafting.state.pendingCut, true);
  const theirTurn = run(drafting.state, { type: 'prompt', now: 6 }, { type: 'turn-end', now: 7 });
  t.same(names(theirTurn.effects), ['answer:block-handoff', 'notify:writing'], 'cut at the end of their turn');
});

t.test('without hooks, a transcript turn end with a cut due types the request', async (t) => {
  const due = run(working(), { type: 'prompt', now: 1 }, { type: 'reading', now: 2, context: 152_000 }).state;
  const ended = run(due, { type: 'turn-end', now: 3, via: 'transcript' });
  t.same(names(ended.effects), ['answer:pass', 'type-request', 'notify:writing']);
  const doc = run(ended.state, { type: 'turn-end', now: 4, via: 'transcript', document: { text: 'd', complete: true, missing: [] } });
  t.equal(doc.state.phase, 'review', 'the reply in the transcript is the document');
});

t.test('Stop blocks in a row stay under the cap Claude Code honours', async (t) => {
  let state = run(working({ ...config, stopBlockCap: 2 }), { type: 'prompt', now: 1 }).state;
  state = { ...state, stopBlocks: 2 };
  const due = run(state, { type: 'reading', now: 2, context: 152_000 }, { type: 'turn-end', now: 3 });
  t.notOk(names(due.effects).includes('answer:block-handoff'), 'a third block would be overridden: it is not sent');
  t.same(names(due.effects), ['notify:near', 'answer:pass', 'type-request', 'notify:writing'], 'the request is typed at the idle prompt instead');
  const fresh = run(working(), { type: 'prompt', now: 1 }, { type: 'reading', now: 2, context: 152_000 }, { type: 'turn-end', now: 3 });
  t.equal(fresh.state.stopBlocks, 1, 'a block is counted');
  t.equal(run(fresh.state, { type: 'prompt', now: 4 }).state.stopBlocks, 0, 'a new prompt resets the chain');
});

t.test('an automatic compaction while handing off is blocked and becomes a crossing; a manual one is the person\'s', async (t) => {
  const auto = run(working(), { type: 'pre-compact', now: 1, trigger: 'auto' });
  t.same(names(auto.effects), ['answer:block-compact']);
  t.equal(auto.state.pendingCut, true);
  t.same(names(run(working(), { type: 'pre-compact', now: 1, trigger: 'manual' }).effects), ['answer:pass']);
  t.same(names(run(working({ ...config, blockCompaction: false }), { type: 'pre-compact', now: 1, trigger: 'auto' }).effects), ['answer:pass'], '--keep-auto-compact blocks nothing');
});

t.test('claude dead before its first turn stops the run at once; a spawn that fails stops it too', async (t) => {
  const early = run(working(), { type: 'child-exit', now: 2, code: 1, early: 'claude exited with code 1 ...: Invalid API key' });
  t.same(early.effects, [{ type: 'stop', exitCode: 4, message: 'claude exited with code 1 ...: Invalid API key' }]);
  t.equal(early.state.phase, 'stopped');
  const failed = run(createMachine(config), { type: 'spawn-failed', now: 1, message: 'no "claude" on PATH' });
  t.same(failed.effects, [{ type: 'stop', exitCode: 5, message: 'no "claude" on PATH' }]);
});
