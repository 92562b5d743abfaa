// Hooks (core/decide/sources/hooks.ts), driven directly: each call's answer, an API error at a turn's end, the
// status line's window, a stale or a subagent's call, /clear, the successor's seed, a Stop hook that
// waits for its turn's last response.
import t from 'tap';
import { hookCalled } from '../../../src/core/decide/sources/hooks.js';
import { decide } from '../../../src/core/decide/decide.js';
import type { HookEvent } from '../../../src/core/run/hook-event.js';
import type { RunInput, RunState } from '../../../src/core/run/run-state.js';
import {
  COMPLETE_DOC,
  command,
  given,
  hook,
  names,
  postTool,
  preCompactHook,
  promptHook,
  reading,
  SID,
  signal,
  stopHook,
  through,
  working,
  table,
} from './run.js';

type Hook = Extract<RunInput, { type: 'hook' }>;
const calls = (s: RunState, ...events: RunInput[]) => through(s, hookCalled, ...(events as Hook[]));
const failure = (over: Partial<Extract<HookEvent, { kind: 'stop-failure' }>>): Hook =>
  hook({
    kind: 'stop-failure',
    sessionId: SID,
    error: 'x',
    details: '',
    lastMessage: '',
    overflow: false,
    usageLimit: null,
    ...over,
  }) as Hook;
const statusline = (windowSize: number | null, sessionId: string | null = SID): Hook =>
  hook({ kind: 'statusline', sessionId, windowSize, rateLimitResetsAt: null }) as Hook;
const writing = () => given([reading(152_000), stopHook()], {}, working());
const failedTool = (toolUseId: string | null = null, subagent = false): Hook =>
  hook({ kind: 'post-tool', sessionId: SID, subagent, tool: 'Bash', toolUseId, failed: true }) as Hook;
const denied = (subagent = false): Hook =>
  hook({
    kind: 'tool-denied',
    sessionId: SID,
    subagent,
    tool: 'Bash',
    toolUseId: 'toolu_d',
    reason: 'auto mode refused it',
  }) as Hook;

const rows: Array<{
  name: string;
  given: () => RunState;
  events: RunInput[];
  effects: string[];
  state?: (s: RunState) => unknown;
  expect?: unknown;
}> = [
  {
    name: 'a turn that ended on an overflow degrades at once',
    given: working,
    events: [failure({ error: 'invalid_request', details: 'prompt is too long', overflow: true })],
    effects: ['api-error', 'gather-facts', 'generation-end', 'end-child', 'reply:pass'],
    state: (s) => /^overflow: prompt is too long/.test(s.pendingFreeze?.reason ?? ''),
    expect: true,
  },
  {
    name: 'a usage limit parks the session',
    given: working,
    events: [failure({ error: 'rate_limit', usageLimit: { autoContinues: false } })],
    effects: ['api-error', 'parked', 'reply:pass'],
    state: (s) => s.waiting,
    expect: { kind: 'parked', since: 1, until: null, autoContinue: false, continued: false },
  },
  {
    name: 'any other error ends the writing turn without a document',
    given: writing,
    events: [failure({ error: 'server_error' })],
    effects: ['api-error', 'gather-facts', 'generation-end', 'end-child', 'reply:pass'],
    state: (s) => s.pendingFreeze?.reason,
    expect: 'the writing turn ended without a document',
  },
  {
    name: '… and is only said outside it, where claude is back at its idle prompt',
    given: working,
    events: [promptHook(), failure({ error: 'server_error' })],
    effects: ['reply:pass', 'api-error', 'reply:pass'],
    state: (s) => s.cycle.idle,
    expect: true,
  },
  {
    name: 'a cut due when a turn fails on an error is typed at the prompt it leaves',
    given: () => given([reading(152_000)], {}, working()),
    events: [promptHook(), failure({ error: 'server_error' })],
    effects: ['reply:pass', 'api-error', 'type-into-child', 'writing', 'reply:pass'],
    state: (s) => [s.cycle.phase, s.cycle.typed],
    expect: ['writing', false],
  },
  {
    name: "the status line's window moves the thresholds",
    given: () => working({ policy: {} }),
    events: [statusline(200_000)],
    effects: ['window', 'reply:text'],
    state: (s) => [s.policy.window, s.policy.at, s.cycle.line, s.manifest.window],
    expect: [200_000, 150_000, 150_000, 200_000],
  },
  {
    name: 'an explicit --window wins over it',
    given: working,
    events: [statusline(1_000_000)],
    effects: ['reply:text'],
    state: (s) => s.policy.window,
    expect: 200_000,
  },
  {
    name: 'a line lifted for a session born high stays',
    given: () => given([reading(960_000, 1, 2)], {}, working({ policy: {} }, 2, true)),
    events: [statusline(200_000)],
    effects: ['window', 'reply:text'],
    state: (s) => [s.cycle.bornHigh, s.cycle.line],
    expect: [true, 960_000 + 20_000],
  },
  {
    name: 'a stale hook from a retired session passes and decides nothing',
    given: () => given([reading(152_000)], {}, working()),
    events: [stopHook('', 1, 'old-session')],
    effects: ['reply:pass'],
    state: (s) => s.cycle.phase,
    expect: 'working',
  },
  {
    name: "a subagent's tool call is not the main thread's boundary",
    given: () => given([reading(152_000)], {}, working()),
    events: [postTool(1, true)],
    effects: ['reply:pass'],
    state: (s) => s.cycle.phase,
    expect: 'working',
  },
  {
    name: "the main thread's is",
    given: () => given([reading(152_000)], {}, working()),
    events: [postTool(1)],
    effects: ['writing', 'reply:block-handoff'],
  },
  {
    name: 'an automatic compaction is refused in the answer',
    given: working,
    events: [preCompactHook('auto')],
    effects: ['compaction-blocked', 'reply:block-compact'],
  },
  {
    name: '/clear: a new session id and file in the same process, followed',
    given: working,
    events: [hook({ kind: 'session-start', sessionId: 's2', transcriptPath: '/t/s2.jsonl', source: 'clear' })],
    effects: ['session-changed', 'follow-transcript', 'reply:pass'],
    state: (s) => [s.gen?.sessionId, s.gen?.transcriptPath, s.gen?.sessionSeen],
    expect: ['s2', '/t/s2.jsonl', true],
  },
  {
    name: "the successor's first prompt carries its document",
    given: () => through(working({}, 2, true), (o) => o.set({ seedContext: COMPLETE_DOC }), null).state,
    events: [promptHook('read it')],
    effects: ['seed-delivered', 'reply:seed'],
    state: (s) => s.seedContext,
    expect: null,
  },
  {
    name: 'a Stop hook whose text is not in the transcript yet waits for it (no answer yet)',
    given: working,
    events: [stopHook('the last reply')],
    effects: [],
    state: (s) => s.boundaryWaits.map((w) => w.awaits),
    expect: [{ kind: 'reply', text: 'the last reply' }],
  },
  {
    name: 'a PostToolUse hook whose call is not in the transcript yet waits for it (no answer yet)',
    given: () => given([reading(152_000)], {}, working()),
    events: [postTool(1, false, 'toolu_1')],
    effects: [],
    state: (s) => s.boundaryWaits.map((w) => w.awaits),
    expect: [{ kind: 'tool-use', toolUseId: 'toolu_1' }],
  },
  {
    name: 'one whose call the transcript has shown is answered at once',
    given: () => given([reading(152_000), signal({ kind: 'tool-use', line: 2, ids: ['toolu_1'] })], {}, working()),
    events: [postTool(1, false, 'toolu_1')],
    effects: ['writing', 'reply:block-handoff'],
  },
  {
    name: 'nor one whose transcript is not to be found (it would only slow every tool call down)',
    given: () =>
      given([reading(152_000), { type: 'transcript-presence', now: 1, generation: 1, found: false }], {}, working()),
    events: [postTool(1, false, 'toolu_1')],
    effects: ['writing', 'reply:block-handoff'],
    state: (s) => s.boundaryWaits,
    expect: [],
  },
  {
    name: 'nor one under --no-handoff',
    given: () => working({ handoff: false }),
    events: [postTool(1, false, 'toolu_1'), stopHook('a reply not in the transcript')],
    effects: ['reply:pass', 'reply:pass'],
    state: (s) => s.boundaryWaits,
    expect: [],
  },
  {
    name: "a subagent's waits for nothing",
    given: () => given([reading(152_000)], {}, working()),
    events: [postTool(1, true, 'toolu_9')],
    effects: ['reply:pass'],
    state: (s) => s.boundaryWaits,
    expect: [],
  },
  {
    name: 'a failed tool call past the line is the boundary the cut uses',
    given: () => given([reading(152_000)], {}, working()),
    events: [failedTool()],
    effects: ['writing', 'reply:block-handoff'],
    state: (s) => s.cycle.phase,
    expect: 'writing',
  },
  {
    name: '… and below the line it passes',
    given: () => given([reading(100_000)], {}, working()),
    events: [failedTool()],
    effects: ['reply:pass'],
    state: (s) => s.cycle.phase,
    expect: 'working',
  },
  {
    name: "… a subagent's failed call is not the main thread's boundary",
    given: () => given([reading(152_000)], {}, working()),
    events: [failedTool('toolu_2', true)],
    effects: ['reply:pass'],
    state: (s) => s.cycle.phase,
    expect: 'working',
  },
  {
    name: '… one whose call is not in the transcript yet waits for it, as a PostToolUse hook does',
    given: () => given([reading(152_000)], {}, working()),
    events: [failedTool('toolu_3')],
    effects: [],
    state: (s) => s.boundaryWaits.map((w) => w.awaits),
    expect: [{ kind: 'tool-use', toolUseId: 'toolu_3' }],
  },
  {
    name: "… and is answered with the cut once the call's row lands",
    given: () => given([reading(152_000), failedTool('toolu_3')], {}, working()),
    events: [],
    effects: [],
    state: (s) => {
      const d = decide(s, signal({ kind: 'tool-use', line: 3, ids: ['toolu_3'] }, 2));
      return names(d.effects, d.state);
    },
    expect: ['tool-waited', 'writing', 'reply:block-handoff'],
  },
  {
    name: '… but not one a person interrupted: the turn is over, and the cut is typed at the prompt it leaves',
    given: () => given([reading(152_000)], {}, working()),
    events: [
      hook({
        kind: 'post-tool',
        sessionId: SID,
        subagent: false,
        tool: 'Bash',
        toolUseId: null,
        failed: true,
        interrupted: true,
      }),
    ],
    effects: ['reply:pass'],
    state: (s) => [s.cycle.phase, s.cycle.pendingCut],
    expect: ['working', true],
  },
  {
    name: 'a call the CLI refused by itself is said, clears a permission wait, and passes (its answer carries nothing)',
    given: () =>
      given(
        [
          reading(152_000),
          hook({ kind: 'permission-request', sessionId: SID, tool: 'Bash', summary: 'Bash rm x', question: null }),
        ],
        {},
        working(),
      ),
    events: [denied()],
    effects: ['tool-denied', 'reply:pass'],
    state: (s) => [s.cycle.phase, s.cycle.pendingCut, s.waiting],
    expect: ['working', true, null],
  },
  {
    name: '… and the cut still due is made at the next boundary that can carry it',
    given: () => given([reading(152_000), denied()], {}, working()),
    events: [failedTool()],
    effects: ['writing', 'reply:block-handoff'],
  },
  { name: "… a subagent's refused call is not said", given: working, events: [denied(true)], effects: ['reply:pass'] },
];

table(rows, (s, row) => calls(s, ...row.events));

t.test("the status line's answer is the status text", async (t) => {
  const { effects } = calls(working(), statusline(null));
  t.match(
    effects.find((e) => e.type === 'reply'),
    { answer: { kind: 'text', text: /^flower context 0\/200\.0K · about 150\.0K to the handoff/ } },
  );
});

t.test('a finished run lets every hook pass', async (t) => {
  const quit = decide(working(), command('quit')).state;
  const after = decide(quit, stopHook(COMPLETE_DOC, 2));
  t.same(
    after.effects.map((e) => e.type),
    ['reply'],
  );
  t.match(after.effects[0], { type: 'reply', answer: { kind: 'pass' } });
});
