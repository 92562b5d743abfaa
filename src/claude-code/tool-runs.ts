// The main thread's tool calls and their results as Claude Code writes them (2.1.332, and 2.1.39 in the
// spotter fixtures), turned into the core's tool runs (core/dead-ends/tool-run.ts) for the failure record.
// Incremental and pure: one reader per transcript followed; it remembers the calls still waiting for
// their result. See docs/dead-ends.md for the rows and how to check them again.
//
// What the rows carry:
// - an assistant row's `message.content` has `tool_use` blocks {id, name, input}; Bash's input has
//   `command`, the file tools `file_path` (NotebookEdit `notebook_path`), Edit `old_string`/`new_string`;
// - a user row's `message.content` has `tool_result` blocks {tool_use_id, is_error, content}; content is
//   a string or text blocks. A failed Bash call (non-zero exit) is `is_error: true` with content
//   "Exit code N\n<output>"; a failed tool says why, sometimes wrapped in `<tool_use_error>…</tool_use_error>`;
// - not failures of the call: a person's refusal ("The user doesn't want to proceed with this tool use…",
//   `toolUseResult` "User rejected tool use"), and "Sibling tool call errored" (a parallel call cancelled
//   because another one failed: that one is the failure);
// - subagents' rows are `isSidechain: true` inline (older releases) or in their own files (since ~2.1):
//   never the main thread's failures.

import { commandPaths } from '../core/dead-ends/command-match.js';
import { isTrivialShellFailure } from '../core/dead-ends/trivial-failure.js';
import type { ToolRun } from '../core/dead-ends/tool-run.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);

const REFUSED = /^(?:The user doesn't want to (?:proceed|take this action)|User rejected tool use)/;
const CANCELLED = 'Sibling tool call errored';
const EXIT_LINE = /^Exit code (\d+)$/;
const WRAPPER = /<\/?tool_use_error>/g;
// A line that says what went wrong, preferred over the output's first line ("Compiling 40 files…").
const TELLING =
  /error|fail|fatal|cannot|can't|not found|no such|denied|invalid|exception|traceback|refused|timed? ?out|exceeds/i;
// The tools' own errors that are trivial (2.1.332 and 2.1.39): Read, Glob, Grep and LS of a path that is not
// there ("File does not exist.", "Path does not exist: …", "Directory does not exist"), and an Edit or
// Write refused because the file was not read first ("File has not been read yet. Read it first before
// writing to it.").
const TRIVIAL_TOOL_ERROR =
  /^(?:<tool_use_error>)?(?:File does not exist|Path does not exist|Directory does not exist|File has not been read yet|No files found)/i;
const CALLS_KEPT = 256;
const INPUT_CHARS = 400;

// The failure's first telling line; a shell call's exit code before it. Lines are read without the
// `<tool_use_error>` wrapper, trimmed, empty ones skipped, and only as far as the first telling one: a
// failed build's output can run to thousands of lines.
export function errorLine(text: string): string {
  let exit: string | null = null;
  let first: string | null = null;
  let seen = false;
  for (let start = 0; start <= text.length; ) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(start, end).replace(WRAPPER, '').trim();
    start = end + 1;
    if (line === '') continue;
    const code = seen ? null : EXIT_LINE.exec(line);
    seen = true;
    if (code) {
      exit = code[1]!;
      continue;
    }
    first ??= line;
    if (TELLING.test(line)) {
      first = line;
      break;
    }
  }
  const line = first ?? '';
  return exit !== null ? `exit ${exit}${line === '' ? '' : `: ${line}`}` : line || 'failed';
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (isObj(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('\n');
}

// FNV-1a: an edit's texts are compared by a short hash, so the record keeps no file content.
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${(h >>> 0).toString(16)}:${text.length}`;
}

interface Call {
  name: string;
  input: Obj;
}

// Another tool's input as one short line: its scalar fields, long strings cut (a Write's whole file
// content must not be copied, or turned to JSON, on every call the meter reads).
function shortInput(input: Obj): string {
  const shown: Obj = {};
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === 'string') shown[k] = v.length > 80 ? `${v.slice(0, 79)}…` : v;
    else if (typeof v === 'number' || typeof v === 'boolean') shown[k] = v;
  }
  return JSON.stringify(shown).slice(0, INPUT_CHARS);
}

// What another tool's call was about: its first text field, whole (a skill's name, a goal's condition, a
// subagent's description), not the JSON of its fields.
function firstText(input: Obj): string | null {
  for (const v of Object.values(input)) if (typeof v === 'string' && v.trim() !== '') return v;
  return null;
}

// What the run says of its call; a success's paths are not worked out (only a failure is matched by them).
function describe(call: Call, failed: boolean): Pick<ToolRun, 'command' | 'files' | 'input' | 'edit' | 'target'> {
  const i = call.input;
  const command = call.name === 'Bash' ? str(i.command) : null;
  if (command !== null)
    return { command, files: failed ? commandPaths(command) : [], input: command.slice(0, INPUT_CHARS), edit: null };
  const file = str(i.file_path) ?? str(i.notebook_path);
  const path = str(i.path);
  const pattern = str(i.pattern);
  const oldText = str(i.old_string);
  const newText = str(i.new_string);
  const edit =
    call.name === 'Edit' && file !== null && oldText !== null && newText !== null
      ? { file, before: hash(oldText), after: hash(newText) }
      : null;
  if (file !== null) return { command: null, files: [file], input: file, target: file, edit };
  if (pattern !== null) {
    const input = path === null ? pattern : `${pattern} in ${path}`;
    return { command: null, files: path === null ? [] : [path], input, target: input, edit: null };
  }
  const target = firstText(i);
  return { command: null, files: [], input: shortInput(i), ...(target !== null ? { target } : {}), edit: null };
}

// Calls and results are assistant and user rows, which the meter parses anyway: the reader takes every
// parsed row (core/meter/transcript-reader.ts's 'parsed' tap) and scans no line of its own.
export interface ToolRunReader {
  /** one already-parsed row, the runs it completes */
  row(value: unknown): ToolRun[];
}

export function createToolRunReader(): ToolRunReader {
  const calls = new Map<string, Call>();
  return {
    row(value) {
      if (!isObj(value) || value.isSidechain === true || !isObj(value.message)) return [];
      const content = value.message.content;
      if (!Array.isArray(content)) return [];
      if (value.type === 'assistant') {
        for (const b of content) {
          if (!isObj(b) || b.type !== 'tool_use') continue;
          const id = str(b.id);
          const name = str(b.name);
          if (id === null || name === null) continue;
          calls.set(id, { name, input: isObj(b.input) ? b.input : {} });
          if (calls.size > CALLS_KEPT) calls.delete(calls.keys().next().value as string);
        }
        return [];
      }
      if (value.type !== 'user') return [];
      const runs: ToolRun[] = [];
      let at: number | null | undefined;
      for (const b of content) {
        if (!isObj(b) || b.type !== 'tool_result') continue;
        const id = str(b.tool_use_id);
        const call = id === null ? undefined : calls.get(id);
        if (id === null || call === undefined) continue;
        calls.delete(id);
        const failed = b.is_error === true;
        const text = failed ? resultText(b.content) : '';
        if (failed && (REFUSED.test(text.trim()) || text.includes(CANCELLED))) continue;
        if (at === undefined) {
          const t = Date.parse(str(value.timestamp) ?? '');
          at = Number.isFinite(t) ? t : null;
        }
        // Field by field: an object spread here is V8's slow path, on every tool call the meter reads.
        const d = describe(call, failed);
        const trivial =
          failed &&
          (d.command !== null ? isTrivialShellFailure(d.command, text) : TRIVIAL_TOOL_ERROR.test(text.trim()));
        runs.push({
          id,
          tool: call.name,
          command: d.command,
          files: d.files,
          input: d.input,
          target: d.target,
          edit: d.edit,
          ok: !failed,
          error: failed ? errorLine(text) : null,
          at,
          trivial,
        });
      }
      return runs;
    },
  };
}
