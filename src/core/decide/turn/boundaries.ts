// A turn's boundary as the hook waiting on it hears it: the cycle's answer in the run's own words (the
// handoff request, a person's edit note, a blocked compaction), and a hook held for its transcript row
// answered once the row landed or its time ran out. Shared by the hook and transcript sources.

import { PASS, type HookAnswer } from '../../run/hook-event.js';
import type { BoundaryWait } from '../../run/run-state.js';
import { handoffRequestOf, toolBoundary, turnEnded, type Answer } from '../stages/handoff.js';
import type { Out } from '../out.js';

// The hook's answer for the cycle's: what claude reads next, in the run's own words.
export function answerOf(o: Out, answer: Answer): HookAnswer {
  switch (answer) {
    case 'block-handoff':
      return { kind: 'block', reason: handoffRequestOf(o.s) };
    case 'block-note': {
      const reason = o.s.pendingEditNote;
      if (!reason) return PASS;
      o.set({ pendingEditNote: null });
      o.emit('edit-sent', { generation: o.generation });
      return { kind: 'block', reason };
    }
    case 'block-compact':
      o.emit('compaction-blocked', { generation: o.generation, context: o.s.gen?.context ?? 0 });
      o.set({ note: 'an automatic compaction was blocked: the session hands off instead' });
      return {
        kind: 'block',
        reason: 'flower-pty hands this session off with a handoff document instead of compacting it.',
      };
    case 'pass':
      return PASS;
  }
}

// A turn ended (a Stop hook, or the transcript when hooks are missing): the hook's answer, if one can carry it.
export function turnEnd(o: Out, text: string, now: number, via: 'hook' | 'transcript'): HookAnswer {
  return answerOf(o, turnEnded(o, text, now, via));
}

/** a held hook's row reached the transcript (`landed`), or its time ran out: it is answered now */
export function settleWait(o: Out, wait: BoundaryWait, now: number, landed: boolean): void {
  o.set({ boundaryWaits: o.s.boundaryWaits.filter((w) => w !== wait) });
  const fields = { generation: o.generation, ms: now - wait.since, landed };
  if (wait.awaits.kind === 'reply') {
    o.emit('stop-waited', fields);
    if (!landed && o.s.cycle.phase === 'writing') {
      o.emit('stop-refused', { generation: o.generation, reason: 'its text never reached the transcript' });
      return o.do({ type: 'reply', id: wait.id, answer: PASS });
    }
    o.do({ type: 'reply', id: wait.id, answer: turnEnd(o, wait.awaits.text, now, 'hook') });
  } else {
    o.emit('tool-waited', fields);
    o.do({ type: 'reply', id: wait.id, answer: answerOf(o, toolBoundary(o, now)) });
  }
}
