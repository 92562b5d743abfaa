// Where the real recordings the tests read live, inside the repository, so a fresh clone needs nothing beside
// them: test/fixtures/shared holds others' transcripts (spotter's LICENSE and NOTICE.md sit next to its
// files); test/fixtures/claude-code/<release>/ holds what flower-pty recorded of one Claude Code release
// (its hook payloads per event, `sessions/` whole transcripts, `scenarios/` hooks and rows a record.ts wrote).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export function fixturesDir(): string {
  return path.join(FIXTURES, 'shared');
}

/** one release's recordings: `claudeFixtures('2.1.332', 'sessions', 'interrupt')` */
export function claudeFixtures(release: string, ...under: string[]): string {
  return path.join(FIXTURES, 'claude-code', release, ...under);
}
