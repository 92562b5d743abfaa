// Token counts as people read them (130000 -> "130.0K", 1000000 -> "1.0M"): one spelling for the
// status line, the prompts, `flower-pty ls` and the report. A module of its own so that a light entry
// (`flower-pty attach`, through the run list) does not load the handoff prompts with it.

export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return '?';
  if (n < 0) return `-${formatTokens(-n)}`;
  if (n < 1_000) return String(Math.round(n));
  // 999,950 would print as "1000.0K": switch unit where the rounding would.
  if (n < 999_950) return `${(n / 1_000).toFixed(1)}K`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}
