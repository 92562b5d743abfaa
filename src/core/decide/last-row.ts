// The writing turn's own row. Claude Code runs the Stop hook before it writes the turn's last response
// to the transcript (about 120 ms before, on 2.1.332). That response is the handoff document, and the hook's
// payload already carries it whole, so the freeze and the successor go on at once. Only the bookkeeping
// waits for the row, because the row carries the writing turn's reading: the manifest's context for the
// generation and the `done` event get it when it lands (or, after `stopWaitMs`, the reading known by then).
// The row can land after the successor started: the retired claude's tail is read until that claude is gone.

import { recordUsageOf } from '../manifest.js';
import type { RunEventFields } from '../run-events.js';
import type { LastRow, RunEvent } from '../run-state.js';
import { sameText } from '../same-reply.js';
import { iso, type Out } from './out.js';

type DoneFields = NonNullable<LastRow['done']>;

// The table's field types do not survive Omit as TypeScript sees them; the fields are the same.
const withContext = (fields: DoneFields, context: number) => ({ ...fields, context }) as RunEventFields<'done'>;

/** the writing turn's Stop came before its row: the row is looked for while the run goes on */
export function awaitLastRow(o: Out, text: string, now: number): void {
  const g = o.s.gen;
  if (!g) return;
  o.set({
    lastRow: {
      generation: g.n, text, since: now, until: now + o.s.settings.stopWaitMs,
      usage: { context: g.context, costUsd: g.costUsd, numTurns: g.numTurns }, done: null,
    },
  });
}

/** the document is frozen: `done` goes out now, or with the writing turn's reading once it is in */
export function frozenDone(o: Out, fields: DoneFields, context: number): void {
  const row = o.s.lastRow;
  if (row && row.generation === fields.generation) {
    o.set({ lastRow: { ...row, done: fields } });
    return;
  }
  o.emit('done', withContext(fields, context));
}

/** a row of the generation whose last row is due (whether it is still the run's or already retired) */
export function lastRowSignal(o: Out, e: Extract<RunEvent, { type: 'transcript' }>): void {
  const row = o.s.lastRow;
  if (!row || row.generation !== e.generation) return;
  const signal = e.signal;
  if (signal.kind === 'reading') {
    const usage = { context: signal.context, costUsd: e.usage.costUsd, numTurns: e.usage.numTurns };
    o.set({ lastRow: { ...row, usage } });
  } else if (signal.kind === 'assistant-text' && sameText(signal.text, row.text)) {
    settleLastRow(o, e.now, true);
  }
}

/** the row landed, or its time ran out (the reading known by then stands), or the run ends */
export function settleLastRow(o: Out, now: number, landed: boolean): void {
  const row = o.s.lastRow;
  if (!row) return;
  o.set({ lastRow: null });
  const { context, costUsd, numTurns } = row.usage;
  o.emit('last-row', { generation: row.generation, ms: now - row.since, landed, context });
  if (!landed) o.do({ type: 'log', line: `the writing turn's last response was not in the transcript ${now - row.since} ms after its Stop hook: generation ${row.generation} keeps the reading before it` });
  // Already closed in the manifest (the freeze does not wait): its record gets the reading by number.
  o.manifest(recordUsageOf(o.s.manifest, row.generation, { context, ...(costUsd !== null ? { costUsd } : {}), numTurns, now: iso(now) }));
  if (row.done) o.emit('done', withContext(row.done, context));
}

/** the moment the row is given up on */
export function lastRowDue(o: Out, now: number): void {
  const row = o.s.lastRow;
  if (row && now >= row.until) settleLastRow(o, now, false);
}
