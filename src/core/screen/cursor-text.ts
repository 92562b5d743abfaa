// Terminal output read as text (a dying claude's last lines): Claude Code's renderer moves the cursor
// over the gap between words (CSI n C, cursor forward) instead of writing spaces, and jumps lines with
// cursor moves rather than newlines, so stripping the escapes alone glued "Claude Code might not be
// available" into "ClaudeCodemightnotbeavailable". The moves become the whitespace they stand for,
// before the remaining escapes are stripped.

// eslint-disable-next-line no-control-regex
const FORWARD = /\u001b\[(\d*)C/g;
// cursor up/down/next/previous line, to a row and column, or erase in line: a new line of text
// eslint-disable-next-line no-control-regex
const LINE_MOVE = /\u001b\[\d*[ABEF]|\u001b\[\d*(?:;\d*)?[Hf]/g;
// cursor to a column on the same line
// eslint-disable-next-line no-control-regex
const COLUMN = /\u001b\[\d*G/g;

export function cursorMovesAsWhitespace(output: string): string {
  return output
    .replace(FORWARD, (_m, n: string) => ' '.repeat(Math.min(Math.max(Number(n) || 1, 1), 8)))
    .replace(LINE_MOVE, '\n')
    .replace(COLUMN, ' ');
}
