// `flower-pty eval compaction [FILE|DIR ...]`: every compaction summary in a person's transcripts (default:
// their Claude Code projects folder), scored against the main thread before it by the coverage scorer
// (core/coverage). Streams each file in bounded memory (the facts are all it keeps), then prints a table, or
// the JSON other tools read, and writes a page with --html. Bad input is one line and nothing written;
// an interruption keeps and prints the transcripts that were read whole, and says so.

import { createReadStream, lstatSync, statSync, type Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { claudeConfigDir } from '../adapters/claude-config-dir.js';
import { writeFileAtomic } from '../adapters/atomic-file.js';
import { createFactRowReader } from '../claude-code/fact-rows.js';
import { SUBAGENTS_DIR } from '../claude-code/transcript-path.js';
import { createCompactionScan, type CompactionScanResult } from '../core/eval/compaction-scan.js';
import { evalJson, evalTable, type EvalSummary } from '../core/eval/eval-result.js';
import { renderEvalPage } from '../core/eval/eval-page.js';
import { oneLine } from '../core/one-line.js';
import { EXIT, FlowerError } from '../core/errors.js';

export interface EvalOptions {
  /** what to evaluate: `compaction` */
  what: string;
  /** transcripts and folders of them; none: the projects folder of CLAUDE_CONFIG_DIR (else ~/.claude) */
  paths: readonly string[];
  /** also write the page here */
  html?: string | undefined;
  json: boolean;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** the table or the JSON */
  out: (line: string) => void;
  /** notes on what was skipped or cut short, and an interruption */
  err: (line: string) => void;
  /** stops the reading between two chunks (the CLI aborts it on SIGINT) */
  signal?: AbortSignal;
  /** told before each transcript is read (progress, and how a test interrupts at a known point) */
  onTranscript?: (path: string, index: number, count: number) => void;
  now?: () => Date;
}

const CHUNK = 1 << 20;
const USAGE = 'flower-pty eval compaction [FILE|DIR ...]';
const WHATS = `${USAGE}, or flower-pty eval fork SESSION [--at N ...] [-k K] [--dry-run]`;

function fail(message: string): never {
  throw new FlowerError(`eval: ${oneLine(message)}`, EXIT.usage);
}

// A transcript's lines as the table and the notes show it: relative to where the command runs when under it.
function shownPath(cwd: string): (path: string) => string {
  return (path) => {
    const rel = relative(cwd, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  };
}

// Every .jsonl under a folder, in name order; subagents' own folders and symbolic links to folders skipped.
async function walk(dir: string, into: string[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    fail(`cannot read the folder ${dir} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== SUBAGENTS_DIR) await walk(path, into);
    } else if (
      entry.name.endsWith('.jsonl') &&
      (entry.isFile() || (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isFile()))
    ) {
      into.push(path);
    }
  }
}

interface Input {
  path: string;
  /** named on the command line (a bad one stops the command), or found in a folder (a bad one is skipped) */
  named: boolean;
}

async function inputsOf(opts: EvalOptions): Promise<{ inputs: Input[]; roots: string[] }> {
  const given = opts.paths.length > 0;
  const roots = given ? opts.paths.map((p) => resolve(opts.cwd, p)) : [join(claudeConfigDir(opts.env), 'projects')];
  const inputs: Input[] = [];
  for (const root of roots) {
    const st = statSync(root, { throwIfNoEntry: false });
    if (st === undefined) {
      if (!given)
        fail(
          `no Claude Code projects folder at ${root}: name transcripts or folders (${USAGE}), or set CLAUDE_CONFIG_DIR to your claude's config folder`,
        );
      fail(`no such file or folder ${root}: name Claude Code transcripts (.jsonl) or folders of them`);
    }
    if (st.isDirectory()) {
      const found: string[] = [];
      await walk(root, found);
      inputs.push(...found.map((path) => ({ path, named: false })));
    } else if (st.isFile()) {
      inputs.push({ path: root, named: true });
    } else {
      fail(`${root} is not a file or a folder: name Claude Code transcripts (.jsonl) or folders of them`);
    }
  }
  return { inputs, roots };
}

// One transcript streamed through the scan; null when the reading was stopped before its end.
async function scanFile(path: string, signal: AbortSignal | undefined): Promise<CompactionScanResult | null> {
  const scan = createCompactionScan(createFactRowReader());
  const stream = createReadStream(path, { highWaterMark: CHUNK });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (signal?.aborted) return null;
      scan.push(chunk);
    }
  } catch (error) {
    fail(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  } finally {
    stream.destroy();
  }
  return signal?.aborted ? null : scan.end();
}

export async function runEval(opts: EvalOptions): Promise<number> {
  if (opts.what !== 'compaction') fail(`there is no "${opts.what}" to evaluate: ${WHATS}`);
  const shown = shownPath(opts.cwd);
  const html = opts.html === undefined ? null : resolve(opts.cwd, opts.html);
  if (html !== null) {
    // An atomic write renames over what is there: only a new path or a regular file is taken.
    const there = lstatSync(html, { throwIfNoEntry: false });
    if (there && !there.isFile())
      fail(
        `${html} is ${there.isDirectory() ? 'a folder' : 'not a regular file'}: name a new file or a regular one with --html, e.g. --html eval.html`,
      );
  }
  const { inputs, roots } = await inputsOf(opts);
  const summaries: EvalSummary[] = [];
  const notes: string[] = [];
  const skipped: string[] = [];
  let read = 0;
  for (const [i, input] of inputs.entries()) {
    if (opts.signal?.aborted) break;
    opts.onTranscript?.(input.path, i, inputs.length);
    const result = await scanFile(input.path, opts.signal);
    if (result === null) break;
    if (result.notJsonl) {
      if (input.named)
        fail(
          `${input.path} is not JSONL: its first line is not JSON (give a Claude Code transcript, one JSON object a line)`,
        );
      skipped.push(input.path);
      continue;
    }
    read += 1;
    if (result.truncatedTail)
      notes.push(
        `${shown(input.path)}: its last line is cut short (a session still writing it?); read up to the line before`,
      );
    if (result.dropped > 0) notes.push(`${shown(input.path)}: ${result.dropped} line(s) over 16 MB skipped`);
    for (const s of result.summaries)
      summaries.push({ transcript: input.path, line: s.line, score: s.score, since: s.since });
  }
  if (skipped.length > 0)
    notes.push(`${skipped.length} .jsonl file(s) that are not JSONL skipped, the first ${shown(skipped[0]!)}`);
  const interrupted = opts.signal?.aborted === true;
  if (interrupted)
    notes.push(`interrupted: ${read} of ${inputs.length} transcript(s) read whole; the figures cover those only`);

  if (html !== null) {
    const page = renderEvalPage({
      summaries,
      transcripts: read,
      notes,
      now: (opts.now?.() ?? new Date()).toISOString(),
      shown,
    });
    try {
      await writeFileAtomic(html, page);
    } catch (error) {
      fail(`cannot write ${html} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  if (opts.json) opts.out(JSON.stringify(evalJson(summaries)));
  else if (summaries.length === 0)
    opts.out(
      `eval: no compaction summary in ${read} transcript(s) under ${roots.map((r) => oneLine(shown(r) || '.')).join(', ')}: nothing to score`,
    );
  else for (const line of evalTable(summaries, shown)) opts.out(line);
  for (const note of notes) opts.err(`eval: ${oneLine(note)}`);
  if (html !== null) opts.err(`eval: the page is ${oneLine(html)}`);
  return interrupted ? EXIT.interrupted : EXIT.ok;
}
