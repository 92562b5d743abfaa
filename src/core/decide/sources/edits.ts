// The document on disk: a person may edit it at any time. During the review an edit keeps the review
// open until the file is quiet; after the successor read it, the change reaches the successor as a note
// at its next boundary; the model's draft is kept beside a changed document.

import { recordHumanEdit } from '../../lineage/manifest.js';
import { editNote } from '../../lineage/handoff-lineage.js';
import { parseDocument } from '../../document/handoff-parse.js';
import type { RunInput } from '../../run/run-state.js';
import { iso, type Out } from '../out.js';

export function documentChanged(o: Out, e: Extract<RunInput, { type: 'document-changed' }>): void {
  const { text, now } = e;
  const s = o.s;
  const path = s.settings.documentPath;
  if (!path) return;
  o.do({ type: 'show', show: { t: 'document', path, text } });
  if (text === null) {
    o.emit('document-removed', { path, phase: s.cycle.phase });
    o.set({ note: 'the document was removed; the successor will get the copy flower-pty kept' });
    return;
  }
  if (s.frozen && text === s.frozen.text && s.cycle.phase === 'review') return; // our own freeze
  const parsed = parseDocument(text);
  if (parsed.missing.length > 0) {
    o.emit('document-problem', { path, missing: parsed.missing });
    o.set({
      note: `the edited document lacks ${parsed.missing.join(', ')}: the successor gets what parses and a note`,
    });
  } else {
    o.set({ note: 'the document was edited' });
  }
  const successor = s.gen?.successor === true;
  if (s.cycle.phase === 'working' && successor && s.seededText !== null && text !== s.seededText) {
    const edit = editNote(path, s.seededText, text);
    if (!edit) return;
    o.set({ pendingEditNote: edit.note, seededText: text });
    o.emit('edit-pending', { generation: o.generation, changed: edit.changed });
    if (s.frozen)
      o.manifest(
        recordHumanEdit(o.s.manifest, s.frozen.generation, {
          changedSections: edit.changed,
          draftPath: null,
          now: iso(now),
        }),
      );
  }
  humanEdit(o, now);
}

// What an edit means for the cycle: a longer review, or a note for the successor.
function humanEdit(o: Out, now: number): void {
  const c = o.s.cycle;
  if (c.phase === 'review' && c.reviewUntil !== null) {
    o.cycle({ reviewUntil: Math.max(c.reviewUntil, now + o.s.settings.quietMs) });
    return;
  }
  // The successor already read the file: the change reaches it as a note at its next boundary.
  if (c.phase === 'working' && o.s.gen?.successor === true) o.cycle({ pendingNote: true });
}

export function draftSaved(o: Out, e: Extract<RunInput, { type: 'draft-saved' }>): void {
  o.manifest(
    recordHumanEdit(o.s.manifest, e.generation, { changedSections: e.changed, draftPath: e.path, now: iso(e.now) }),
  );
  o.emit('human-edit', { generation: e.generation, changed: e.changed, draft: e.path });
}
