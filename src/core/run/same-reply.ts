// One reply seen twice: the reply a stop hook carries and the transcript's row of the same
// response, matched to know that the row a held hook waits for has landed. Pure.

/** the same reply, modulo surrounding whitespace (or one ending the other) */
export function sameText(a: string, b: string): boolean {
  const x = a.trim();
  const y = b.trim();
  return x === y || (x.length > 0 && y.length > 0 && (x.endsWith(y) || y.endsWith(x)));
}
