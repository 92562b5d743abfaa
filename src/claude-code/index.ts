// Claude Code's dialect: everything tied to its release in one place. It turns what the CLI writes into
// what the core owns: hook payloads into HookEvents (run-hook.ts), transcript rows into the meter's records
// (transcript-rows.ts), and its own lines and formulas into the run's dialect, a value handed to the core
// (run-dialect.ts); the core imports nothing from here. Adding a release's quirk is one change here (a row in
// release.ts, a guard in hooks.ts, a reader in transcript-rows.ts) plus a fixture under test/fixtures/.
// Every file here is pure (no node:*, checked by test/architecture.test.ts); the release probe, which runs
// `claude --version` and caches the answer, is an adapter (src/adapters/claude-probe.ts).
export * from './release.js';
export * from './hooks.js';
export * from './settings.js';
export * from './launch.js';
export * from './limits.js';
export * from './overflow.js';
export * from './transcript-path.js';
export * from './transcript-rows.js';
export * from './run-dialect.js';
export * from './requests.js';
