// The writing turn's own row (core/decide/last-row.ts), through the whole decision: its Stop hook comes
// first, as Claude Code runs it, and holds nothing up; the document is frozen and the successor started at
// once; the row's reading reaches `done` and the manifest whenever it lands, or is given up on.
import t from 'tap';
import type { RunEvent, RunState } from '../../../src/core/run-state.js';
import { decide } from '../../../src/core/decide.js';
import { COMPLETE_DOC, given, names, reading, signal, spawnedEvent, stopHook, tick, working } from './run.js';

const docRow = (now: number, generation = 1): RunEvent[] => [
  signal({ kind: 'reading', line: 9, context: 157_000, messageId: 'm-doc', model: null }, now, generation),
  signal({ kind: 'assistant-text', line: 9, text: COMPLETE_DOC, messageId: 'm-doc' }, now, generation),
];
const gathered: RunEvent = { type: 'facts-gathered', now: 3, generation: 1, git: null };
const written = (now = 4): RunEvent => ({ type: 'document-written', now, generation: 1, path: '/p/.flower/notes/doc.md', archived: null, error: null });

// Every effect of the events after `s`, named.
function after(s: RunState, ...events: RunEvent[]): { state: RunState; names: string[]; effects: ReturnType<typeof decide>['effects'] } {
  let state = s;
  const effects: ReturnType<typeof decide>['effects'] = [];
  for (const e of events) {
    const d = decide(state, e);
    state = d.state;
    effects.push(...d.effects);
  }
  return { state, names: names(effects, state), effects };
}
const doneOf = (effects: ReturnType<typeof decide>['effects']) => effects.find((e) => e.type === 'emit' && e.name === 'done') as { fields: { context: number } } | undefined;

// The writing turn's Stop, its row not in the transcript yet.
const stopped = () => given([reading(152_000), stopHook('', 1), stopHook(COMPLETE_DOC, 2)], { reviewMs: 0 }, working({ reviewMs: 0 }));

t.test("the writing turn's Stop is answered at once and the freeze starts: nothing waits for its row", async (t) => {
  const s = stopped();
  t.equal(s.cycle.phase, 'review', 'the document from the payload is being frozen');
  t.same(s.boundaryWaits, [], 'no hook held');
  t.match(s.lastRow, { generation: 1, since: 2, until: 2 + s.settings.stopWaitMs, usage: { context: 152_000 }, done: null });
  t.ok(s.pendingFreeze);
});

t.test('the row lands before the document is written: done carries its reading, as before', async (t) => {
  const landed = after(stopped(), ...docRow(3));
  t.same(landed.names, ['last-row']);
  t.equal(landed.state.lastRow, null);
  t.equal(landed.state.gen?.context, 157_000);
  const frozen = after(landed.state, gathered, written());
  t.equal(doneOf(frozen.effects)?.fields.context, 157_000);
  t.equal(frozen.state.manifest.generations[0]?.context, 157_000);
});

t.test('the document is written first: the successor starts, and done waits for the reading, which then lands from the retired transcript', async (t) => {
  const frozen = after(stopped(), gathered, written());
  t.notOk(frozen.names.includes('done'), 'not yet');
  t.ok(frozen.names.includes('review'), 'the review (and the person told) does not wait');
  t.ok(frozen.names.includes('read-seed'), 'nor does the successor (review 0)');
  t.equal(frozen.state.manifest.generations[0]?.end, 'handoff', 'the generation is closed on disk');
  const next = after(frozen.state, { type: 'seed-read', now: 5, generation: 2, onDisk: null }, spawnedEvent(2, true, 6));
  t.equal(next.state.gen?.n, 2);
  const late = after(next.state, ...docRow(120, 1));
  t.same(late.names, ['last-row', 'done']);
  t.match(late.effects.find((e) => e.type === 'emit' && e.name === 'last-row'), { fields: { generation: 1, ms: 118, landed: true, context: 157_000 } });
  t.equal(doneOf(late.effects)?.fields.context, 157_000, "done carries the writing turn's own reading");
  t.same(late.state.manifest.generations.map((g) => g.context), [157_000, 0], 'the retired generation gets it; the successor is untouched');
  t.equal(late.state.gen?.context, 0, "the successor's meter is not moved by its predecessor's row");
  t.equal(late.state.lastRow, null);
  t.same(after(late.state, ...docRow(130, 1)).names, [], 'once');
});

t.test('a retired generation\'s other rows say nothing, and a row of the successor does not stand in for it', async (t) => {
  const frozen = after(stopped(), gathered, written(), { type: 'seed-read', now: 5, generation: 2, onDisk: null }, spawnedEvent(2, true, 6));
  const other = after(frozen.state, signal({ kind: 'assistant-text', line: 8, text: 'something else', messageId: 'm' }, 50, 1), signal({ kind: 'assistant-text', line: 1, text: COMPLETE_DOC, messageId: 'x' }, 51, 2));
  t.same(other.names, []);
  t.ok(other.state.lastRow);
});

t.test('the row never lands: given up on at stopWaitMs, and done goes out with the reading known', async (t) => {
  const frozen = after(stopped(), gathered, written());
  const until = frozen.state.lastRow!.until;
  t.same(after(frozen.state, tick(until - 1)).names.filter((n) => n === 'done'), [], 'not before its time');
  const given_up = after(frozen.state, tick(until));
  t.ok(given_up.names.includes('last-row'));
  t.match(given_up.effects.find((e) => e.type === 'emit' && e.name === 'last-row'), { fields: { landed: false, context: 152_000 } });
  t.equal(doneOf(given_up.effects)?.fields.context, 152_000);
  t.ok(given_up.effects.some((e) => e.type === 'log' && /was not in the transcript 3000 ms after its Stop hook: generation 1 keeps the reading before it/.test(e.line)), 'said in the log');
});

t.test('the run ends while the row is due: done is not lost', async (t) => {
  const frozen = after(stopped(), gathered, written());
  const quit = after(frozen.state, { type: 'command', now: 10, command: 'quit' });
  t.ok(quit.names.indexOf('done') > -1 && quit.names.indexOf('done') < quit.names.indexOf('ended'), 'done before ended');
});

t.test('its row already read when the Stop comes: nothing is looked for', async (t) => {
  const s = given([reading(152_000), stopHook('', 1), ...docRow(2), stopHook(COMPLETE_DOC, 2)], {}, working());
  t.equal(s.lastRow, null);
  t.equal(s.cycle.phase, 'review');
});
