// What a permission wait is about, in a few words for the status line, the title and a notification:
// "Bash touch x", "Edit src/a.ts". From a PermissionRequest payload (claude-code-facts.md §12), which comes
// 0.06 s after the tool call, seconds before Claude Code's own permission_prompt notification.

import { oneLine } from './one-line.js';

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
  const tool = typeof payload.tool_name === 'string' && payload.tool_name.trim() !== '' ? oneLine(payload.tool_name, MAX_CHARS) : 'a tool';
  const input = isObj(payload.tool_input) ? payload.tool_input : {};
  const field = SUBJECT_FIELD[tool];
  const value = field !== undefined && typeof input[field] === 'string' ? input[field] : Object.values(input).find((v): v is string => typeof v === 'string');
  return value === undefined || value.trim() === '' ? tool : oneLine(`${tool} ${value}`, MAX_CHARS);
}
