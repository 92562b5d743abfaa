// Claude Code's answers to what the run's decisions ask of it (core/run/run-dialect.ts), handed to the
// core as a value in the run's settings. Pure.

import type { RunDialect } from '../core/run/run-dialect.js';
import { blockingLimitOverride, clientBlockLimit } from './limits.js';

// Claude Code's own continuation after a subscription's usage limit resets (2.1.332, fixtures under
// test/fixtures/claude-code/2.1.332/sessions/walk-away): typed by the CLI, not by a person.
const AUTO_CONTINUE_PREFIX = 'Your claude.ai usage limit has reset';

export const RUN_DIALECT: RunDialect = {
  refusalLine: (window, lifted) => clientBlockLimit(window, lifted ? blockingLimitOverride(window) : undefined),
  isOwnPrompt: (text) => text.startsWith(AUTO_CONTINUE_PREFIX),
};
