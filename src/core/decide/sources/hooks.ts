// Hooks: claude's exact message boundaries and the trusted channel for the handoff request. Each call
// is answered (its stdout, a `reply`); the status line reports claude's real window and its limits;
// no hook at all means hooks are missing, and the transcript's turn ends stand in for them.

import { resolvePolicy } from '../../run/policy.js';
import { afterClear } from '../../document/session-scope.js';
import { statusLine } from '../../screen/status.js';
import { runView } from '../../run/run-view.js';
import { sameText } from '../../run/same-reply.js';
import { PASS, type HookAnswer, type HookEvent } from '../../run/hook-event.js';
import type { BoundaryWait, RunInput } from '../../run/run-state.js';
import {
  handoffConcerns,
  interrupted,
  overflowed,
  preCompact,
  prompted,
  toolBoundary,
  writingTurnEnded,
} from '../stages/handoff.js';
import { answerOf, turnEnd } from '../turn/boundaries.js';
import { park, resumeIfParked } from '../turn/parking.js';
import { clearWaiting, notified, permissionAsked } from '../turn/permission-waits.js';
import { followSession, humanPrompt, turnUnderWay } from '../turn/session.js';
import { iso, type Out } from '../out.js';
import { recordTranscript } from '../../lineage/manifest.js';

// The rows are worth looking for only where the transcript is being read and a handoff can concern the
// session (not with a lost transcript, not under --no-handoff).
function readsRows(o: Out): boolean {
  return handoffConcerns(o.s) && o.s.gen?.transcriptFound === true;
}

// Holding a hook for its row is worth it only where the row can change the answer: a tool call's row or a
// turn's last response can carry a crossing while the session works. Anywhere else it would only slow the
// session down by the wait (the writing turn's Stop is held for another reason: writingStop).
function waitsForRows(o: Out): boolean {
  return o.s.cycle.phase === 'working' && readsRows(o);
}

function holdFor(o: Out, id: number, now: number, awaits: BoundaryWait['awaits']): void {
  o.set({ boundaryWaits: [...o.s.boundaryWaits, { id, since: now, until: now + o.s.settings.stopWaitMs, awaits }] });
}

// Hooks that mean a turn is under way: its transcript must exist by now.
const TURN_HOOKS: ReadonlySet<HookEvent['kind']> = new Set([
  'prompt-submit',
  'pre-tool',
  'post-tool',
  'tool-denied',
  'stop',
]);

export function hookCalled(o: Out, e: Extract<RunInput, { type: 'hook' }>): void {
  const { id, hook, now } = e;
  const reply = (answer: HookAnswer = PASS) => o.do({ type: 'reply', id, answer });
  const g = o.s.gen;
  if (hook.kind === 'statusline') return reply({ kind: 'text', text: statusLineCalled(o, hook, now) });
  if (!g || g.ended) return reply();
  if (o.s.hooksMissing) {
    o.set({ hooksMissing: false, note: 'hooks are arriving again' });
    o.emit('hooks-back', { generation: g.n });
  }
  o.gen({ hooks: g.hooks + 1, turnEndAt: null });
  if (hook.kind === 'session-start') {
    if (hook.sessionId && hook.sessionId !== g.sessionId) {
      // /clear: a new id and a new file in the same process; follow it.
      o.emit('session-changed', { generation: g.n, from: g.sessionId, to: hook.sessionId, source: hook.source });
      o.gen({ scope: afterClear(g.scope) });
      o.gen({ sessionId: hook.sessionId, lastText: null });
      if (hook.transcriptPath) {
        o.gen({ transcriptPath: hook.transcriptPath });
        o.manifest(recordTranscript(o.s.manifest, hook.transcriptPath, iso(now)));
        o.do({ type: 'follow-transcript', path: hook.transcriptPath });
      }
    }
    followSession(o, hook.where, false, now);
    if (hook.sessionId) o.gen({ sessionSeen: true });
    return reply();
  }
  if (hook.sessionId !== null && hook.sessionId !== o.s.gen!.sessionId) return reply(); // a stale hook from a retired session
  followSession(o, hook.where, false, now);
  if (TURN_HOOKS.has(hook.kind)) turnUnderWay(o, now);
  switch (hook.kind) {
    case 'prompt-submit': {
      if (hook.prompt !== null) humanPrompt(o, hook.prompt);
      resumeIfParked(o, now);
      clearWaiting(o, ['permission', 'question', 'idle']);
      prompted(o);
      // The successor's first prompt (the positional one that names it): the document goes in as its context.
      const seed = o.s.seedContext;
      if (seed === null) return reply();
      o.set({ seedContext: null });
      o.emit('seed-delivered', { generation: g.n, via: 'hook', chars: seed.length });
      return reply({ kind: 'add-context', text: seed });
    }
    case 'pre-tool':
      return reply();
    case 'post-tool':
      // A failed call (`failed`) is a boundary like one that worked: a turn going round in failures is
      // cut at its first one past the line, as any other. An answered question ends its tool call as an
      // approval does.
      clearWaiting(o, ['permission', 'question', 'idle']);
      resumeIfParked(o, now);
      // A subagent's tool call is not the main thread's boundary: blocking it would hand the request to the subagent.
      // A call a person interrupted ends the turn: a request in this answer would be lost, so the cut waits
      // for the interrupt row, and is typed at the prompt it leaves.
      if (hook.subagent || hook.interrupted) return reply();
      // The hook can run before its call's row reaches the transcript (a hook client that starts in a
      // millisecond sees it every time): wait for the row (bounded), so a crossing made by the response
      // that called the tool is decided at this boundary, not at the next one.
      if (hook.toolUseId !== null && !g.toolUses.includes(hook.toolUseId) && waitsForRows(o)) {
        return holdFor(o, id, now, { kind: 'tool-use', toolUseId: hook.toolUseId });
      }
      return reply(answerOf(o, toolBoundary(o, now)));
    case 'tool-denied':
      // The call never ran and the turn goes on; the release reads no block from this hook, so a cut
      // due here is carried by the next boundary (the next call's end, or the turn's).
      clearWaiting(o, ['permission']);
      if (!hook.subagent)
        o.emit('tool-denied', { generation: g.n, tool: hook.tool, reason: hook.reason.slice(0, 300) });
      return reply();
    case 'permission-request':
      permissionAsked(o, hook);
      return reply();
    case 'notification':
      notified(o, hook, now);
      return reply();
    case 'pre-compact':
      return reply(answerOf(o, preCompact(o, hook.trigger, now)));
    case 'stop': {
      clearWaiting(o, ['permission', 'question']);
      resumeIfParked(o, now);
      const last = o.s.gen!.lastText;
      const unseen = hook.lastMessage.trim() !== '' && (last === null || !sameText(last, hook.lastMessage));
      if (o.s.cycle.phase === 'writing') return writingStop(o, id, hook, now, unseen);
      // The Stop hook can run before the turn's last response reaches the transcript: a working turn's is
      // waited for (bounded), so a crossing made by that response is decided at this boundary, not after it.
      if (unseen && waitsForRows(o)) return holdFor(o, id, now, { kind: 'reply', text: hook.lastMessage });
      return reply(turnEnd(o, hook.lastMessage, now, 'hook'));
    }
    case 'stop-failure':
      stopFailed(o, hook, now);
      return reply();
    default:
      return reply();
  }
}

// The writing turn's Stop carries the document, and any command claude runs can send a Stop of its own
// (it has the hook channel's token): its text is the document only when it comes from the session that was
// asked (its id, not a missing one) and, where the transcript is read, only once the transcript's own row
// of the model's reply says the same. A Stop whose row never comes decides nothing: the model's own Stop,
// the transcript's turn end or the writing deadline ends the turn.
function writingStop(
  o: Out,
  id: number,
  hook: Extract<HookEvent, { kind: 'stop' }>,
  now: number,
  unseen: boolean,
): void {
  const g = o.s.gen!;
  if (hook.sessionId !== g.sessionId) {
    o.emit('stop-refused', { generation: g.n, reason: 'not from the session asked for the document' });
    return o.do({ type: 'reply', id, answer: PASS });
  }
  if (unseen && readsRows(o)) return holdFor(o, id, now, { kind: 'reply', text: hook.lastMessage });
  o.do({ type: 'reply', id, answer: turnEnd(o, hook.lastMessage, now, 'hook') });
}

// A turn that ended on an API error: the prompt does not fit (degrade now), a usage limit (park), the
// writing turn is over without its document, or a working turn is over and claude idle at its prompt.
function stopFailed(o: Out, hook: Extract<HookEvent, { kind: 'stop-failure' }>, now: number): void {
  const details = `${hook.details} ${hook.lastMessage}`;
  o.emit('api-error', { generation: o.generation, error: hook.error, details: details.slice(0, 300) });
  if (hook.overflow) return overflowed(o, now, details.trim());
  // The transcript row, if it comes, says until when exactly.
  if (hook.usageLimit) return park(o, now, null, hook.usageLimit.autoContinues);
  if (o.s.cycle.phase === 'writing') return writingTurnEnded(o, now, null);
  // Any other error ends the turn with claude back at its prompt and no Stop: it is idle there, and a cut
  // that is due is typed at once, as after an interrupt.
  clearWaiting(o, ['permission', 'question']);
  interrupted(o, now);
}

// Claude Code reports its real window (and its usage limits) to the status line; an explicit --window still wins.
function statusLineCalled(o: Out, hook: Extract<HookEvent, { kind: 'statusline' }>, now: number): string {
  if (o.s.gen && (hook.sessionId === null || hook.sessionId === o.s.gen.sessionId))
    followSession(o, hook.where, true, now);
  const s = o.s;
  if (hook.windowSize !== null && s.settings.policy.window === undefined && hook.windowSize !== s.policy.window) {
    try {
      const policy = resolvePolicy({ ...s.settings.policy, reportedWindow: hook.windowSize });
      // The thresholds move with the window; a line lifted for a session born above it stays.
      o.set({ policy });
      if (!o.s.cycle.bornHigh) o.cycle({ line: policy.at });
      o.manifest({ ...o.s.manifest, window: policy.window, at: policy.at });
      o.emit('window', { window: policy.window, source: 'claude', at: policy.at, warnAt: policy.warnAt });
    } catch (error) {
      o.do({ type: 'log', line: `ignoring the reported window ${hook.windowSize}: ${String(error)}` });
    }
  }
  if (hook.rateLimitResetsAt !== null && o.s.waiting?.kind === 'parked' && o.s.waiting.until === null) {
    o.set({ waiting: { ...o.s.waiting, until: hook.rateLimitResetsAt * 1000 } });
  }
  return statusLine(runView(o.s, now));
}

// No hook came: hooks disabled by a policy, ignored by this release, or a broken hook command. Say so
// once, and from now on take the transcript's turn ends as the boundaries (the request gets typed).
// When: the clock's rules (clock.ts), after a silent start or a turn that ended with no Stop hook.
export function hooksMissing(o: Out, now: number, after: 'start' | 'turn'): void {
  const g = o.s.gen!;
  const already = o.s.manifest.errors.some((e) => e.reason.startsWith('no hook arrived'));
  o.set({ hooksMissing: true, note: "no hook from claude: handoffs are typed into claude's prompt when it is idle" });
  if (!already) {
    o.emit('hooks-missing', {
      generation: g.n,
      after:
        after === 'turn'
          ? 'a turn ended with no Stop hook'
          : `${Math.round((now - g.spawnedAt) / 1000)}s without any hook`,
    });
    o.do({
      type: 'log',
      line: 'no hook arrived from claude (disabled by a policy, or a broken hook command): falling back to typed requests at idle prompts',
    });
    o.alert('flower-pty: hooks missing', 'handoffs will be typed into the idle prompt');
  }
  // A turn already ended: it is the boundary the hooks did not bring.
  if (after === 'turn') turnEnd(o, g.lastText ?? '', now, 'transcript');
}
