// manifest.json on disk: read once at start (for --continue and `status`), written atomically
// after every change so a kill at any moment leaves a whole file.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseManifest, type Manifest } from '../core/manifest.js';
import { writeFileAtomic, removeStaleTemps } from './atomic-file.js';

export function manifestPath(workbench: string): string {
  return join(workbench, 'manifest.json');
}

export async function readManifest(workbench: string): Promise<{ manifest: Manifest | null; problem: string | null }> {
  let text: string;
  try {
    text = await readFile(manifestPath(workbench), 'utf8');
  } catch {
    return { manifest: null, problem: `no manifest at ${manifestPath(workbench)}` };
  }
  return parseManifest(text);
}

// Writes are serialised: the newest state always lands last.
export function createManifestWriter(
  workbench: string,
  onError: (error: unknown) => void,
): { write(m: Manifest): Promise<void>; flush(): Promise<void> } {
  // First, what a killed predecessor may have left half-written beside the manifest.
  let chain: Promise<void> = removeStaleTemps(workbench).then(() => undefined, onError);
  return {
    write(m) {
      const text = JSON.stringify(m, null, 2) + '\n';
      chain = chain.then(() => writeFileAtomic(manifestPath(workbench), text)).catch(onError);
      return chain;
    },
    flush() {
      return chain;
    },
  };
}
