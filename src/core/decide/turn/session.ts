// What claude's session is doing, as both the hooks and the transcript tell it: a person's prompt (the
// lineage's first one kept), the session's place followed (its folder, mode and added directories, and its
// transcript when it moves), and a turn under way (so a transcript that never appears is noticed).

import { recordOriginalPrompt, recordPlace, recordTranscript } from '../../lineage/manifest.js';
import { placeAfter, placeChanges } from '../../lineage/session-place.js';
import type { SessionWhere } from '../../lineage/session-place.js';
import { iso, type Out } from '../out.js';

// A person's prompt (never the CLI's own, never ours): the lineage's first one is kept for its documents.
export function humanPrompt(o: Out, text: string): void {
  if (o.s.settings.dialect.isOwnPrompt(text) || text.startsWith('flower-pty: ')) return;
  if (o.s.firstPrompt === null) o.set({ firstPrompt: text });
  // On disk before anything after it (the handoff's start): a run killed then still has the prompt
  // its successor or a degraded document needs (a CI run killed right after 'writing' lost it).
  if (o.s.gen?.n === 1 && o.s.manifest.original_prompt === null)
    o.manifest(recordOriginalPrompt(o.s.manifest, text), true);
}

// Re-point the meter at the transcript the payload names (the whole file moved: the readings carry over),
// and keep where the session is for its successor. A status line only fills in the place of the transcript
// being followed: one built before a move can arrive after it, and must not move the meter back.
export function followSession(o: Out, where: SessionWhere | undefined, fromStatusLine: boolean, now: number): void {
  const g = o.s.gen;
  if (!g || g.ended || !where) return;
  const path = where.transcriptPath;
  if (fromStatusLine && path !== null && path !== g.transcriptPath) return;
  const moved = !fromStatusLine && path !== null && path !== '' && path !== g.transcriptPath;
  if (moved) {
    o.emit('transcript-moved', { generation: g.n, from: g.transcriptPath, to: path, cwd: where.cwd });
    o.gen({ transcriptPath: path, transcriptFound: null });
    o.manifest(recordTranscript(o.s.manifest, path, iso(now)));
    if (o.s.settings.handoff) o.do({ type: 'follow-transcript', path, carry: true });
  }
  const place = placeAfter(g.place, where, { fromStatusLine, moved });
  if (place === g.place) return;
  o.gen({ place });
  o.emit('session-place', {
    generation: g.n,
    folder: place.folder,
    permissionMode: place.permissionMode,
    addedDirs: [...place.addedDirs],
    changed: placeChanges(g.place, place),
  });
  o.manifest(
    recordPlace(
      o.s.manifest,
      { folder: place.folder, permission_mode: place.permissionMode, added_dirs: [...place.addedDirs] },
      iso(now),
    ),
  );
}

// A hook that means a turn is under way: its transcript must exist by now (the prompt's row comes first).
export function turnUnderWay(o: Out, now: number): void {
  const g = o.s.gen;
  if (!g || !o.s.settings.handoff || g.transcriptFound === true || g.transcriptMissingSince !== null) return;
  o.gen({ transcriptMissingSince: now });
}
