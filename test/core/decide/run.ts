// The run, built and moved by the real decision, for the reducers' tables: a state given as a list of
// events, one event (or several) through one reducer, and the effects named so a row reads as a sentence.
import t from 'tap';
import {
  createRun,
  type RunEffect,
  type RunInput,
  type RunSettings,
  type RunState,
} from '../../../src/core/run/run-state.js';
import { decide } from '../../../src/core/decide/decide.js';
import { reduce, type Out } from '../../../src/core/decide/out.js';
import { handoffRequestOf } from '../../../src/core/decide/stages/handoff.js';
import type { HookAnswer, HookEvent } from '../../../src/core/run/hook-event.js';
import type { MeterSignal } from '../../../src/core/meter/context-meter.js';
import { resolveRunOptions } from '../../../src/core/options/resolve-options.js';
import { settingsFromOptions } from '../../../src/core/run/settings-from-options.js';
import { RUN_DIALECT } from '../../../src/claude-code/run-dialect.js';
import { STOP_BLOCK_CAP_DEFAULT } from '../../../src/claude-code/limits.js';

export const COMPLETE_DOC =
  '# Handoff\n\n## Doing\nbuilding the thing\n\n## Decided\nuse tap\n\n## Dead ends\nnone\n\n## Next\n1. finish it\n\n## Scene\nsrc/\n';
export const SID = 's1';

// A 200k window: the line at 150k, the notice at 130k.
export function settings(over: Partial<RunSettings> = {}): RunSettings {
  // the real builder from the table's defaults: a 200k window, 60s to write
  const options = resolveRunOptions({ window: 200_000, 'write-timeout': 60 }, {});
  const facts = {
    step: 'work',
    cwd: '/p',
    workbench: '/p/.flower',
    documentPath: '/p/.flower/notes/doc.md',
    eventsPath: null,
    prompt: 'build the thing',
    env: {},
    stopBlockCap: STOP_BLOCK_CAP_DEFAULT,
    dialect: RUN_DIALECT,
  };
  // the check at the freeze off: its own tests (coverage-check.test.ts) turn it on
  return { ...settingsFromOptions(options, facts), coverageCheck: 0, ...over };
}

// ---- events in the run's one vocabulary
let hookIds = 0;
export const hook = (h: HookEvent, now = 1): RunInput => ({ type: 'hook', now, id: ++hookIds, hook: h });
export const stopHook = (text = '', now = 1, sessionId: string | null = SID): RunInput =>
  hook({ kind: 'stop', sessionId, lastMessage: text, stopHookActive: false }, now);
export const postTool = (now = 1, subagent = false, toolUseId: string | null = null): RunInput =>
  hook({ kind: 'post-tool', sessionId: SID, subagent, tool: 'Bash', toolUseId }, now);
export const promptHook = (prompt = 'go on', now = 1): RunInput =>
  hook({ kind: 'prompt-submit', sessionId: SID, prompt }, now);
export const preCompactHook = (trigger: 'auto' | 'manual', now = 1): RunInput =>
  hook({ kind: 'pre-compact', sessionId: SID, trigger }, now);
/** a row of generation `generation`'s transcript */
export const signal = (s: MeterSignal, now = 1, generation = 1): RunInput => ({
  type: 'transcript',
  now,
  generation,
  signal: s,
  usage: { context: s.kind === 'reading' ? s.context : 0, costUsd: null, numTurns: 1 },
});
/** the writing turn's response row, read from the transcript before its Stop hook is answered */
export const docLanded = (text = COMPLETE_DOC, now = 1): RunInput =>
  signal({ kind: 'assistant-text', line: 9, text, messageId: 'm-doc' }, now);
export const reading = (context: number, now = 1, generation = 1): RunInput =>
  signal({ kind: 'reading', line: 1, context, messageId: null, model: null }, now, generation);
export const transcriptTurnEnd = (now = 1): RunInput =>
  signal({ kind: 'turn-end', line: 1, source: 'turn_duration' }, now);
export const tick = (now: number): RunInput => ({ type: 'tick', now });
export const command = (c: 'force-handoff' | 'hold' | 'release' | 'quit', now = 1): RunInput => ({
  type: 'command',
  now,
  command: c,
});
export const childExit = (code: number, now = 20_000, signal?: number): RunInput => ({
  type: 'child-exit',
  now,
  code,
  ...(signal !== undefined ? { signal } : {}),
  lastLines: '',
});
export const spawnedEvent = (generation: number, successor: boolean, now = 0): RunInput => ({
  type: 'spawned',
  now,
  generation,
  successor,
  sessionId: SID,
  transcriptPath: `/t/${SID}.jsonl`,
});
export const edited = (text: string | null, now = 1): RunInput => ({ type: 'document-changed', now, text });

/** a new run moved by `events` through the whole decision */
export function given(events: RunInput[], over: Partial<RunSettings> = {}, state?: RunState): RunState {
  let s = state ?? createRun(settings(over), '2026-01-01T00:00:00.000Z', null);
  for (const e of events) s = decide(s, e).state;
  return s;
}

/** generation `n` started, its transcript there and its session seen: the cycle is working */
export function working(over: Partial<RunSettings> = {}, n = 1, successor = false): RunState {
  return given(
    [
      spawnedEvent(n, successor),
      { type: 'transcript-presence', now: 0, generation: n, found: true },
      signal({ kind: 'session', line: 1, sessionId: SID, previous: null }, 1, n),
    ],
    over,
  );
}

/** through one reducer: the state after and every effect, in order */
export function through<E>(
  state: RunState,
  reducer: (o: Out, e: E) => void,
  ...events: E[]
): { state: RunState; effects: RunEffect[] } {
  let s = state;
  const effects: RunEffect[] = [];
  for (const e of events) {
    const d = reduce(s, e, reducer);
    s = d.state;
    effects.push(...d.effects);
  }
  return { state: s, effects };
}

// The effects that are decisions, by name: an event's name, a hook's answer, an effect's type. What
// every decision also does (the manifest, the face's view, the timer, a log line, a page) is left out.
const PLUMBING = new Set(['save-manifest', 'show', 'wake-at', 'log', 'alert', 'tell-person']);
export function names(effects: RunEffect[], s?: RunState): string[] {
  return effects
    .filter((e) => !PLUMBING.has(e.type))
    .map((e) => {
      if (e.type === 'emit') return e.name;
      // id 0: a cycle's answer recorded by a table that drives the cycle's functions without a hook
      if (e.type === 'reply')
        return e.id === 0
          ? `answer:${e.answer.kind === 'text' ? e.answer.text : e.answer.kind}`
          : `reply:${answerOf(e.answer, s)}`;
      return e.type;
    });
}

function answerOf(answer: HookAnswer, s?: RunState): string {
  if (answer.kind === 'pass') return 'pass';
  if (answer.kind === 'text') return 'text'; // the status line's
  if (answer.kind === 'add-context') return 'seed';
  if (answer.reason.includes('instead of compacting')) return 'block-compact';
  if (s && answer.reason === handoffRequestOf(s)) return 'block-handoff';
  return answer.reason.startsWith('A person edited') ? 'block-note' : 'block-handoff';
}

/** a table row: a name, the run it starts from, what happens (the table's own key), and what must come out */
export interface Row {
  name: string;
  given: () => RunState;
  /** the decisions, by name (see `names`) */
  effects: string[];
  /** what of the run after is checked, and its value */
  state?: (s: RunState) => unknown;
  expect?: unknown;
}

/** one test per row: the run given, driven through the reducer, its decisions and the run after */
export function table<R extends Row>(
  rows: R[],
  drive: (s: RunState, row: R) => { state: RunState; effects: RunEffect[] },
): void {
  for (const row of rows) {
    t.test(row.name, async (t) => {
      const { state, effects } = drive(row.given(), row);
      t.same(names(effects, state), row.effects, 'the decisions');
      if (row.state) t.same(row.state(state), row.expect, 'the run after');
    });
  }
}
