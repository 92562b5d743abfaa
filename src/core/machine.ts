// The decision machine: one pure transition function over the supervisor's state and the
// things that happen to it. It returns effects; the runtime carries them out. Nothing else decides.

import type { RunDialect } from './run-dialect.js';

export type Phase = 'starting' | 'working' | 'writing' | 'review' | 'respawning' | 'stopped';

export interface MachineConfig {
  handoff: boolean;
  window: number;
  at: number;
  warnAt: number;
  maxGenerations: number;
  /** a model that ignores the request must not stall the run */
  writeTimeoutMs: number;
  /** how long a frozen document waits for a person before the successor starts */
  reviewMs: number;
  /** an edit during review extends it until the file has been quiet this long */
  quietMs: number;
  /** consecutive crashes before the run stops instead of restarting forever */
  maxCrashes: number;
  /** answer an automatic compaction's PreCompact hook with a block (off with --keep-auto-compact) */
  blockCompaction: boolean;
  /** consecutive Stop blocks Claude Code honours before it overrides one */
  stopBlockCap: number;
  /** what the CLI does by itself (its own refusal line) */
  dialect: RunDialect;
}

export interface MachineState {
  readonly config: MachineConfig;
  readonly phase: Phase;
  readonly generation: number;
  readonly sessionId: string | null;
  readonly context: number;
  readonly peak: number;
  readonly readings: number;
  readonly successor: boolean;
  readonly nearSent: boolean;
  /** this generation's handoff line: `at`, or lifted for a session born above it */
  readonly line: number;
  readonly bornHigh: boolean;
  /** crossed the line mid-turn: cut at the next boundary */
  readonly pendingCut: boolean;
  readonly writingSince: number | null;
  readonly reviewUntil: number | null;
  readonly held: boolean;
  readonly crashes: number;
  /** failed attempts (crashes); handoffs never count */
  readonly attempts: number;
  /** a person edited the document this successor started from: tell it at the next boundary */
  readonly pendingNote: boolean;
  /** the turn ended and no prompt has been submitted since: claude sits at its prompt */
  readonly idle: boolean;
  /** a person typed into claude's prompt since it went idle: never type over their draft */
  readonly typed: boolean;
  /** Stop hooks answered with a block in a row (Claude Code overrides the one past its cap) */
  readonly stopBlocks: number;
}

export interface DocumentArrival {
  text: string;
  /** the parser found both required sections */
  complete: boolean;
  missing: readonly string[];
}

export type MachineInput =
  | { type: 'spawned'; now: number; generation: number; successor: boolean }
  | { type: 'session'; now: number; sessionId: string }
  | { type: 'reading'; now: number; context: number }
  | { type: 'tool-boundary'; now: number }
  /** `via: 'transcript'`: no hook can carry an answer (hooks missing), so a cut is typed instead */
  | { type: 'turn-end'; now: number; document?: DocumentArrival; via?: 'hook' | 'transcript' }
  /** a prompt went in (typed, pasted or positional): the session is busy again */
  | { type: 'prompt'; now: number }
  /** a person typed into claude's prompt */
  | { type: 'typed'; now: number }
  | { type: 'pre-compact'; now: number; trigger: 'auto' | 'manual' | 'other' }
  /** claude could not be started (binary gone, spawn error): `message` says why */
  | { type: 'spawn-failed'; now: number; message: string; exitCode?: number }
  | { type: 'overflow'; now: number; text: string }
  /** `early`: claude died in its first seconds before any turn; the message carries its last lines */
  | { type: 'child-exit'; now: number; code: number; signal?: number; early?: string }
  | { type: 'human-edit'; now: number }
  | { type: 'hold'; now: number }
  | { type: 'release'; now: number }
  | { type: 'force-handoff'; now: number }
  | { type: 'quit'; now: number }
  | { type: 'tick'; now: number }
  /** Claude Code reported its real window: the thresholds move with it */
  | { type: 'window'; now: number; window: number; at: number; warnAt: number };

export type Notice =
  | { name: 'generation-start'; generation: number; successor: boolean }
  | { name: 'near'; context: number; warnAt: number }
  | { name: 'writing'; context: number; at: number; cut: 'turn-end' | 'tool-boundary' | 'typed' | 'pre-compact' }
  | { name: 'done'; context: number; window: number; degraded: boolean; reason?: string }
  | { name: 'born-high'; context: number; line: number }
  | { name: 'crash'; code: number; signal?: number; crashes: number }
  | { name: 'generation-end'; generation: number; peak: number; reason: string };

export type Effect =
  /** the answer to the hook that delivered this input: block with the handoff request, or let it pass */
  | { type: 'answer'; decision: 'block-handoff' | 'block-note' | 'block-compact' | 'pass' }
  /** no hook boundary can carry the request (claude idle, or hooks missing): type it into claude's prompt */
  | { type: 'type-request' }
  | { type: 'notify'; notice: Notice }
  /** freeze the document: the model's text, or a degraded one built from what parsed */
  | { type: 'freeze'; generation: number; text: string | null; degraded: boolean; reason?: string }
  /** end the current claude cleanly, then by force */
  | { type: 'end-child' }
  /** start generation n as a new session seeded from the frozen document on disk (or the last good one) */
  | { type: 'spawn'; generation: number }
  | { type: 'stop'; exitCode: number; message?: string };

export interface Step {
  state: MachineState;
  effects: Effect[];
}

export const BRAKE_MESSAGE =
  'stopped after {n} generations: the handoff threshold is probably below this session\'s start-up floor; raise --window, or run with --no-handoff';

export function brakeMessage(generations: number): string {
  return BRAKE_MESSAGE.replace('{n}', String(generations));
}

export function createMachine(config: MachineConfig, start: { generation?: number; attempts?: number } = {}): MachineState {
  return {
    config,
    phase: 'starting',
    generation: start.generation ?? 0,
    sessionId: null,
    context: 0,
    peak: 0,
    readings: 0,
    successor: false,
    nearSent: false,
    line: config.at,
    bornHigh: false,
    pendingCut: false,
    writingSince: null,
    reviewUntil: null,
    held: false,
    crashes: 0,
    attempts: start.attempts ?? 0,
    pendingNote: false,
    idle: false,
    typed: false,
    stopBlocks: 0,
  };
}

const PASS: Effect = { type: 'answer', decision: 'pass' };

// A boundary with nothing to cut: deliver a pending edit note, or let it pass.
function atBoundary(s: MachineState, stop: boolean): Step {
  if (s.pendingNote && s.phase === 'working' && !(stop && capped(s))) {
    return { state: { ...s, pendingNote: false, stopBlocks: stop ? s.stopBlocks + 1 : s.stopBlocks }, effects: [{ type: 'answer', decision: 'block-note' }] };
  }
  return { state: stop ? { ...s, stopBlocks: 0 } : s, effects: [PASS] };
}

// One more Stop block would be overridden by Claude Code: let this Stop pass, keep what is pending.
function capped(s: MachineState): boolean {
  return s.stopBlocks >= s.config.stopBlockCap;
}

// A session can act on a handoff only once it is known and the feature is on.
function canHandOff(s: MachineState): boolean {
  return s.config.handoff && s.phase === 'working' && s.sessionId !== null;
}

// Freeze, retire the child, and open the review window. Every path out of a generation goes here.
function retire(s: MachineState, now: number, freeze: Extract<Effect, { type: 'freeze' }>, reason: string): Step {
  const notice: Notice = { name: 'done', context: s.context, window: s.config.window, degraded: freeze.degraded };
  if (freeze.reason !== undefined) notice.reason = freeze.reason;
  return {
    state: { ...s, phase: 'review', pendingCut: false, writingSince: null, reviewUntil: now + s.config.reviewMs },
    effects: [
      freeze,
      { type: 'notify', notice },
      { type: 'notify', notice: { name: 'generation-end', generation: s.generation, peak: s.peak, reason } },
      { type: 'end-child' },
    ],
  };
}

function degrade(s: MachineState, now: number, reason: string, text: string | null = null): Step {
  return retire(s, now, { type: 'freeze', generation: s.generation, text, degraded: true, reason }, 'degraded');
}

// Ask the session to write its document at this boundary: in the hook's answer, or typed at an idle prompt.
function cut(s: MachineState, now: number, at: 'turn-end' | 'tool-boundary' | 'typed'): Step {
  const ask: Effect = at === 'typed' ? { type: 'type-request' } : { type: 'answer', decision: 'block-handoff' };
  return {
    state: { ...s, phase: 'writing', pendingCut: false, writingSince: now, stopBlocks: at === 'turn-end' ? s.stopBlocks + 1 : s.stopBlocks },
    effects: [ask, { type: 'notify', notice: { name: 'writing', context: s.context, at: s.line, cut: at } }],
  };
}

// Claude sits idle at its prompt with nothing typed and a cut is due: nobody will make a boundary, so type the request.
function cutIfIdle(step: Step, now: number): Step {
  const s = step.state;
  if (!(canHandOff(s) && s.pendingCut && s.idle && !s.typed)) return step;
  const typed = cut(s, now, 'typed');
  return { state: typed.state, effects: [...step.effects, ...typed.effects] };
}

function onReading(s: MachineState, context: number): Step {
  const effects: Effect[] = [];
  let next: MachineState = { ...s, context, peak: Math.max(s.peak, context), readings: s.readings + 1 };
  // The writing turn is exempt: it is written above the line by design, so no threshold logic runs.
  if (s.phase !== 'working' || !s.config.handoff) return { state: next, effects };
  if (s.successor && s.readings === 0 && context >= s.config.at) {
    // Born above the line: handing off again would only breed another such session.
    // flower-pty lifts Claude Code's own refusal line while it blocks compaction; else Claude Code refuses at its own.
    const hard = s.config.dialect.refusalLine(s.config.window, s.config.blockCompaction);
    const lifted = context + Math.max(5_000, Math.floor((hard - context) / 2));
    if (lifted >= hard) {
      return {
        state: { ...next, phase: 'stopped' },
        effects: [{ type: 'end-child' }, { type: 'stop', exitCode: 3, message: brakeMessage(s.generation) }],
      };
    }
    next = { ...next, line: lifted, bornHigh: true };
    effects.push({ type: 'notify', notice: { name: 'born-high', context, line: lifted } });
  }
  if (!next.nearSent && context >= s.config.warnAt) {
    next = { ...next, nearSent: true };
    effects.push({ type: 'notify', notice: { name: 'near', context, warnAt: s.config.warnAt } });
  }
  if (context >= next.line) next = { ...next, pendingCut: true };
  return { state: next, effects };
}

function onTurnEnd(s: MachineState, input: Extract<MachineInput, { type: 'turn-end' }>): Step {
  const viaHook = input.via !== 'transcript';
  if (s.phase === 'writing') {
    const doc = input.document;
    const crashesReset = { ...s, crashes: 0, idle: true, typed: false, stopBlocks: 0 };
    if (doc && doc.complete) {
      return retire(crashesReset, input.now, { type: 'freeze', generation: s.generation, text: doc.text, degraded: false }, 'handoff');
    }
    const reason = doc ? `the handoff document is incomplete: missing ${doc.missing.join(', ')}` : 'the writing turn ended without a document';
    const step = degrade(crashesReset, input.now, reason, doc?.text ?? null);
    return { state: step.state, effects: [PASS, ...step.effects] };
  }
  const settled: MachineState = { ...s, crashes: 0, idle: true, typed: false };
  if (canHandOff(settled) && settled.pendingCut) {
    // No hook to answer, or Claude Code would override one more block: type the request at the idle prompt.
    if (!viaHook || capped(settled)) return cutIfIdle({ state: { ...settled, stopBlocks: 0 }, effects: [PASS] }, input.now);
    return cut(settled, input.now, 'turn-end');
  }
  return atBoundary(settled, viaHook);
}

function onChildExit(s: MachineState, input: Extract<MachineInput, { type: 'child-exit' }>): Step {
  // We ended it ourselves, or the run is over: nothing to decide.
  if (s.phase === 'review' || s.phase === 'respawning' || s.phase === 'stopped') return { state: s, effects: [] };
  // A clean exit is the person leaving (/exit, Ctrl-C twice): honour it.
  if (input.code === 0 && input.signal === undefined) {
    return { state: { ...s, phase: 'stopped' }, effects: [{ type: 'stop', exitCode: 0 }] };
  }
  // Dead before its first turn (not logged in, a bad flag, no network): restarting cannot help, and
  // a degraded document of an empty session would only replace the last good one.
  if (input.early !== undefined) {
    return { state: { ...s, phase: 'stopped', attempts: s.attempts + 1 }, effects: [{ type: 'stop', exitCode: 4, message: input.early }] };
  }
  const crashes = s.crashes + 1;
  const crashed: MachineState = { ...s, crashes, attempts: s.attempts + 1 };
  const notice: Notice = { name: 'crash', code: input.code, crashes };
  if (input.signal !== undefined) notice.signal = input.signal;
  if (crashes >= s.config.maxCrashes) {
    return {
      state: { ...crashed, phase: 'stopped' },
      effects: [
        { type: 'notify', notice },
        {
          type: 'stop',
          exitCode: 4,
          message: `claude crashed ${crashes} times in a row (last exit code ${input.code}); stopping instead of restarting in a loop: see the events file and the manifest's errors`,
        },
      ],
    };
  }
  const step = degrade(crashed, input.now, `claude exited with code ${input.code}${input.signal ? ` (signal ${input.signal})` : ''} during ${s.phase}`);
  return { state: step.state, effects: [{ type: 'notify', notice }, ...step.effects.filter((e) => e.type !== 'end-child')] };
}

function startNext(s: MachineState): Step {
  const generation = s.generation + 1;
  if (generation > s.config.maxGenerations) {
    return { state: { ...s, phase: 'stopped' }, effects: [{ type: 'stop', exitCode: 3, message: brakeMessage(s.generation) }] };
  }
  return { state: { ...s, phase: 'respawning', reviewUntil: null, held: false }, effects: [{ type: 'spawn', generation }] };
}

export function transition(s: MachineState, input: MachineInput): Step {
  if (s.phase === 'stopped') return { state: s, effects: input.type === 'tool-boundary' || input.type === 'turn-end' || input.type === 'pre-compact' ? [PASS] : [] };
  switch (input.type) {
    case 'spawned':
      return {
        state: {
          ...s,
          phase: 'working',
          generation: input.generation,
          successor: input.successor,
          sessionId: null,
          context: 0,
          peak: 0,
          readings: 0,
          nearSent: false,
          line: s.config.at,
          bornHigh: false,
          pendingCut: false,
          writingSince: null,
          reviewUntil: null,
          pendingNote: false,
          idle: false,
          typed: false,
          stopBlocks: 0,
        },
        effects: [{ type: 'notify', notice: { name: 'generation-start', generation: input.generation, successor: input.successor } }],
      };
    case 'session':
      return { state: { ...s, sessionId: input.sessionId }, effects: [] };
    case 'reading':
      return cutIfIdle(onReading(s, input.context), input.now);
    case 'tool-boundary':
      if (canHandOff(s) && s.pendingCut) return cut(s, input.now, 'tool-boundary');
      return atBoundary(s, false);
    case 'turn-end':
      return onTurnEnd(s, input);
    case 'prompt':
      return { state: { ...s, idle: false, typed: false, stopBlocks: 0 }, effects: [] };
    case 'typed':
      return s.idle && !s.typed ? { state: { ...s, typed: true }, effects: [] } : { state: s, effects: [] };
    case 'pre-compact':
      // An automatic compaction is a crossing flower-pty missed: block it and hand off at the next boundary.
      if (input.trigger === 'auto' && s.config.blockCompaction && s.config.handoff && (s.phase === 'working' || s.phase === 'writing')) {
        return { state: s.phase === 'working' ? { ...s, pendingCut: true } : s, effects: [{ type: 'answer', decision: 'block-compact' }] };
      }
      return { state: s, effects: [PASS] };
    case 'spawn-failed':
      return { state: { ...s, phase: 'stopped' }, effects: [{ type: 'stop', exitCode: input.exitCode ?? 5, message: input.message }] };
    case 'overflow':
      // The session can no longer run a turn: degrade at once (never a failed attempt).
      if (s.phase === 'working' || s.phase === 'writing') {
        if (!s.config.handoff) return { state: s, effects: [] };
        return degrade(s, input.now, `overflow: ${input.text.slice(0, 200)}`);
      }
      return { state: s, effects: [] };
    case 'child-exit':
      return onChildExit(s, input);
    case 'human-edit':
      if (s.phase === 'review' && s.reviewUntil !== null) {
        return { state: { ...s, reviewUntil: Math.max(s.reviewUntil, input.now + s.config.quietMs) }, effects: [] };
      }
      // The successor already read the file: the change reaches it as a note at its next boundary.
      if (s.phase === 'working' && s.successor) return { state: { ...s, pendingNote: true }, effects: [] };
      return { state: s, effects: [] };
    case 'hold':
      return { state: { ...s, held: true }, effects: [] };
    case 'release': {
      const released = { ...s, held: false };
      if (s.phase === 'review' && s.reviewUntil !== null && input.now >= s.reviewUntil) return startNext(released);
      return { state: released, effects: [] };
    }
    case 'force-handoff':
      // Claude idle at its prompt: nobody will make a boundary, so the request is typed now.
      if (canHandOff(s)) return cutIfIdle({ state: { ...s, pendingCut: true }, effects: [] }, input.now);
      return { state: s, effects: [] };
    case 'quit':
      return { state: { ...s, phase: 'stopped' }, effects: [{ type: 'end-child' }, { type: 'stop', exitCode: 0 }] };
    case 'window': {
      const config = { ...s.config, window: input.window, at: input.at, warnAt: input.warnAt };
      return { state: { ...s, config, line: s.bornHigh ? s.line : input.at }, effects: [] };
    }
    case 'tick':
      if (s.phase === 'writing' && s.writingSince !== null && input.now - s.writingSince >= s.config.writeTimeoutMs) {
        return degrade(s, input.now, `no handoff document within ${Math.round(s.config.writeTimeoutMs / 1000)}s`);
      }
      if (s.phase === 'review' && !s.held && s.reviewUntil !== null && input.now >= s.reviewUntil) return startNext(s);
      return { state: s, effects: [] };
  }
}

// Seconds left in the review window, for the status line (null outside review).
export function reviewRemaining(s: MachineState, now: number): number | null {
  if (s.phase !== 'review' || s.reviewUntil === null) return null;
  return Math.max(0, Math.ceil((s.reviewUntil - now) / 1000));
}
