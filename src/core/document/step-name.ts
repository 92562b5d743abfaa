// Step names become file names: keep letters (any script), digits, dot, dash and underscore, and
// nothing that could climb out of the notes folder.

export function sanitizeStep(raw: string): string {
  const cleaned = raw
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, 80);
  return cleaned;
}

// The error text is for --step; an empty result means nothing usable was left.
export function validateStep(raw: string): { step: string } | { problem: string } {
  const step = sanitizeStep(raw);
  if (step === '')
    return {
      problem: `--step "${raw.replace(/[\u0000-\u001f]/g, '?')}" has no usable characters: use letters, digits, '-', '_' or '.', e.g. --step work`,
    };
  return { step };
}
