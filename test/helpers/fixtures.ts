// Where the shared real transcripts live: `../shared/fixtures` beside the repository (the layout
// of this workplace), or FLOWER_PTY_FIXTURES when a clone sits elsewhere. Never copied into the repo.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function fixturesDir(): string {
  const candidates = [process.env.FLOWER_PTY_FIXTURES, path.resolve(repoRoot, '../shared/fixtures'), '/work/shared/fixtures'];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  throw new Error(`the shared transcript fixtures are missing: expected ${path.resolve(repoRoot, '../shared/fixtures')}; set FLOWER_PTY_FIXTURES to their folder`);
}
