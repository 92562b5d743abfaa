// Where the real transcripts the tests read live: test/fixtures/shared inside the repository, so a
// fresh clone needs nothing beside it (spotter's LICENSE and NOTICE.md sit next to its files).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function fixturesDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'shared');
}
