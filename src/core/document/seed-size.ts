// A successor's first prompt too large for the session that must read it (a 20 MB document picked up
// with --continue): the words that tell a person so before the successor starts. Pure.

import { formatTokens } from '../meter/token-format.js';

// About four characters a token for prose and code; only the order of magnitude matters here.
const CHARS_PER_TOKEN = 4;

// null when the prompt fits in half the window (the rest is the successor's work); else the sentence.
export function oversizedSeed(prompt: string, window: number): string | null {
  const tokens = Math.ceil(prompt.length / CHARS_PER_TOKEN);
  if (tokens <= window / 2) return null;
  const size =
    prompt.length >= 1_000_000
      ? `${(prompt.length / 1_000_000).toFixed(1)}M`
      : `${(prompt.length / 1_000).toFixed(1)}K`;
  return (
    `the handoff document is ${size} characters (about ${formatTokens(tokens)} tokens), ` +
    `more than the successor's ${formatTokens(window)}-token window can take in`
  );
}
