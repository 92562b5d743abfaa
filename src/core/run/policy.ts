// Handoff policy: the thresholds and the default-window rule of the seed, as one table of
// values, validated once. Pure: the environment arrives as a plain record. The settings a person may
// give (the headroom, the brake) take their defaults from the options table.

import { numberDefault, optionRow } from '../options/options-table.js';
import { PolicyError } from '../errors.js';

export const POLICY_DEFAULTS = {
  headroom: numberDefault('headroom'), // room left above the line so the session can still write the document
  maxGenerations: numberDefault('max-generations'), // the runaway brake
  maxGenerationsCeiling: optionRow('max-generations').max!, // a brake set past this is no brake
  floor: 10_000, // `at` never drops below this: writing the document needs room
  warnGap: 20_000, // `near` fires this far below `at`
  warnFloor: 1_000,
  minWindow: 20_000, // below this no Claude Code session can even start
} as const;

export interface Thresholds {
  /** the handoff line */
  at: number;
  /** the once-per-generation "getting close" notice */
  warnAt: number;
}

export interface Policy extends Thresholds {
  window: number;
  headroom: number;
  maxGenerations: number;
  /** where the window came from, for -v and the status line */
  windowSource: 'flag' | 'claude' | 'model-name' | 'default';
}

// The seed's exact formulas.
export function thresholds(window: number, headroom: number = POLICY_DEFAULTS.headroom): Thresholds {
  const at = Math.max(POLICY_DEFAULTS.floor, window - headroom);
  const warnAt = Math.max(POLICY_DEFAULTS.warnFloor, at - POLICY_DEFAULTS.warnGap);
  return { at, warnAt };
}

// The seed's default window from the model name: the standalone word `1m` first (so
// `claude-haiku[1m]` is 1M), then `haiku` → 200k, anything else → 1M.
export function windowForModel(model: string | undefined): number {
  if (!model) return 1_000_000;
  if (/(^|[^a-z0-9])1m([^a-z0-9]|$)/i.test(model)) return 1_000_000;
  if (/haiku/i.test(model)) return 200_000;
  return 1_000_000;
}

// Only ANTHROPIC_MODEL / ANTHROPIC_DEFAULT_OPUS_MODEL count, as in the seed.
export function modelFromEnv(env: Readonly<Record<string, string | undefined>>): string | undefined {
  return env.ANTHROPIC_MODEL || env.ANTHROPIC_DEFAULT_OPUS_MODEL || undefined;
}

export interface PolicyInput {
  window?: number;
  headroom?: number;
  maxGenerations?: number;
  /** a window Claude Code itself reported (status line context_window_size) */
  reportedWindow?: number;
  env?: Readonly<Record<string, string | undefined>>;
}

// Explicit --window wins, then what Claude Code reports, then the model-name rule.
export function resolvePolicy(input: PolicyInput): Policy {
  const headroom = input.headroom ?? POLICY_DEFAULTS.headroom;
  const maxGenerations = input.maxGenerations ?? POLICY_DEFAULTS.maxGenerations;
  let window: number;
  let windowSource: Policy['windowSource'];
  if (input.window !== undefined) {
    window = input.window;
    windowSource = 'flag';
  } else if (input.reportedWindow !== undefined && input.reportedWindow > 0) {
    window = input.reportedWindow;
    windowSource = 'claude';
  } else {
    const model = input.env ? modelFromEnv(input.env) : undefined;
    window = windowForModel(model);
    windowSource = model ? 'model-name' : 'default';
  }
  if (!Number.isInteger(window) || window < POLICY_DEFAULTS.minWindow) {
    throw new PolicyError(
      `--window ${window} is below the ${POLICY_DEFAULTS.minWindow} floor: give the model's real context window, e.g. --window 200k`,
    );
  }
  if (!Number.isInteger(headroom) || headroom < 0) {
    throw new PolicyError(`--headroom expects a non-negative token count, got ${headroom}`);
  }
  // Only an explicit headroom is refused: with the default one, a small window falls to the 10k floor (the seed's rule).
  if (input.headroom !== undefined && headroom >= window) {
    throw new PolicyError(
      `--headroom ${headroom} is not smaller than the window ${window}: use a headroom below the window, e.g. --headroom 50k`,
    );
  }
  if (!Number.isInteger(maxGenerations) || maxGenerations < 1) {
    throw new PolicyError(`--max-generations expects a whole number of at least 1, got ${maxGenerations}`);
  }
  if (maxGenerations > POLICY_DEFAULTS.maxGenerationsCeiling) {
    throw new PolicyError(
      `--max-generations ${maxGenerations} is past the ceiling of ${POLICY_DEFAULTS.maxGenerationsCeiling}: ` +
        `a brake that high never stops a runaway; use e.g. --max-generations 20`,
    );
  }
  return { window, headroom, maxGenerations, windowSource, ...thresholds(window, headroom) };
}
