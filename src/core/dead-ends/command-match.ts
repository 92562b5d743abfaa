// Exact matching of shell commands, flags and paths, after a normalisation that forgets only what does not
// change what a command does (spacing, a leading `cd dir &&`, a trailing `2>&1` or `| head`/`| tail`, a
// leading `./` on a path). Never fuzzy: a near miss (`--watchAll` for `--watch`, `npm test -- --grep x`
// for `npm test`) does not match. Used to tell whether a document mentions a failure and whether a
// successor repeats one. Pure.

// A trailing part that only trims or merges what a command prints.
const OUTPUT_TAIL = /\s*(?:2>&1|\|\s*(?:head|tail)(?:\s+-n)?(?:\s+-?\d+)?)\s*$/;
const LEADING_CD = /^cd\s+(?:"[^"]*"|'[^']*'|\S+)\s*&&\s*/;

function unquote(token: string): string {
  return token.length >= 2 && (token[0] === '"' || token[0] === "'") && token.at(-1) === token[0]
    ? token.slice(1, -1)
    : token;
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
    .map((t) =>
      t.startsWith('./') || t.startsWith('"./') || t.startsWith("'./") ? t.replace(/^(["']?)(?:\.\/)+/, '$1') : t,
    )
    .join(' ');
}

// Where a normalised command's segments begin and end: at `&&`, `||` and `;` outside quotes, `$(…)` and
// backticks. An inline script (`bun -e "a; b"`, `python -c '…'`, `node -e …`) is one command, and a heredoc
// runs to the command's end (its body was one line of the normalised command): never split at its `;`.
function splitTopLevel(c: string, pipes: boolean): string[] {
  if (!/[;&|]/.test(c)) return [c];
  const out: string[] = [];
  let quote: string | null = null;
  let depth = 0;
  let start = 0;
  for (let i = 0; i < c.length; i++) {
    const ch = c[i]!;
    if (quote !== null) {
      if (ch === '\\' && quote !== "'") i += 1;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '\\') {
      i += 1;
    } else if (ch === '"' || ch === "'" || ch === '`') {
      quote = ch;
    } else if (ch === '$' && c[i + 1] === '(') {
      depth += 1;
      i += 1;
    } else if (ch === ')' && depth > 0) {
      depth -= 1;
    } else if (depth === 0 && ch === '<' && c[i + 1] === '<' && c[i + 2] !== '<') {
      break; // a heredoc: the rest is its body
    } else if (depth === 0 && (ch === ';' || ((ch === '&' || ch === '|') && c[i + 1] === ch))) {
      out.push(c.slice(start, i));
      if (ch !== ';') i += 1;
      start = i + 1;
    } else if (pipes && depth === 0 && ch === '|') {
      out.push(c.slice(start, i));
      start = i + 1;
    }
  }
  out.push(c.slice(start));
  return out;
}

// The commands a line runs one after another (`a && b`, `a; b`, `a || b`), each normalised.
export function commandSegments(command: string): string[] {
  return splitTopLevel(normaliseCommand(command), false)
    .map(normaliseCommand)
    .filter((s) => s !== '');
}

/** the programs a segment pipes through (`cat x | grep y`: both), each as its words */
export function pipelineStages(segment: string): string[] {
  return splitTopLevel(segment, true)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

// Words before the program that do not change which job it is: an environment assignment, a wrapper.
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const WRAPPERS = new Set(['sudo', 'time', 'timeout', 'nice', 'env', 'command', 'exec', 'npx', 'bunx', 'pnpx', 'uvx']);
// A program's subcommand that names another: `npm run build`, `uv run pytest`, `gh pr view`.
const RUNS_ANOTHER = new Set([
  'run',
  'run-script',
  'exec',
  'x',
  'dlx',
  'pr',
  'issue',
  'compose',
  'workspace',
  'repo',
  'stash',
  'worktree',
  'remote',
  'submodule',
]);

/** a segment's words as a shell would read them apart (quoted words whole) */
export function shellWords(segment: string): string[] {
  return Array.from(segment.matchAll(/"(?:[^"\\]|\\.)*"|'[^']*'|`[^`]*`|\S+/g), (m) => m[0]);
}

/** the program a segment runs and the words after it, wrappers and environment assignments left out */
export function programWords(segment: string): string[] {
  const w = shellWords(segment);
  let i = 0;
  while (i < w.length && (ENV_ASSIGNMENT.test(w[i]!) || WRAPPERS.has(w[i]!))) {
    i += 1;
    if (w[i - 1] === 'timeout' && i < w.length) i += 1;
  }
  const rest = w.slice(i);
  if (rest.length > 0) rest[0] = rest[0]!.split('/').at(-1) ?? rest[0]!;
  return rest;
}

// The job a segment does: its program and subcommand (the first word after it that is not a flag; the one
// after that too when the subcommand runs another, `npm run build`). Another segment with the same job
// that worked did what the failed one was for: `git commit` failed on a hook and worked once fixed,
// `mise run lint` failed and then `mise run lint && mise run test` passed.
export function segmentJob(segment: string): string {
  const w = programWords(segment);
  const job = w.slice(0, 1);
  for (let i = 1; i < w.length && job.length < 3; i++) {
    if (w[i]!.startsWith('-')) continue;
    job.push(w[i]!);
    if (job.length === 2 && !RUNS_ANOTHER.has(w[i]!)) break;
  }
  return job.join(' ');
}

/** the jobs of a command's segments */
export function commandJobs(command: string): string[] {
  return commandSegments(command)
    .map(segmentJob)
    .filter((j) => j !== '');
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
  return (
    dot > 0 &&
    /^[\w.-]+$/.test(token) &&
    /^\.[A-Za-z]\w{0,7}$/.test(token.slice(dot)) &&
    /[A-Za-z_]/.test(token.slice(0, dot))
  );
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
  if (
    commandSegments(command).some(
      (seg) => seg.includes(' ') && new RegExp(`(?<![\\w./-])${escapeRe(seg)}(?![\\w/=-]|[:.]\\w)`).test(flat),
    )
  )
    return true;
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
