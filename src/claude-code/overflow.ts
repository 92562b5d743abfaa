// Recognises "the prompt does not fit" in API error text, transcript rows and hook payloads.
// The phrasings are the seed's is_overflow list plus what Claude Code 2.1.332 itself matches.

const OVERFLOW_PATTERNS: readonly string[] = [
  'prompt is too long', // Anthropic API 400, and Claude Code's synthetic "Prompt is too long" row
  'context length exceeded',
  'context_length_exceeded', // OpenAI-style gateways spell it as an error code
  'maximum context length',
  'too many total text bytes',
  'input length and max_tokens exceed',
  'input length and `max_tokens` exceed', // the API's own text puts max_tokens in backticks
  'input is too long for requested model', // Claude Code 2.1.332 matches this one too (docs/claude-code.md §7)
];

export function isOverflowText(text: string): boolean {
  if (text.length === 0) return false;
  const lower = text.toLowerCase();
  return OVERFLOW_PATTERNS.some((p) => lower.includes(p));
}
