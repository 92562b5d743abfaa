// Where a session is, as Claude Code reports it, and so where its successor starts: the folder it
// works in (a git worktree once claude entered one, or `claude -w` made one), the permission mode the
// person left it in (shift+tab changes it mid-session), and the directories added to it. A compaction
// keeps all of this; a handoff must too. Read from hook payloads and the status line, never computed. Pure.

import type { SessionWhere } from './hook-event.js';

export interface SessionPlace {
  /** the folder the successor starts in (null: the run's own folder) */
  folder: string | null;
  permissionMode: string | null;
  addedDirs: readonly string[];
}

export const NO_PLACE: SessionPlace = { folder: null, permissionMode: null, addedDirs: [] };

// The status line's project folder is the session's folder: a worktree's once claude moved there, and the
// launch folder however far a Bash `cd` wandered. A hook only has `cwd`, which follows those `cd`s too, so
// it names the folder only the first time, or when the session moved (its transcript moved with it: the
// PostToolUse of EnterWorktree comes before any status line in the new folder).
export function placeAfter(place: SessionPlace, where: SessionWhere, o: { fromStatusLine: boolean; moved: boolean }): SessionPlace {
  let next = place;
  const folder = o.fromStatusLine ? (where.projectDir ?? where.cwd) : place.folder === null || o.moved ? where.cwd : null;
  if (folder !== null && folder !== '' && folder !== next.folder) next = { ...next, folder };
  if (where.permissionMode !== null && where.permissionMode !== '' && where.permissionMode !== next.permissionMode) next = { ...next, permissionMode: where.permissionMode };
  if (where.addedDirs !== null && !sameList(where.addedDirs, next.addedDirs)) next = { ...next, addedDirs: [...where.addedDirs] };
  return next;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** which of the three changed between two places, for the events */
export function placeChanges(before: SessionPlace, after: SessionPlace): string[] {
  const changed: string[] = [];
  if (before.folder !== after.folder) changed.push('folder');
  if (before.permissionMode !== after.permissionMode) changed.push('permissionMode');
  if (!sameList(before.addedDirs, after.addedDirs)) changed.push('addedDirs');
  return changed;
}
