// Text from a transcript, a tool call or a path shown on one line (a status line, a notification, a fact):
// control characters and line breaks would repaint a terminal or break the line, so they become spaces, and
// a runaway value is cut short with an ellipsis.

export function oneLine(text: string, maxChars = Number.POSITIVE_INFINITY): string {
  // Spaces already there are kept: a path must stay exactly what it is.
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
}
