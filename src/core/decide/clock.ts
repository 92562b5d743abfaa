// The clock: a Stop hook's wait that ran out, the hook and transcript checks, an API-key session's
// continue after its reset, the writing turn's deadline and the review's end.

import { cycleWaitsOnEvent } from '../run/run-view.js';
import { degrade } from './handoff.js';
import { startNext } from './generations.js';
import { checkHooks, settleWait } from './hooks.js';
import { continueAfterReset } from './parking.js';
import { checkTranscript } from './transcript.js';
import type { Out } from './out.js';

export function tick(o: Out, now: number): void {
  const s = o.s;
  if (s.finished) return;
  for (const wait of s.boundaryWaits) {
    if (now < wait.until) continue;
    // The row never showed up in time: decide from what the transcript holds.
    const row = wait.awaits.kind === 'reply' ? "the Stop hook's last response" : `the PostToolUse hook's tool call (${wait.awaits.toolUseId})`;
    o.do({ type: 'log', line: `${row} did not reach the transcript within ${o.s.settings.stopWaitMs} ms` });
    settleWait(o, wait, now, false);
  }
  checkHooks(o, now);
  checkTranscript(o, now);
  continueAfterReset(o, now);
  // The successor waits for the document on disk (and, after a move, for the old claude to be gone).
  if (cycleWaitsOnEvent(o.s)) return;
  deadlines(o, now);
}

// The cycle's own moments: a model that ignores the request must not stall the run; a frozen document
// waits for a person only so long.
function deadlines(o: Out, now: number): void {
  const c = o.s.cycle;
  const writeTimeoutMs = o.s.settings.writeTimeoutMs;
  if (c.phase === 'writing' && c.writingSince !== null && now - c.writingSince >= writeTimeoutMs) {
    return degrade(o, now, `no handoff document within ${Math.round(writeTimeoutMs / 1000)}s`);
  }
  if (c.phase === 'review' && !c.held && c.reviewUntil !== null && now >= c.reviewUntil) startNext(o, now);
}
