// An argument as a POSIX shell reads it back unchanged: in single quotes (spaces, double quotes, `$()` and
// backticks stay literal; a single quote becomes '\''), or bare when nothing in it is special, which reads
// better in a line a person copies (a path, a hook's event name). Pure.

/** always quoted */
export function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** bare when every character is plain (letters, digits, _ @ % + = : , . / -), else quoted */
export function shellWord(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : shellQuote(arg);
}
