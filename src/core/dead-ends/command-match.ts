// Exact matching of shell commands, flags and paths, after a normalisation that forgets only what does not
// change what a command does (spacing, a leading `cd dir &&`, a trailing `2>&1` or `| head`/`| tail`, a
// leading `./` on a path). Never fuzzy: a near miss (`--watchAll` for `--watch`, `npm test -- --grep x`
// for `npm test`) does not match. Used to tell whether a document mentions a failure and whether a
// successor repeats one. Pure.

// A trailing part that only trims or merges what a command prints.
const OUTPUT_TAIL = /\s*(?:2>&1|\|\s*(?:head|tail)(?:\s+-n)?(?:\s+-?\d+)?)\s*$/;
const LEADING_CD = /^cd\s+(?:"[^"]*"|'[^']*'|\S+)\s*&&\s*/;

function unquote(token: string): string {
  return token.length >= 2 && (token[0] === '"' || token[0] === "'") && token.at(-1) === token[0] ? token.slice(1, -1) : token;
}

export function normalisePath(path: string): string {
  let p = unquote(path.trim());
  while (p.startsWith('./')) p = p.slice(2);
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/** a command is compared by this many characters at most (a heredoc can run to pages) */
export const COMMAND_CHARS = 1_000;

// The command as compared: one line, single spaces, no output trimming, paths without a leading `./`.
// Called on every shell call the meter reads once something has failed: each step only when it can apply.
export function normaliseCommand(command: string): string {
  let c = command.slice(0, COMMAND_CHARS).replace(/\\\n/g, ' ').replace(/\s+/g, ' ').trim();
  for (let before = ''; before !== c && (c.startsWith('cd ') || c.includes('2>&1') || c.includes('|')); ) {
    before = c;
    c = c.replace(LEADING_CD, '').replace(OUTPUT_TAIL, '').trim();
  }
  if (!c.includes('./')) return c;
  return c
    .split(' ')
    .map((t) => (t.startsWith('./') || t.startsWith('"./') || t.startsWith("'./") ? t.replace(/^(["']?)(?:\.\/)+/, '$1') : t))
    .join(' ');
}

// The commands a line runs one after another (`a && b`, `a; b`, `a || b`), each normalised.
export function commandSegments(command: string): string[] {
  return normaliseCommand(command)
    .split(/\s*(?:&&|\|\||;)\s*/)
    .map(normaliseCommand)
    .filter((s) => s !== '');
}

const LONG_FLAG = /^--[A-Za-z0-9][\w-]*/;

// A command's long flags (`--force`, `--max-old-space-size=4096` as `--max-old-space-size`): short ones
// (`-f`) are too common to name a failure by.
export function longFlags(command: string): string[] {
  const out: string[] = [];
  for (const token of normaliseCommand(command).split(' ')) {
    const m = LONG_FLAG.exec(unquote(token));
    if (m && !out.includes(m[0])) out.push(m[0]);
  }
  return out;
}

// `name.ext`: word characters, dots and dashes, a letter before the extension, an extension that starts
// with a letter. Tested piece by piece: one pattern for it backtracks badly on a long token.
function isFileName(token: string): boolean {
  const dot = token.lastIndexOf('.');
  return dot > 0 && /^[\w.-]+$/.test(token) && /^\.[A-Za-z]\w{0,7}$/.test(token.slice(dot)) && /[A-Za-z_]/.test(token.slice(0, dot));
}

// The paths a command names: a token with a `/`, or a file name with an extension; never a flag or a URL.
export function commandPaths(command: string): string[] {
  const out: string[] = [];
  for (const raw of normaliseCommand(command).split(' ')) {
    const token = unquote(raw.replace(/^[<>]+/, ''));
    if (token === '' || token.startsWith('-') || /^[a-z]+:\/\//i.test(token) || /[$`*?{}=]/.test(token)) continue;
    if (!token.includes('/') && !isFileName(token)) continue;
    const p = normalisePath(token);
    if (p !== '' && p !== '.' && p !== '/' && !out.includes(p)) out.push(p);
  }
  return out;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// `needle` in `text` as a whole token: not inside a longer word, flag or path.
export function hasToken(text: string, needle: string): boolean {
  if (needle === '') return false;
  return new RegExp(`(?<![\\w./-])${escapeRe(needle)}(?![\\w/-]|\\.\\w)`).test(text);
}

// Whether `text` (a document's prose) names a command: the command itself, one of its segments, one of
// its long flags, or one of its paths (whole, or a file name of at least five characters with its extension).
export function mentionsCommand(text: string, command: string): boolean {
  const flat = normaliseCommand(text.replace(/`/g, ' '));
  // A command is named whole: `npm run build:prod` or `npm run build-x` is another command.
  if (commandSegments(command).some((seg) => seg.includes(' ') && new RegExp(`(?<![\\w./-])${escapeRe(seg)}(?![\\w/=-]|[:.]\\w)`).test(flat))) return true;
  if (longFlags(command).some((flag) => hasToken(flat, flag))) return true;
  return commandPaths(command).some((path) => mentionsPath(flat, path));
}

export function mentionsPath(text: string, path: string): boolean {
  const p = normalisePath(path);
  if (hasToken(text, p)) return true;
  const base = p.split('/').at(-1) ?? '';
  return base !== p && base.length >= 5 && base.includes('.') && hasToken(text, base);
}

/** a dead end's code span, as the successor's calls are compared with it */
export type CallPattern = { kind: 'command'; command: string } | { kind: 'flag'; flag: string };

// A code span from a dead end as a pattern: a long flag alone, or a command (two words at least: one word
// is a name, not a call).
export function spanPattern(span: string): CallPattern | null {
  const s = span.trim();
  if (/^--[A-Za-z0-9][\w-]*$/.test(s)) return { kind: 'flag', flag: s };
  const command = normaliseCommand(s.replace(/^\$\s+/, ''));
  return command.includes(' ') ? { kind: 'command', command } : null;
}

// Whether a shell call matches a pattern: the same command (whole, or one of its segments), or the flag among its flags.
export function commandMatches(call: string, pattern: CallPattern): boolean {
  if (pattern.kind === 'flag') return longFlags(call).includes(pattern.flag);
  const whole = normaliseCommand(call);
  return whole === pattern.command || commandSegments(call).includes(pattern.command);
}
