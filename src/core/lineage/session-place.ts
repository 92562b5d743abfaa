// Where a session is, as Claude Code reports it, and so where its successor starts: the folder it
// works in (a git worktree once claude entered one, or `claude -w` made one), the permission mode the
// person left it in (shift+tab changes it mid-session), and the directories added to it. A compaction
// keeps all of this; a handoff must too. Read from hook payloads and the status line, never computed. Pure.

/**
 * Where the main thread's session says it is, as its hook payloads and status line report it: the
 * transcript it writes, its folder, its permission mode, its added directories. Claude Code moves a
 * session (into a worktree, say), so these are followed, never computed. null: not in this payload.
 */
export interface SessionWhere {
  transcriptPath: string | null;
  cwd: string | null;
  /** the status line's project folder (a worktree's once claude entered one) */
  projectDir: string | null;
  permissionMode: string | null;
  addedDirs: string[] | null;
}

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
export function placeAfter(
  place: SessionPlace,
  where: SessionWhere,
  o: { fromStatusLine: boolean; moved: boolean },
): SessionPlace {
  let next = place;
  const folder = o.fromStatusLine
    ? (where.projectDir ?? where.cwd)
    : place.folder === null || o.moved
      ? where.cwd
      : null;
  if (folder !== null && folder !== '' && folder !== next.folder) next = { ...next, folder };
  if (where.permissionMode !== null && where.permissionMode !== '' && where.permissionMode !== next.permissionMode)
    next = { ...next, permissionMode: where.permissionMode };
  if (where.addedDirs !== null && !sameList(where.addedDirs, next.addedDirs))
    next = { ...next, addedDirs: [...where.addedDirs] };
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

/**
 * What the person gave the run, which a successor's place never goes beyond: a hook message can be forged
 * by any command claude runs (each gets the hook channel's token), so what hooks and status lines say of the
 * place is only believed within this.
 */
export interface PlaceGrant {
  /** modes a successor may be started in: the launch's and those of fewer powers, and those claude's own
   *  transcript showed the session in (the bypass only if the person's own launch allowed it) */
  modes: readonly string[];
  /** folders a successor may start in or be given: the run's folder and the worktrees of its repository */
  folders: readonly string[];
  /** directories the person added themselves: their own flags, and their `/add-dir` in the transcript */
  dirs: readonly string[];
}

/** the place within the grant (paths compared as `real` makes them), and why anything was left out */
export function boundPlace(
  place: SessionPlace,
  grant: PlaceGrant,
  real: (path: string) => string,
): { place: SessionPlace; refused: string[] } {
  const folders = new Set(grant.folders.map(real));
  const dirs = new Set([...grant.dirs.map(real), ...folders]);
  const refused: string[] = [];
  let { folder, permissionMode } = place;
  if (folder !== null && !folders.has(real(folder))) {
    refused.push(
      `the session's folder ${folder} is neither the run's folder nor a worktree of its repository: the successor starts in the run's folder`,
    );
    folder = null;
  }
  if (permissionMode !== null && !grant.modes.includes(permissionMode)) {
    refused.push(
      `the permission mode ${permissionMode} is neither the person's own launch's ` +
        `(or one of fewer powers) nor one their session was in: the successor starts in the launch's mode`,
    );
    permissionMode = null;
  }
  const addedDirs = place.addedDirs.filter((dir) => dirs.has(real(dir)));
  const dropped = place.addedDirs.filter((dir) => !addedDirs.includes(dir));
  if (dropped.length > 0)
    refused.push(`directories the person did not add are not given to the successor: ${dropped.join(', ')}`);
  return { place: { folder, permissionMode, addedDirs }, refused };
}
