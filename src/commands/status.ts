// `flower-pty status`: the lineage recorded in a workbench's manifest, in words or as JSON.

import { readManifest } from '../adapters/manifest-store.js';
import { describeManifest } from '../core/manifest.js';
import { FlowerError } from '../errors.js';
import { resolve } from 'node:path';

export async function runStatus(opts: { workbench: string; json: boolean; out: (line: string) => void }): Promise<number> {
  const workbench = resolve(opts.workbench);
  const { manifest, problem } = await readManifest(workbench);
  if (!manifest) throw new FlowerError(`${problem}: run flower-pty first, or point --workbench at the run's folder`);
  if (opts.json) opts.out(JSON.stringify(manifest));
  else for (const line of describeManifest(manifest)) opts.out(line);
  return 0;
}
