// Token counts as people read them (130000 -> "130.0K", 1000000 -> "1.0M"): one spelling for the
// status line, the prompts, `flower-pty ls` and the report; and as they type them (200k, 1m), for every
// option that takes a count. A module of its own so that a light entry
// (`flower-pty attach`, through the run list) does not load the handoff prompts with it.

import { PolicyError } from '../errors.js';

export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return '?';
  if (n < 0) return `-${formatTokens(-n)}`;
  if (n < 1_000) return String(Math.round(n));
  // 999,950 would print as "1000.0K": switch unit where the rounding would.
  if (n < 999_950) return `${(n / 1_000).toFixed(1)}K`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

// Accepts what a person types: 200000, 200k, 1m, 1_000_000. Anything else is refused with the fix.
export function parseTokenCount(flag: string, raw: unknown): number {
  const text = String(raw).trim().toLowerCase().replace(/_/g, '');
  const match = /^(\d+(?:\.\d+)?)([km]?)$/.exec(text);
  if (!match) throw new PolicyError(`--${flag} expects a token count like 200000 or 200k, got "${String(raw)}"`);
  const unit = match[2] === 'k' ? 1_000 : match[2] === 'm' ? 1_000_000 : 1;
  const value = Math.round(Number(match[1]) * unit);
  if (!Number.isSafeInteger(value)) throw new PolicyError(`--${flag} is out of range: "${String(raw)}"`);
  return value;
}
