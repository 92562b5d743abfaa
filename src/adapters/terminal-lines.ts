// flower-pty's own lines to its standard output and error: each goes through the one terminal boundary
// (core/terminal-text.ts) on its way, as a line may carry a path, a folder or step name, a manifest or
// config field or a server's words. Its line feeds and tabs stay; nothing else a terminal acts on does.
// Every such write in src/ goes through here (test/security/terminal-boundary.test.ts looks).

import { terminalText } from '../core/terminal-text.js';

/** one line (or several, joined by line feeds) to stdout */
export function sayOut(line: string): void {
  process.stdout.write(`${terminalText(line, { lines: true })}\n`);
}

/** one line (or several) to stderr */
export function sayErr(line: string): void {
  process.stderr.write(`${terminalText(line, { lines: true })}\n`);
}
