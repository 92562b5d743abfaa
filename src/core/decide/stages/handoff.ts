// The handoff cycle at a message boundary: a reading that crosses the line (or is born above it), the
// cut at the next tool call or turn end (in the hook's answer, or typed at an idle prompt), the writing
// turn's end, a compaction or an overflow that must end the generation. Pure reducers over the run.

import { EXIT } from '../../exit-code.js';
import { handoffRequest } from '../../lineage/handoff-prompts.js';
import { topFailures } from '../../dead-ends/failure-record.js';
import { FAILURES_LISTED } from '../../dead-ends/dead-end-watch.js';
import { parseDocument } from '../../document/handoff-parse.js';
import type { HandoffCycle, RunState } from '../../run/run-state.js';
import { degrade, retire } from './freezing.js';
import { amendedTurnEnded, checksCoverage, scoreFirst } from './coverage-check.js';
import { brakeMessageOf, NO_BOUNDARY, stop } from './generations.js';
import type { Out } from '../out.js';

/** what a hook that brought a boundary answers: block with the request, the edit note or a refusal to compact, or pass */
export type Answer = 'block-handoff' | 'block-note' | 'block-compact' | 'pass';

// The one line typed into claude's prompt when no hook can carry the request; the request itself is in the file.
export const TYPED_REQUEST_LINE =
  'flower-pty: your context window is nearly full. Read the file {file} now and do exactly what it asks: reply with your handoff document.';

export function handoffRequestOf(s: RunState): string {
  return handoffRequest({
    used: s.gen?.context ?? 0,
    window: s.policy.window,
    failures: s.gen ? topFailures(s.gen.failures, FAILURES_LISTED) : [],
  });
}

/** the feature is on and the session is known: a handoff can concern it (in some phase) */
export function handoffConcerns(s: RunState): boolean {
  return s.settings.handoff && s.gen?.sessionSeen === true;
}

// A session can act on a handoff only once it is known and the feature is on, while it works.
function canHandOff(s: RunState): boolean {
  return handoffConcerns(s) && s.cycle.phase === 'working';
}

// One more Stop block would be overridden by Claude Code: let this Stop pass, keep what is pending.
function capped(s: RunState): boolean {
  return s.cycle.stopBlocks >= s.settings.stopBlockCap;
}

// A boundary with nothing to cut: deliver a pending edit note, or let it pass.
function atBoundary(o: Out, stopHook: boolean): Answer {
  const c = o.s.cycle;
  if (c.pendingNote && c.phase === 'working' && !(stopHook && capped(o.s))) {
    o.cycle({ pendingNote: false, stopBlocks: stopHook ? c.stopBlocks + 1 : c.stopBlocks });
    return 'block-note';
  }
  if (stopHook) o.cycle({ stopBlocks: 0 });
  return 'pass';
}

// Ask the session to write its document at this boundary: in the hook's answer, or typed at an idle prompt.
function cut(o: Out, now: number, at: 'turn-end' | 'tool-boundary' | 'typed'): Answer {
  const c = o.s.cycle;
  o.cycle({
    phase: 'writing',
    pendingCut: false,
    cutDueSince: null,
    writingSince: now,
    stopBlocks: at === 'turn-end' ? c.stopBlocks + 1 : c.stopBlocks,
  });
  if (at === 'typed') o.do({ type: 'type-into-child', request: handoffRequestOf(o.s), line: TYPED_REQUEST_LINE });
  o.emit('writing', { generation: o.generation, context: o.s.gen?.context ?? 0, at: o.s.cycle.line, cut: at });
  o.set({
    note:
      at === 'typed'
        ? 'claude was idle: the handoff request was typed into its prompt'
        : 'the session is writing its handoff document',
  });
  return at === 'typed' ? 'pass' : 'block-handoff';
}

// The cut is due at the next boundary; the first time says since when (a turn that never brings one is said).
function cutDue(o: Out, now: number): void {
  if (!o.s.cycle.pendingCut) o.cycle({ pendingCut: true, cutDueSince: now });
}

// Claude sits idle at its prompt with nothing typed and a cut is due: nobody will make a boundary, so type the
// request. Idle by the hooks and by the rows both: a turn whose prompt row is read and whose end row is not
// is under way (a prompt queued while a Stop hook ran): cut there, the writing turn would end with that turn's
// reply for its document.
export function cutIfIdle(o: Out, now: number): void {
  const c = o.s.cycle;
  if (canHandOff(o.s) && c.pendingCut && c.idle && !c.turnInRows && !c.typed) cut(o, now, 'typed');
}

// A reading of the main thread's context. The writing turn is exempt: it is written above the line by
// design, so no threshold logic runs.
export function reading(o: Out, context: number, now: number): void {
  const g = o.s.gen;
  if (!g) return;
  o.gen({ context, peak: Math.max(g.peak, context), readings: g.readings + 1 });
  if (o.s.cycle.phase !== 'working' || !o.s.settings.handoff) return;
  const p = o.s.policy;
  if (g.successor && g.readings === 0 && context >= p.at) {
    // Born above the line: handing off again would only breed another such session.
    // flower-pty lifts Claude Code's own refusal line while it blocks compaction; else Claude Code refuses at its own.
    const hard = o.s.settings.dialect.refusalLine(p.window, !o.s.settings.keepAutoCompact);
    const lifted = context + Math.max(5_000, Math.floor((hard - context) / 2));
    if (lifted >= hard) {
      o.cycle({ phase: 'stopped' });
      o.do({ type: 'end-child' });
      stop(o, EXIT.brake, now, brakeMessageOf(o.s, o.generation, o.generation - 1));
      return;
    }
    o.cycle({ line: lifted, bornHigh: true });
    o.emit('born-high', { generation: o.generation, context, line: lifted });
    o.set({ note: 'this session started above the line; its line was lifted' });
  }
  const crossed = crossing(o.s.cycle, context, p.warnAt);
  if (crossed.near) {
    o.cycle({ nearSent: true });
    o.emit('near', { generation: o.generation, context, warnAt: p.warnAt });
    o.set({ note: 'getting close to the handoff line' });
  }
  if (crossed.cut) cutDue(o, now);
  cutIfIdle(o, now);
}

/** what one reading means for a working generation: the first past `warnAt` is the "getting close"
 *  notice; any at or past the line marks the cut for the next boundary (replay asks the same) */
export function crossing(
  c: Pick<HandoffCycle, 'nearSent' | 'line'>,
  context: number,
  warnAt: number,
): { near: boolean; cut: boolean } {
  return { near: !c.nearSent && context >= warnAt, cut: context >= c.line };
}

// A main-thread tool call finished: the boundary a cut can use mid-turn.
export function toolBoundary(o: Out, now: number): Answer {
  if (canHandOff(o.s) && o.s.cycle.pendingCut) return cut(o, now, 'tool-boundary');
  return atBoundary(o, false);
}

// A turn ended (a Stop hook, or the transcript when hooks are missing). `via: 'transcript'`: no hook can
// carry an answer, so a cut is typed instead. The writing turn's text is its document.
export function turnEnded(o: Out, text: string, now: number, via: 'hook' | 'transcript'): Answer {
  o.gen({ turnEndAt: null });
  if (o.s.cycle.phase === 'writing') {
    writingTurnEnded(o, now, text);
    return 'pass';
  }
  o.cycle({ crashes: 0, idle: true, typed: false });
  if (canHandOff(o.s) && o.s.cycle.pendingCut) {
    // No hook to answer, or Claude Code would override one more block: type the request at the idle prompt.
    if (via === 'transcript' || capped(o.s)) {
      o.cycle({ stopBlocks: 0 });
      cutIfIdle(o, now);
      return 'pass';
    }
    return cut(o, now, 'turn-end');
  }
  return atBoundary(o, via === 'hook');
}

// The writing turn ended: its text is the document (null: it ended on an error, with none).
export function writingTurnEnded(o: Out, now: number, text: string | null): void {
  o.cycle({ crashes: 0, idle: true, typed: false, stopBlocks: 0 });
  const missing = text === null ? null : parseDocument(text).missing;
  const complete = text !== null && missing !== null && missing.length === 0;
  // The turn that answered the amendment request: whatever document there is now is frozen.
  if (amendedTurnEnded(o, now, complete ? text : null)) return;
  if (complete) {
    // Checked for what it leaves out before it is frozen (once a generation), or frozen as it is.
    if (checksCoverage(o.s)) return scoreFirst(o, now, text);
    retire(o, now, { text, degraded: false }, 'handoff');
    return;
  }
  const reason =
    missing !== null
      ? `the handoff document is incomplete: missing ${missing.join(', ')}`
      : 'the writing turn ended without a document';
  degrade(o, now, reason, text);
}

// An automatic compaction is a crossing flower-pty missed: block it and hand off at the next boundary.
export function preCompact(o: Out, trigger: 'auto' | 'manual' | 'other', now: number): Answer {
  const { phase } = o.s.cycle;
  if (
    trigger === 'auto' &&
    !o.s.settings.keepAutoCompact &&
    o.s.settings.handoff &&
    (phase === 'working' || phase === 'writing')
  ) {
    if (phase === 'working') cutDue(o, now);
    return 'block-compact';
  }
  return 'pass';
}

// The session can no longer run a turn: degrade at once (never a failed attempt). A turn that crossed the
// line and brought no boundary (no tool call's end, no turn end) before claude's own limit is said as
// such at once: the cause is the missing boundary, never the window.
export function overflowed(o: Out, now: number, text: string): void {
  const { phase, pendingCut, cutDueSince, line } = o.s.cycle;
  if ((phase !== 'working' && phase !== 'writing') || !o.s.settings.handoff) return;
  const reason = `overflow: ${text.slice(0, 200)}`;
  if (phase !== 'working' || !pendingCut || cutDueSince === null) return degrade(o, now, reason);
  const ms = now - cutDueSince;
  o.emit('no-boundary', { generation: o.generation, context: o.s.gen?.context ?? 0, line, ms });
  o.do({
    type: 'log',
    line:
      `the turn crossed the handoff line ${Math.round(ms / 1000)}s before claude's own limit and brought no boundary to cut it at ` +
      `(a tool call's end, a turn's end): the document is degraded`,
  });
  degrade(o, now, `${reason} (${NO_BOUNDARY}, ${Math.round(ms / 1000)}s after the line)`);
}

// A person (or the transcript check) asks for a handoff now: at the next boundary, or typed at once if claude is idle.
export function forceHandoff(o: Out, now: number): void {
  if (!canHandOff(o.s)) return;
  cutDue(o, now);
  cutIfIdle(o, now);
}

// The turn was interrupted (a person's "no" at a permission prompt, Esc): claude is back at its prompt
// with no Stop. A working turn's cut that is due is typed there at once.
export function interrupted(o: Out, now: number): void {
  if (o.s.cycle.phase !== 'working') return;
  o.cycle({ idle: true, typed: false, stopBlocks: 0 });
  cutIfIdle(o, now);
}

// A prompt went in (typed, pasted or positional): the session is busy again.
export function prompted(o: Out): void {
  o.cycle({ idle: false, typed: false, stopBlocks: 0 });
}

// A person typed into claude's prompt: never type over their draft.
export function typedAtPrompt(o: Out): void {
  const c = o.s.cycle;
  if (c.idle && !c.typed) o.cycle({ typed: true });
}
