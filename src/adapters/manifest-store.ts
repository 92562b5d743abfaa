// manifest.json on disk: read once at start (for --continue and `status`), written atomically
// after every change so a kill at any moment leaves a whole file.

import { join } from 'node:path';
import { parseManifest, type Manifest } from '../core/lineage/manifest.js';
import { writeFileAtomic, removeStaleTemps } from './atomic-file.js';
import { openOwnFile } from './private-dir.js';
import { ownCommandHere } from './own-command-here.js';
import { NotYours } from '../core/errors.js';

export function manifestPath(workbench: string): string {
  return join(workbench, 'manifest.json');
}

/**
 * The manifest through the one validation (core/lineage/manifest-check.ts). `missing`: there is none (nothing
 * to continue); otherwise `problem` names the bad field and `malformed` is the whole one-line reason.
 */
export async function readManifest(
  workbench: string,
): Promise<{ manifest: Manifest | null; problem: string | null; missing: boolean; malformed: string | null }> {
  const path = manifestPath(workbench);
  let text: string;
  try {
    // the lineage steers a successor: another user's manifest, or one others can write, is not read
    const handle = await openOwnFile(path, `${ownCommandHere(process.env, process.cwd())} --continue`);
    if (!handle) return { manifest: null, problem: `no manifest at ${path}`, missing: true, malformed: null };
    try {
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof NotYours)
      return { manifest: null, problem: error.message, missing: false, malformed: error.message };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return { manifest: null, problem: `no manifest at ${path}`, missing: true, malformed: null };
    const problem = `the manifest cannot be read (${code ?? String(error)})`;
    return { manifest: null, problem, missing: false, malformed: `${path}: ${problem}` };
  }
  const { manifest, problem } = parseManifest(text);
  return {
    manifest,
    problem,
    missing: false,
    malformed:
      problem === null ? null : `the manifest ${path} is malformed: ${problem}; fix that field or move the file away`,
  };
}

// Writes are serialised: the newest state always lands last. Each write resolves with its failure in the
// system's words (null once on disk), so the run can say at once that the lineage is not being saved.
export function createManifestWriter(
  workbench: string,
  onError: (error: unknown) => void,
): { write(m: Manifest): Promise<string | null>; flush(): Promise<string | null> } {
  // First, what a killed predecessor may have left half-written beside the manifest.
  let chain: Promise<string | null> = removeStaleTemps(workbench).then(
    () => null,
    (error: unknown) => (onError(error), null),
  );
  return {
    write(m) {
      const text = JSON.stringify(m, null, 2) + '\n';
      chain = chain
        .then(() => writeFileAtomic(manifestPath(workbench), text, workbench))
        .then(
          () => null,
          (error: unknown) => {
            onError(error);
            return errorWords(error);
          },
        );
      return chain;
    },
    flush() {
      return chain;
    },
  };
}

// "ENOSPC: no space left on device, write": Node's own message, without the "Error: " of String().
export function errorWords(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
