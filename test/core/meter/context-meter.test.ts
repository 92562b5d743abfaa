// The context meter on Claude Code rows read by the dialect (transcript-rows.ts): the reading rule,
// de-duplication by message.id, the rows it must skip, compaction resets, signals and counters.
import t from 'tap';
import { createMeter, type MeterSignal } from '../../../src/core/meter/context-meter.js';
import { parseRecord } from '../../../src/claude-code/transcript-rows.js';

type Json = Record<string, unknown>;

function assistant(id: string, usage: [number, number, number, number], extra: Json = {}, text = 'ok'): Json {
  const [i, cc, cr, out] = usage;
  return {
    type: 'assistant',
    sessionId: 's1',
    isSidechain: false,
    message: {
      id,
      model: 'claude-sonnet-4-5',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text }],
      usage: { input_tokens: i, cache_creation_input_tokens: cc, cache_read_input_tokens: cr, output_tokens: out },
    },
    ...extra,
  };
}
const user = (content: unknown, extra: Json = {}): Json => ({
  type: 'user',
  sessionId: 's1',
  message: { role: 'user', content },
  ...extra,
});
const system = (subtype: string, extra: Json = {}): Json => ({ type: 'system', subtype, sessionId: 's1', ...extra });

function run(records: Json[]): { meter: ReturnType<typeof createMeter>; signals: MeterSignal[] } {
  const meter = createMeter();
  const signals: MeterSignal[] = [];
  records.forEach((r, i) => {
    const rec = parseRecord(JSON.stringify(r));
    if (rec) signals.push(...meter.feed(rec, i + 1));
  });
  return { meter, signals };
}
const kinds = (signals: MeterSignal[]): string[] => signals.map((s) => s.kind);

t.test('context is input + cache_creation + cache_read of the newest response, output excluded', async (t) => {
  const { meter, signals } = run([assistant('m1', [10, 100, 1000, 50]), assistant('m2', [5, 20, 2000, 70])]);
  t.equal(meter.context, 2025);
  t.equal(meter.peak, 2025);
  t.equal(meter.model, 'claude-sonnet-4-5');
  t.same(
    signals.filter((s) => s.kind === 'reading').map((s) => (s.kind === 'reading' ? [s.line, s.context] : [])),
    [
      [1, 1110],
      [2, 2025],
    ],
  );
  t.equal(meter.numTurns, 2);
});

t.test('rows of one response count once', async (t) => {
  const { meter, signals } = run([
    assistant('m1', [1, 0, 999, 1], {}, 'text block'),
    assistant('m1', [1, 0, 999, 1], {}, 'tool block'),
    assistant('m1', [1, 0, 999, 300], {}, 'last block'),
  ]);
  t.equal(signals.filter((s) => s.kind === 'reading').length, 1);
  t.equal(meter.readings, 1);
  t.equal(meter.numTurns, 1);
  t.equal(meter.context, 1000);
});

t.test('sidechain, synthetic and API-error rows never become the reading', async (t) => {
  const { meter, signals } = run([
    assistant('m1', [0, 0, 5000, 1]),
    assistant('sub', [0, 0, 90000, 1], { isSidechain: true }),
    assistant('err', [0, 0, 0, 0], { isApiErrorMessage: true }, 'API Error: 500'),
    {
      ...assistant('syn', [0, 0, 777, 0]),
      message: { id: 'syn', model: '<synthetic>', content: [], usage: { input_tokens: 777 } },
    },
  ]);
  t.equal(meter.context, 5000);
  t.equal(meter.peak, 5000);
  t.same(
    kinds(signals).filter((k) => k !== 'assistant-text'),
    ['session', 'reading'],
    'a non-overflow API error is no signal',
  );
});

t.test('zero-usage rows are skipped', async (t) => {
  const { meter } = run([assistant('m1', [0, 0, 4000, 1]), assistant('m2', [0, 0, 0, 0])]);
  t.equal(meter.context, 4000);
  t.equal(meter.numTurns, 1);
});

t.test('overflow from the synthetic row and from error details; context kept', async (t) => {
  const { meter, signals } = run([
    assistant('m1', [50, 1000, 176950, 42]),
    assistant('syn', [0, 0, 0, 0], { isApiErrorMessage: true }, 'Prompt is too long'),
    assistant(
      'e2',
      [0, 0, 0, 0],
      { isApiErrorMessage: true, errorDetails: '400 maximum context length is 200000' },
      'API Error',
    ),
  ]);
  const overflows = signals.filter((s) => s.kind === 'overflow');
  t.same(
    overflows.map((s) => s.line),
    [2, 3],
  );
  t.equal(meter.overflows, 2);
  t.equal(meter.context, 178000);
});

t.test('compaction: signal with the meter before, then postTokens until the next response', async (t) => {
  const { meter, signals } = run([
    assistant('m1', [0, 0, 160000, 10]),
    user([{ type: 'tool_result', content: 'x'.repeat(400) }]),
    system('compact_boundary', { compactMetadata: { trigger: 'auto', preTokens: 160120, postTokens: 3000 } }),
    user('This session is being continued…', { isCompactSummary: true }),
  ]);
  const c = signals.find((s) => s.kind === 'compaction');
  t.same(c, {
    kind: 'compaction',
    line: 3,
    preTokens: 160120,
    postTokens: 3000,
    meterBefore: 160000,
    estimateBefore: 160000 + 10 + 100,
  });
  t.equal(meter.context, 3000);
  t.equal(meter.estimate, 3000, 'the summary is inside postTokens, not pending');
  t.equal(meter.compactions, 1);
  t.equal(meter.peak, 160000);
  const after = run([system('compact_boundary', { compactMetadata: { preTokens: 5 } })]);
  t.equal(after.meter.context, 0, 'no postTokens (2.1.39): unknown until the next response');
  t.notOk('postTokens' in (after.signals.find((s) => s.kind === 'compaction') ?? {}));
});

t.test('estimate uses characters when the response was written while streaming', async (t) => {
  // output_tokens stays 1 on streaming rows: 800 chars of tool input count as 200 tokens.
  const m = run([
    {
      type: 'assistant',
      sessionId: 's1',
      message: {
        id: 'm1',
        model: 'x',
        stop_reason: null,
        content: [{ type: 'text', text: 'a'.repeat(800) }],
        usage: { input_tokens: 0, cache_read_input_tokens: 1000, output_tokens: 1 },
      },
    },
    user([{ type: 'tool_result', content: [{ type: 'text', text: 'b'.repeat(40) }, { type: 'image' }] }]),
  ]).meter;
  t.equal(m.estimate, 1000 + 200 + 10 + 2000);
  t.equal(m.context, 1000);
});

t.test('prompts, interrupts and harness rows', async (t) => {
  const { meter, signals } = run([
    user('fix the bug', { origin: { kind: 'human' }, promptSource: 'typed' }),
    user('continue'), // older versions: no origin
    user([{ type: 'text', text: '[Request interrupted by user]' }]),
    user([{ type: 'text', text: '[Request interrupted by user for tool use]' }]),
    user('<command-name>/clear</command-name>'),
    user('<local-command-caveat>…</local-command-caveat>', { isMeta: true }),
    user('<task-notification>done</task-notification>', { origin: { kind: 'task-notification' } }),
    user('plain text from a notification', { origin: { kind: 'task-notification' } }),
    user([{ type: 'tool_result', content: 'fix the bug' }]),
    user('   '),
  ]);
  t.same(
    signals.filter((s) => s.kind === 'user-prompt').map((s) => (s.kind === 'user-prompt' ? s.text : '')),
    ['fix the bug', 'continue'],
  );
  t.same(
    signals.filter((s) => s.kind === 'interrupt').map((s) => s.line),
    [3, 4],
  );
  t.equal(meter.prompts, 2);
  t.equal(meter.interrupts, 2);
});

t.test('turn ends: both sources signal, a turn counts once', async (t) => {
  const { meter, signals } = run([
    user('go'),
    assistant('m1', [1, 1, 1, 1]),
    system('stop_hook_summary'),
    system('turn_duration'),
    system('turn_duration'), // nothing happened since: not a new turn
    user('again'),
    system('turn_duration'),
  ]);
  t.same(
    signals.filter((s) => s.kind === 'turn-end').map((s) => (s.kind === 'turn-end' ? s.source : '')),
    ['stop_hook_summary', 'turn_duration', 'turn_duration', 'turn_duration'],
  );
  t.equal(meter.turnEnds, 2);
});

t.test('session changes: first id, then a new one resets the context; cost sums sessions', async (t) => {
  const { meter, signals } = run([
    { type: 'mode', sessionId: 'a' },
    { ...assistant('m1', [0, 0, 50000, 1]), sessionId: 'a' },
    { type: 'cost-state', sessionId: 'a', totalCostUSD: 0.25 },
    { type: 'cost-state', sessionId: 'a', totalCostUSD: 0.5 },
    { type: 'file-history-snapshot' },
    { type: 'mode', sessionId: 'b' },
    { type: 'cost-state', sessionId: 'b', totalCostUSD: 0.125 },
  ]);
  t.same(
    signals.filter((s) => s.kind === 'session'),
    [
      { kind: 'session', line: 1, sessionId: 'a', previous: null },
      { kind: 'session', line: 6, sessionId: 'b', previous: 'a' },
    ],
  );
  t.equal(meter.sessionId, 'b');
  t.equal(meter.context, 0);
  t.equal(meter.peak, 50000);
  t.equal(meter.costUsd, 0.625);
  t.equal(run([assistant('m', [1, 1, 1, 1])]).meter.costUsd, null, 'no cost-state: unknown, not 0');
});

t.test(
  "a response row's tool calls are a signal after its reading, so a PostToolUse hook waiting on it counts the row; a subagent's are not",
  async (t) => {
    const call = (id: string, toolId: string, extra: Json = {}): Json => {
      const row = assistant(id, [10, 0, 60_000, 5], extra);
      (row['message'] as Json)['content'] = [{ type: 'tool_use', id: toolId, name: 'Bash', input: { command: 'ls' } }];
      return row;
    };
    const { signals } = run([call('m1', 'toolu_1'), call('m2', 'toolu_sub', { isSidechain: true })]);
    t.same(kinds(signals), ['session', 'reading', 'tool-use']);
    t.match(signals[2], { kind: 'tool-use', ids: ['toolu_1'] });
  },
);

t.test('usage out of any sane range moves nothing: not the reading, not the peak; said once', async (t) => {
  const { meter, signals } = run([
    assistant('m1', [10, 0, 40_000, 5]),
    assistant('m2', [-1e15, 0, 0, 5]),
    assistant('m3', [1e300, 0, 0, 5]),
    assistant('m4', [10, 0.5, 40_000, 5]),
    assistant('m5', [10, 0, 40_000, -3]),
    assistant('m6', [10, 0, 10_000_001, 5]),
    system('compact_boundary', { compactMetadata: { trigger: 'auto', preTokens: 1e300, postTokens: -7 } }),
  ]);
  t.equal(meter.context, 40_010, 'the last sane reading stands');
  t.equal(meter.peak, 40_010, '1e300 is not kept as the peak');
  t.equal(meter.readings, 1);
  t.equal(meter.compactions, 0, 'an insane compaction row resets nothing');
  t.same(
    signals.filter((s) => s.kind === 'usage-ignored'),
    [{ kind: 'usage-ignored', line: 2, field: 'input_tokens', value: -1e15 }],
    'the first insane row only',
  );
  t.notOk(kinds(signals).includes('compaction'));
  const edge = run([assistant('m1', [10_000_000, 0, 0, 0])]);
  t.equal(edge.meter.context, 10_000_000, 'the ceiling itself is a reading');
});
