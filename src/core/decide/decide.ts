// decide(): everything that happens to a run (a hook, a transcript signal, claude's exit, a file edit,
// an effect's result, a person's command, the clock) in; the new run and the effects to carry out, out.
// A small router: each event goes to its source (sources/: claude's hooks, its transcript, its life, a
// person's commands and edits), which hands it to the cycle's stages (stages/: handoff, freezing,
// generations) through what a turn is doing (turn/); then the clock's due rules run (clock.ts). Imports go
// one way: decide -> clock -> sources -> turn -> stages -> out. Every decision of a run lives in one of
// them, and the runtime only moves values.

import { runView } from '../run/run-view.js';
import type { RunInput, RunState } from '../run/run-state.js';
import { PASS } from '../run/hook-event.js';
import { nextWake, runDue } from './clock.js';
import { commanded, typed } from './sources/commands.js';
import { documentChanged, draftSaved } from './sources/edits.js';
import { documentWritten, factsGathered, writeResult } from './stages/freezing.js';
import { documentScored } from './stages/coverage-check.js';
import { childExited, seedRead, spawned, spawnFailed, start } from './sources/claude-life.js';
import { hookCalled } from './sources/hooks.js';
import { scopeChanged, toolRan, transcriptPresence, transcriptReset, transcriptSignal } from './sources/transcript.js';
import { Out, type Decision } from './out.js';

export type { Decision } from './out.js';

export function decide(state: RunState, event: RunInput): Decision {
  const o = new Out(state);
  if (state.finished) {
    if (event.type === 'hook') o.do({ type: 'reply', id: event.id, answer: PASS });
    return { state, effects: o.effects };
  }
  route(o, event);
  // Whatever the event, the clock's rules that are due now run after it (a tick is only the armed timer
  // saying a moment came; a document written or a claude gone can make a moment already past count).
  runDue(o, event.now);
  // A key that changed nothing in the run changes nothing a person sees, and brings no moment sooner: the
  // view and the wake-up stay as they are. Every key comes here, and the view would be rebuilt and
  // compared as text below while its echo waits behind it in the same event loop.
  if (event.type === 'typed' && o.s === state) return { state, effects: o.effects };
  // Every decision ends with the face's view (only when it changed) and the next wake-up.
  const view = runView(o.s, event.now);
  const key = JSON.stringify(view);
  if (!o.s.freezing && key !== o.s.lastView) {
    o.set({ lastView: key });
    o.do({ type: 'show', show: { t: 'status', view } });
  }
  const wake = nextWake(o.s, event.now);
  // A tick is the armed timer firing: it is spent. Node's timers can fire a little before their
  // moment (nodejs/node#26578), and the moment then asked for again must get a new timer.
  const armed = event.type === 'tick' ? null : o.s.wake;
  if (wake !== armed) {
    o.set({ wake });
    o.do({ type: 'wake-at', at: wake });
  }
  return { state: o.s, effects: o.effects };
}

function route(o: Out, e: RunInput): void {
  switch (e.type) {
    case 'start':
      return start(o);
    case 'spawned':
      return spawned(o, e);
    case 'spawn-failed':
      return spawnFailed(o, e);
    case 'child-exit':
      return childExited(o, e);
    case 'seed-read':
      return seedRead(o, e);
    case 'write-result':
      return writeResult(o, e);
    case 'facts-gathered':
      return factsGathered(o, e);
    case 'document-scored':
      return documentScored(o, e);
    case 'document-written':
      return documentWritten(o, e);
    case 'transcript':
      return transcriptSignal(o, e);
    case 'transcript-reset':
      return transcriptReset(o, e);
    case 'transcript-presence':
      return transcriptPresence(o, e);
    case 'scope':
      return scopeChanged(o, e);
    case 'tool-run':
      return toolRan(o, e);
    case 'hook':
      return hookCalled(o, e);
    case 'document-changed':
      return documentChanged(o, e);
    case 'draft-saved':
      return draftSaved(o, e);
    case 'typed':
      return typed(o, e);
    case 'command':
      return commanded(o, e);
    case 'tick':
      return;
  }
}
