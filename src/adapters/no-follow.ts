// Writing inside a project without following a symbolic link: a cloned repository can ship
// `.flower/notes/archive/交接` or the events file its config names as a link pointing anywhere, and a
// write through it lands outside the project. Every component below the folder the run owns (the
// workbench, or the project for a file its config names) is looked at with lstat, the deepest existing
// folder's real path must still be inside that folder's, and the file itself is opened with O_NOFOLLOW.

import { constants, lstatSync, realpathSync } from 'node:fs';
import { dirname, relative, isAbsolute, join, sep } from 'node:path';
import { FlowerError } from '../core/errors.js';

/** open(2) flag: the last component is never followed (ELOOP on a link) */
export const NO_FOLLOW = constants.O_NOFOLLOW;

/** `path` lies under `root` (lexically) */
export function isBelow(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

const linkLine = (link: string, what: string): string =>
  `${link} is a symbolic link: flower-pty does not write ${what} through a link inside the project ` +
  `(a cloned repository can ship one pointing anywhere); remove the link`;

/** the first component of `path` below `root` that is a symbolic link, or null (missing components end the walk) */
export function linkOnTheWay(root: string, path: string): string | null {
  if (!isBelow(root, path)) return null;
  let at = root;
  for (const part of relative(root, path).split(sep)) {
    at = join(at, part);
    try {
      if (lstatSync(at).isSymbolicLink()) return at;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Throws a one-line usage error (exit 2) when any component of `path` below `root` is a link, or when the
 * deepest existing folder on its way is, by its real path, no longer inside `root`'s.
 */
export function refuseLinks(root: string, path: string, what: string): void {
  const link = linkOnTheWay(root, path);
  if (link !== null) throw new FlowerError(linkLine(link, what));
  let dir = dirname(path);
  for (;;) {
    try {
      const real = realpathSync(dir);
      const realRoot = realpathSync(root);
      if (real !== realRoot && !isBelow(realRoot, real))
        throw new FlowerError(
          `${dir} is, by its real path ${real}, outside ${root}: flower-pty does not write ${what} there; remove whatever links it elsewhere`,
        );
      return;
    } catch (error) {
      if (error instanceof FlowerError) throw error;
      if (dir === root || dirname(dir) === dir) return;
      dir = dirname(dir);
    }
  }
}
