// How a person types flower-pty from the folder they are in, for the commands flower-pty prints for them
// to copy (the demo's next steps). A global install puts `flower-pty` on the PATH; a checkout does not, and
// there `npx flower-pty` finds the checkout's own bin, but only inside the checkout; anywhere else the bin
// is named by its path. Pure.

import { shellWord } from './shell-word.js';

export interface OwnCommandFacts {
  /** `flower-pty` on the PATH is this very bin (a global install, `npm link`) */
  readonly onPath: boolean;
  /** the folder the person is in is inside the package that holds this bin (a checkout) */
  readonly insidePackage: boolean;
  /** this bin's absolute path */
  readonly bin: string;
}

/** the words that run this flower-pty, as typed where the person is */
export function ownCommand(f: OwnCommandFacts): string {
  if (f.onPath) return 'flower-pty';
  if (f.insidePackage) return 'npx flower-pty';
  return `node ${shellWord(f.bin)}`;
}
