// The lineage's manifest written for each `save-manifest` effect. Every write answers; the run hears only
// the changes (failing, written again), not each one, as a `write-result` event. At the run's end the
// last write is waited for, and a lineage left unsaved changes how the run ends.

import type { Manifest } from '../core/lineage/manifest.js';
import { EXIT } from '../core/errors.js';
import { lineageUnsaved } from '../core/run/write-trouble.js';
import type { RunInput } from '../core/run/run-state.js';
import type { LineagePort } from './ports.js';

/** a function that writes a manifest and resolves once its answer is heard */
export function manifestWrites(o: {
  lineage: LineagePort;
  post: (event: RunInput) => void;
  now: () => number;
}): (manifest: Manifest) => Promise<void> {
  let manifestError: string | null = null;
  function manifestWritten(error: string | null): void {
    if (error === manifestError) return;
    manifestError = error;
    o.post({ type: 'write-result', now: o.now(), what: 'manifest', path: o.lineage.path ?? '', error });
  }
  return (manifest) => o.lineage.write(manifest).then((error) => manifestWritten(error));
}

// A lineage that could not be saved is not a clean end: --continue would start from an older state.
export async function endSaved(
  lineage: LineagePort,
  result: { exitCode: number; message?: string },
): Promise<{ exitCode: number; message?: string }> {
  const unsaved = await lineage.flush();
  return lineageUnsaved(result, unsaved, lineage.path, EXIT.writeFailed);
}
