// A test's own folder under the system's temporary folder, removed when the test ends. tap runs teardowns
// last-registered first: made before the processes that write in it are started (and their ends
// registered), it goes after they have ended.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Teardown {
  teardown(fn: () => unknown): void;
}

/** a fresh folder named `prefix` + six characters, removed at `t`'s end (the root tap object: the file's) */
export function tempRoot(t: Teardown, prefix = 'flower-claude-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));
  return root;
}
