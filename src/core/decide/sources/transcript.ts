// The transcript: the meter's signals (a reading, a response's text, a prompt, an overflow, a usage
// limit, a turn's end), where the session's transcript is (moved by claude, or not to be found), and
// the session's own state. Claude Code moves a session (EnterWorktree, `claude -w`) and says so in
// every hook payload: the meter follows.

import { recordUsage } from '../../lineage/manifest.js';
import { applyScopeChanges } from '../../document/session-scope.js';
import { EMPTY_FAILURES, recordRun } from '../../dead-ends/failure-record.js';
import { repeatOf } from '../../dead-ends/dead-end-watch.js';
import { oneLine } from '../../one-line.js';
import type { RunInput } from '../../run/run-state.js';
import { MAX_SANE_TOKENS } from '../../meter/context-meter.js';
import { usage } from '../stages/freezing.js';
import { cutIfIdle, forceHandoff, interrupted, overflowed, prompted, reading } from '../stages/handoff.js';
import { sameText } from '../../run/same-reply.js';
import { settleWait, turnEnd } from '../turn/boundaries.js';
import { humanPrompt } from '../turn/session.js';
import { park } from '../turn/parking.js';
import { clearWaiting } from '../turn/permission-waits.js';
import type { Out } from '../out.js';

// Enough for the parallel calls of one response and the hooks still on their way for them.
const TOOL_USES_KEPT = 64;

export function transcriptSignal(o: Out, e: Extract<RunInput, { type: 'transcript' }>): void {
  const g = o.s.gen;
  // A retired claude's last rows say nothing of its successor.
  if (!g || g.ended || e.generation !== g.n) return;
  const signal = e.signal;
  switch (signal.kind) {
    case 'reading':
      o.gen({ costUsd: e.usage.costUsd, numTurns: e.usage.numTurns });
      reading(o, signal.context, e.now);
      o.manifest(recordUsage(o.s.manifest, usage(o.s.gen!, e.now)));
      return;
    case 'assistant-text':
      o.gen({ lastText: signal.text });
      // The turn's last response has landed: the Stop hook can be answered with it counted.
      for (const wait of o.s.boundaryWaits)
        if (wait.awaits.kind === 'reply' && sameText(signal.text, wait.awaits.text)) settleWait(o, wait, e.now, true);
      return;
    case 'tool-use':
      o.gen({ toolUses: [...g.toolUses, ...signal.ids].slice(-TOOL_USES_KEPT) });
      // The call's row has landed (its reading already counted): its PostToolUse hook can be answered.
      for (const wait of o.s.boundaryWaits)
        if (wait.awaits.kind === 'tool-use' && signal.ids.includes(wait.awaits.toolUseId))
          settleWait(o, wait, e.now, true);
      return;
    case 'overflow':
      o.emit('overflow', { generation: g.n, text: signal.text.slice(0, 300) });
      overflowed(o, e.now, signal.text);
      return;
    case 'user-prompt':
      o.cycle({ turnInRows: true });
      humanPrompt(o, signal.text);
      // Once hooks arrive, UserPromptSubmit has said so first, and this row can be read after its turn's
      // Stop (a tail that starts late on a loaded machine): it must not make an idle session busy again,
      // or a crossing read with it is never typed at the idle prompt (the run waited forever).
      if (g.hooks === 0 || o.s.hooksMissing) prompted(o);
      return;
    case 'session':
      if (signal.sessionId === g.sessionId) o.gen({ sessionSeen: true });
      return;
    case 'added-dir':
      if (!o.s.personDirs.includes(signal.dir)) o.set({ personDirs: [...o.s.personDirs, signal.dir] });
      return;
    case 'permission-mode':
      if (!o.s.personModes.includes(signal.mode)) o.set({ personModes: [...o.s.personModes, signal.mode] });
      return;
    case 'compaction':
      o.emit('compaction', { generation: g.n, preTokens: signal.preTokens, meter: signal.meterBefore });
      return;
    case 'usage-ignored':
      // A broken or hostile row moved nothing; the log says so once a run, not once a row.
      if (o.s.insaneUsageSaid) return;
      o.set({ insaneUsageSaid: true });
      o.do({
        type: 'log',
        line:
          `transcript line ${signal.line}: ${signal.field} ${String(signal.value)} is out of any sane range ` +
          `(a whole number from 0 to ${MAX_SANE_TOKENS}): that row was ignored, and any like it`,
      });
      return;
    case 'usage-limit':
      // The transcript's row is the exact word: until when, and whether the session goes on by itself.
      park(o, e.now, signal.resetsAtMs, signal.autoContinues);
      return;
    case 'interrupt':
      // A refused permission (or a question dismissed, or Esc) fires no hook: its only trace is this
      // interrupt row. It ends the turn with no Stop, and claude sits at its prompt: a cut due is typed now.
      clearWaiting(o, ['permission', 'question']);
      o.cycle({ turnInRows: false });
      interrupted(o, e.now);
      return;
    case 'turn-end':
      o.cycle({ turnInRows: false });
      if (o.s.hooksMissing) {
        turnEnd(o, o.s.gen?.lastText ?? '', e.now, 'transcript');
      } else {
        if (g.hooks === 0 || o.s.cycle.phase === 'writing') o.gen({ turnEndAt: e.now });
        // A cut that waited for the rows to say the turn is over (its Stop already answered) is typed now.
        cutIfIdle(o, e.now);
      }
      return;
    default:
      return;
  }
}

export function transcriptReset(o: Out, e: Extract<RunInput, { type: 'transcript-reset' }>): void {
  if (!o.s.gen || o.s.gen.n !== e.generation) return;
  o.emit('transcript-reset', { generation: o.s.gen.n, reason: e.reason });
  // The file is read again from its start: its failures are counted again from none.
  o.gen({ failures: EMPTY_FAILURES });
}

// A main-thread tool call and its result: a failure goes into the record; a successor's call that repeats
// a dead end of its document (or a failure listed to its writer) is told, never stopped.
export function toolRan(o: Out, e: Extract<RunInput, { type: 'tool-run' }>): void {
  const g = o.s.gen;
  if (!g || e.generation !== g.n) return;
  const failures = recordRun(g.failures, e.run);
  if (failures !== g.failures) o.gen({ failures });
  const hit = repeatOf(g.watch, e.run);
  if (hit === null) return;
  const call = oneLine(e.run.input, 200);
  o.gen({ repeats: g.repeats + 1 });
  o.emit('dead-end-repeated', {
    generation: g.n,
    tool: e.run.tool,
    call,
    deadEnd: hit.text,
    line: hit.line,
    ok: e.run.ok,
  });
  o.set({
    note: `repeated a dead end${hit.line === null ? '' : ` (document line ${hit.line})`}${e.run.ok ? ', and it worked this time' : ''}: ${call}`,
  });
}

export function scopeChanged(o: Out, e: Extract<RunInput, { type: 'scope' }>): void {
  if (o.s.gen && !o.s.gen.ended && o.s.gen.n === e.generation)
    o.gen({ scope: applyScopeChanges(o.s.gen.scope, e.changes) });
}

export function transcriptPresence(o: Out, e: Extract<RunInput, { type: 'transcript-presence' }>): void {
  const g = o.s.gen;
  if (!g || g.ended || e.generation !== g.n) return;
  o.gen({ transcriptFound: e.found, ...(e.found ? { transcriptMissingSince: null } : {}) });
  if (e.found && g.transcriptLost) o.emit('transcript-found', { generation: g.n, path: g.transcriptPath });
}

// A live session whose transcript cannot be found is not metered: rather than let it run into the wall
// (auto-compact is off), say so once and hand off at the next boundary, with the document its hooks carry.
// When: the clock's rule (clock.ts), transcriptLostAfterMs after a turn began with no transcript.
export function transcriptLost(o: Out, now: number): void {
  const g = o.s.gen!;
  o.gen({ transcriptLost: true });
  const after = Math.round((now - g.transcriptMissingSince!) / 1000);
  o.emit('transcript-lost', { generation: g.n, path: g.transcriptPath, after });
  o.do({
    type: 'log',
    line: `claude's transcript is not at ${g.transcriptPath} ${after}s into a turn: the context is not metered, so the session hands off at its next boundary`,
  });
  o.alert('flower-pty: transcript not found', 'the session hands off at its next boundary');
  o.set({
    note: "claude's transcript cannot be found, so its context is not metered: it hands off at the next boundary",
  });
  forceHandoff(o, now);
}
