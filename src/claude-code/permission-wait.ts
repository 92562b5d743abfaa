// A permission wait (docs/claude-code.md §10): what it is about, in a few words for the status line, the
// title and a notification ("Bash touch x", "Edit src/a.ts"), from the PermissionRequest payload that comes
// 0.06 s after the tool call, seconds before Claude Code's own permission_prompt notification; and how a
// refusal shows. Approval runs the tool (PostToolUse); a refusal (Esc, or "No") fires no hook at all in
// 2.1.332, only a transcript row: the tool_result of the refused call with toolDenialKind "user-rejected".

import { oneLine } from '../core/one-line.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

const MAX_CHARS = 120;

// The input field that names what the tool acts on, by tool; other tools show their first string field.
const SUBJECT_FIELD: Readonly<Record<string, string>> = {
  Bash: 'command',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  Write: 'file_path',
  Read: 'file_path',
  NotebookEdit: 'notebook_path',
  WebFetch: 'url',
  WebSearch: 'query',
  Glob: 'pattern',
  Grep: 'pattern',
};

export function permissionSubject(payload: unknown): string {
  if (!isObj(payload)) return 'a tool';
  const tool =
    typeof payload.tool_name === 'string' && payload.tool_name.trim() !== ''
      ? oneLine(payload.tool_name, MAX_CHARS)
      : 'a tool';
  const input = isObj(payload.tool_input) ? payload.tool_input : {};
  const field = SUBJECT_FIELD[tool];
  const value =
    field !== undefined && typeof input[field] === 'string'
      ? input[field]
      : Object.values(input).find((v): v is string => typeof v === 'string');
  return value === undefined || value.trim() === '' ? tool : oneLine(`${tool} ${value}`, MAX_CHARS);
}

// A question claude asks its person (AskUserQuestion's `questions`: 1 to 4, each with 2 to 4 options), as
// one line: "Which parser? (Hand-written / Generated)", the first question with its choices and how many
// more follow; null when the input holds no question.
const QUESTION_CHARS = 200;
const CHOICE_CHARS = 40;

export function questionText(input: unknown): string | null {
  const questions = isObj(input) && Array.isArray(input.questions) ? input.questions.filter(isObj) : [];
  const first = questions.find((q) => typeof q.question === 'string' && q.question.trim() !== '');
  if (!first) return null;
  const options = Array.isArray(first.options) ? first.options : [];
  const labels = options.flatMap((o) =>
    isObj(o) && typeof o.label === 'string' && o.label.trim() !== '' ? [oneLine(o.label, CHOICE_CHARS)] : [],
  );
  const more = questions.length - 1;
  const text = `${oneLine(first.question as string, QUESTION_CHARS)}${labels.length > 0 ? ` (${labels.join(' / ')})` : ''}${more > 0 ? ` (+${more} more ${more === 1 ? 'question' : 'questions'})` : ''}`;
  return oneLine(text, QUESTION_CHARS + 4 * (CHOICE_CHARS + 3) + 30);
}

// The tool_use_id a person refused, from a transcript row; null for any other row.
export function refusedToolUseId(row: unknown): string | null {
  if (!isObj(row) || row.type !== 'user' || row.toolDenialKind !== 'user-rejected') return null;
  const message = isObj(row.message) ? row.message : {};
  const content = Array.isArray(message.content) ? message.content : [];
  const result = content.find(
    (block): block is Obj => isObj(block) && block.type === 'tool_result' && typeof block.tool_use_id === 'string',
  );
  return result ? (result.tool_use_id as string) : null;
}
