// One JSON text read as one object, or null: what a frame, a page's message or a saved model must be.
// A parse error, an array, a string or a number are all "not what was sent" to the reader; each reader
// then checks the fields it needs.

/** the object `text` holds, or null when it is not JSON or not an object (an array is not one) */
export function jsonObject(text: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
