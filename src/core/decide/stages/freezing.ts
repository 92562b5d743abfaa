// A freeze: the facts flower-pty knows for certain are gathered, the document is written, the manifest
// closes the generation and the review opens. A write that fails is said at once, and the document is
// written once more before a successor is told about a file that is not there.

import { endGeneration, recordUsage } from '../../lineage/manifest.js';
import { documentToFreeze } from '../../lineage/handoff-lineage.js';
import { parseDocument } from '../../document/handoff-parse.js';
import { troubleFields, troubleText, type WriteTrouble } from '../../run/write-trouble.js';
import type { GenerationFacts, RunInput } from '../../run/run-state.js';
import { originalPrompt, seed } from './generations.js';
import { iso, type Out } from '../out.js';

// The generation's usage as the manifest records it.
export function usage(
  g: GenerationFacts,
  now: number,
): { context: number; costUsd?: number; numTurns: number; now: string } {
  return {
    context: g.context,
    ...(g.costUsd !== null ? { costUsd: g.costUsd } : {}),
    numTurns: g.numTurns,
    now: iso(now),
  };
}

// ---- the way out of a generation

// Freeze, retire the child, and open the review window. Every path out of a generation goes here.
// `endChild` false: claude is already gone (it crashed).
export function retire(
  o: Out,
  now: number,
  given: { text: string | null; degraded: boolean; reason?: string },
  end: string,
  endChild = true,
): void {
  const doc = checkedDocument(o, given);
  o.cycle({
    phase: 'review',
    pendingCut: false,
    cutDueSince: null,
    writingSince: null,
    reviewUntil: now + o.s.settings.reviewMs,
  });
  startFreeze(o, { generation: o.generation, ...doc });
  o.emit('generation-end', { generation: o.generation, peak: o.s.gen?.peak ?? 0, reason: end });
  if (endChild) o.do({ type: 'end-child' });
}

// The coverage check at the freeze (coverage-check.ts) ends here whatever ends the generation: a session
// that crashed, overflowed or ran out of time while asked to amend its document leaves its first document,
// complete, which is frozen as it is; a degraded document is never checked, and that is said.
function checkedDocument(
  o: Out,
  doc: { text: string | null; degraded: boolean; reason?: string },
): { text: string | null; degraded: boolean; reason?: string } {
  const check = o.s.coverage;
  const g = o.generation;
  if (check !== null && check.generation === g && check.stage !== 'done') {
    o.set({ coverage: { ...check, stage: 'done' } });
    if (!doc.degraded) return doc;
    o.emit('coverage-skipped', {
      generation: g,
      reason: `the amendment did not come (${doc.reason ?? 'no document'}): the first document is frozen`,
    });
    return { text: check.first, degraded: false };
  }
  if (doc.degraded && o.s.settings.coverageCheck > 0 && o.s.settings.handoff) {
    const reason = 'a degraded document is not checked for what it leaves out';
    o.set({
      coverage: {
        generation: g,
        stage: 'done',
        since: 0,
        first: doc.text ?? '',
        amendedText: null,
        score: null,
        below: [],
        amended: false,
        skipped: reason,
      },
    });
    o.emit('coverage-skipped', { generation: g, reason });
  }
  return doc;
}

// A degraded document's note says the check at the freeze did not look at it.
function uncheckedNote(o: Out, generation: number): string {
  const c = o.s.coverage;
  return c !== null && c.generation === generation && c.skipped !== null ? ` (${c.skipped})` : '';
}

export function degrade(o: Out, now: number, reason: string, text: string | null = null, endChild = true): void {
  retire(o, now, { text, degraded: true, reason }, 'degraded', endChild);
}

// A freeze first gathers what flower-pty knows for certain (the Scene's facts), then writes.
export function startFreeze(
  o: Out,
  f: { generation: number; text: string | null; degraded: boolean; reason?: string },
): void {
  o.set({
    freezing: true,
    pendingFreeze: {
      generation: f.generation,
      modelText: f.text,
      text: null,
      degraded: f.degraded,
      reason: f.reason ?? null,
    },
  });
  o.do({ type: 'gather-facts', generation: f.generation, folder: o.s.gen?.place.folder ?? null });
}

export function factsGathered(o: Out, e: Extract<RunInput, { type: 'facts-gathered' }>): void {
  const pending = o.s.pendingFreeze;
  if (!pending || pending.generation !== e.generation || pending.text !== null) return;
  const { text, check } = documentToFreeze({
    text: pending.modelText,
    degraded: pending.degraded,
    ...(pending.reason ? { reason: pending.reason } : {}),
    seededText: o.s.seededText,
    originalPrompt: originalPrompt(o.s),
    step: o.s.settings.step,
    facts: { transcriptPath: o.s.gen?.transcriptPath ?? null, git: e.git, scope: o.s.gen?.scope ?? null },
    ...(o.s.gen ? { failures: o.s.gen.failures } : {}),
  });
  o.set({
    pendingFreeze: { ...pending, text },
    carried: o.s.gen?.scope ?? null,
    forgotten: check.byFacts > 0 && !pending.degraded ? check.byFacts : null,
  });
  // A session with no failure has nothing to check (the report reads no event as none).
  if (check.seen > 0) o.emit('dead-ends-checked', { generation: e.generation, ...check, degraded: pending.degraded });
  o.do({ type: 'write-document', generation: e.generation, text });
}

export function documentWritten(o: Out, e: Extract<RunInput, { type: 'document-written' }>): void {
  if (o.s.rewriting !== null && o.s.rewriting === e.generation) return rewritten(o, e);
  const pending = o.s.pendingFreeze;
  if (!pending || pending.generation !== e.generation || pending.text === null) return;
  const failed: WriteTrouble | null = e.error
    ? { what: 'document', path: o.s.settings.documentPath ?? '(no path)', reason: e.error }
    : null;
  if (failed) writeFailed(o, failed);
  if (e.archived) o.emit('archived', { path: e.archived });
  const doc = parseDocument(pending.text).doc;
  const g = o.s.gen;
  const used = g ? recordUsage(o.s.manifest, usage(g, e.now)) : o.s.manifest;
  o.manifest(
    endGeneration(used, {
      end: g?.crashed ? 'crash' : pending.degraded ? 'degraded' : 'handoff',
      now: iso(e.now),
      handoffPath: e.path,
      degraded: pending.degraded,
      ...(pending.reason
        ? { reason: pending.reason }
        : failed
          ? { reason: `the handoff document could not be written: ${failed.reason}` }
          : {}),
    }),
    true,
  );
  const sections = Object.entries(doc)
    .filter(([, body]) => body.trim() !== '')
    .map(([key]) => key);
  // With the writing turn's reading: its row is in (the Stop that ended the turn waited for it).
  const done = {
    generation: e.generation,
    window: o.s.policy.window,
    degraded: pending.degraded,
    ...(pending.reason ? { reason: pending.reason } : {}),
    path: e.path,
    ...(failed ? { written: false } : {}),
    sections,
  };
  o.emit('done', { ...done, context: g?.context ?? 0 });
  o.set({
    frozen: { text: pending.text, doc, generation: e.generation, path: e.path },
    kept: pending.text,
    freezing: false,
    // Never "written" when it was not: the note says where the document is.
    note: failed
      ? troubleText(failed)
      : pending.degraded
        ? `degraded handoff: ${pending.reason}${uncheckedNote(o, e.generation)}`
        : `handoff written${e.path ? ` to ${e.path}` : ''}`,
    pendingFreeze: null,
  });
  if (!failed)
    o.alert(
      pending.degraded ? 'flower-pty: degraded handoff' : 'flower-pty: handoff done',
      pending.degraded ? (pending.reason ?? '') : (e.path ?? 'document ready'),
    );
  o.emit(pending.degraded ? 'degraded' : 'review', {
    generation: e.generation,
    path: e.path,
    ...(pending.reason ? { reason: pending.reason } : {}),
  });
  o.do({
    type: 'show',
    show: { t: 'document', path: e.path ?? o.s.settings.documentPath ?? '', text: pending.text },
  });
  // With no review window (or an expired one) the successor may start now: the clock's rules run after
  // every event (decide.ts), this one too.
}

// ---- writes that fail: said at once, on screen and in the events; a document is never lost to one

export function writeFailed(o: Out, t: WriteTrouble): void {
  const line = troubleText(t);
  o.do({ type: 'log', line });
  o.emit('write-failed', troubleFields(t));
  o.set({ trouble: t, note: line });
  o.alert('flower-pty: could not write a file', line);
}

export function writeRecovered(o: Out, what: WriteTrouble['what'], path: string): void {
  o.emit('write-recovered', { what, path });
  if (o.s.trouble) o.set({ trouble: null, note: `${path} is written again` });
}

export function writeResult(o: Out, e: Extract<RunInput, { type: 'write-result' }>): void {
  if (e.error === null) return writeRecovered(o, e.what, e.path);
  writeFailed(o, { what: e.what, path: e.path, reason: e.error });
}

// The successor is about to start and the frozen document never reached the disk: one more try (a
// person may have freed space during the review), so the path it is told about exists.
export function rewriteBeforeSeed(o: Out, e: Extract<RunInput, { type: 'seed-read' }>): boolean {
  const f = o.s.frozen;
  if (
    e.onDisk !== null ||
    !f ||
    f.path !== null ||
    o.s.kept === null ||
    !o.s.settings.documentPath ||
    o.s.rewriting !== null
  )
    return false;
  o.set({ rewriting: e.generation });
  o.do({ type: 'write-document', generation: e.generation, text: o.s.kept });
  return true;
}

function rewritten(o: Out, e: Extract<RunInput, { type: 'document-written' }>): void {
  const f = o.s.frozen;
  o.set({ rewriting: null });
  if (e.error) {
    writeFailed(o, { what: 'document', path: o.s.settings.documentPath ?? '(no path)', reason: e.error });
  } else {
    if (f) o.set({ frozen: { ...f, path: e.path } });
    writeRecovered(o, 'document', e.path ?? '');
  }
  seed(o, e.generation, e.error ? null : o.s.kept);
}
