// Claude Code's dialect: everything tied to its release in one place. Adding a release's quirk is one
// change here (a row in release.ts, a guard in hooks.ts) plus a fixture under test/fixtures/claude-code/.
// Every file here is pure (no node:*, checked by test/architecture.test.ts); the release probe, which runs
// `claude --version` and caches the answer, is an adapter (src/adapters/claude-probe.ts).
export * from './release.js';
export * from './hooks.js';
export * from './settings.js';
export * from './launch.js';
export * from './limits.js';
export { isOverflowText } from '../core/overflow.js';
export { projectDirName, transcriptPathFor } from '../core/claude-paths.js';
export * from './requests.js';
