// What claude waits on a person for (core/decide/turn/permission-waits.ts), through the hooks that say it.
import t from 'tap';
import { hookCalled } from '../../../src/core/decide/sources/hooks.js';
import type { HookEvent } from '../../../src/core/run/hook-event.js';
import type { RunInput, RunState } from '../../../src/core/run/run-state.js';
import { hook, names, postTool, promptHook, SID, signal, stopHook, through, working } from './run.js';
import { transcriptSignal } from '../../../src/core/decide/sources/transcript.js';

type Hook = Extract<RunInput, { type: 'hook' }>;
const permission = hook({
  kind: 'permission-request',
  sessionId: SID,
  tool: 'Bash',
  summary: 'Bash touch x',
  question: null,
}) as Hook;
const question = hook({
  kind: 'permission-request',
  sessionId: SID,
  tool: 'AskUserQuestion',
  summary: 'AskUserQuestion',
  question: 'Which parser? (A / B)',
}) as Hook;
const note = (about: 'idle' | 'permission'): Hook =>
  hook({ kind: 'notification', sessionId: SID, about, message: `m ${about}` } as HookEvent) as Hook;
const waitingFor = (s: RunState) => s.waiting;

const rows: Array<{ name: string; events: Hook[]; effects: string[]; waiting: unknown }> = [
  {
    name: 'a permission request',
    events: [permission],
    effects: ['needs-permission', 'reply:pass'],
    waiting: { kind: 'permission', what: 'Bash touch x' },
  },
  {
    name: 'a question',
    events: [question],
    effects: ['question', 'reply:pass'],
    waiting: { kind: 'question', text: 'Which parser? (A / B)' },
  },
  {
    name: "claude's own permission notification after the request says nothing new",
    events: [permission, note('permission')],
    effects: ['needs-permission', 'reply:pass', 'reply:pass'],
    waiting: { kind: 'permission', what: 'Bash touch x' },
  },
  {
    name: 'the notification alone',
    events: [note('permission')],
    effects: ['needs-permission', 'reply:pass'],
    waiting: { kind: 'permission', what: 'a tool' },
  },
  { name: 'the idle prompt', events: [note('idle')], effects: ['idle', 'reply:pass'], waiting: { kind: 'idle' } },
  {
    name: 'an approval runs the tool: cleared',
    events: [permission, postTool() as Hook],
    effects: ['needs-permission', 'reply:pass', 'reply:pass'],
    waiting: null,
  },
  {
    name: 'an answered question, too',
    events: [question, postTool() as Hook],
    effects: ['question', 'reply:pass', 'reply:pass'],
    waiting: null,
  },
  {
    name: 'a prompt clears the idle wait',
    events: [note('idle'), promptHook() as Hook],
    effects: ['idle', 'reply:pass', 'reply:pass'],
    waiting: null,
  },
  {
    name: "a turn's end clears a permission but not an idle prompt",
    events: [note('idle'), stopHook() as Hook],
    effects: ['idle', 'reply:pass', 'reply:pass'],
    waiting: { kind: 'idle' },
  },
];

for (const row of rows) {
  t.test(row.name, async (t) => {
    const { state, effects } = through(working(), hookCalled, ...row.events);
    t.same(names(effects, state), row.effects, 'the decisions');
    t.same(waitingFor(state), row.waiting, 'what it waits for');
  });
}

t.test('a refusal fires no hook: the interrupt row in the transcript clears the wait', async (t) => {
  const asked = through(working(), hookCalled, permission).state;
  const refused = through(
    asked,
    transcriptSignal,
    signal({ kind: 'interrupt', line: 9 }) as Extract<RunInput, { type: 'transcript' }>,
  );
  t.equal(refused.state.waiting, null);
});
