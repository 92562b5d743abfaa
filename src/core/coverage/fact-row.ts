// What the coverage scorer reads of a session's main thread, as the dialect hands it in
// (claude-code/fact-rows.ts): a person's prompts, the model's own text, tool runs with the files they
// changed, the task list's changes, the branch the session is on, and a compaction's summary. The core
// owns these shapes and knows no field name or tool name of the CLI that writes the rows.

import type { ToolRun } from '../dead-ends/tool-run.js';
import type { ScopeChange } from '../document/session-scope.js';

/** one item of a checklist the session keeps whole (a todo list written anew each time) */
export interface ListItem {
  subject: string;
  done: boolean;
}

export type FactRow =
  /** what a person typed at the prompt (not a tool result, not the harness's or flower-pty's own rows) */
  | { kind: 'prompt'; text: string }
  /** the model's own text (its replies, not its tool calls) */
  | { kind: 'said'; text: string }
  /** a tool call of the main thread and its result; `changed`: the files it created or changed (a
   *  file-writing tool that worked), else empty */
  | { kind: 'run'; run: ToolRun; changed: string[] }
  /** a change of the session's task list */
  | { kind: 'scope'; change: ScopeChange }
  /** the session's checklist as it was written last, whole */
  | { kind: 'checklist'; items: ListItem[] }
  /** the version-control branch the session was on when the row was written */
  | { kind: 'branch'; name: string }
  /** a context compaction's summary, which stands in for everything before it */
  | { kind: 'summary'; text: string };

/** the dialect's reader of one transcript's rows, made afresh per transcript (it remembers open calls) */
export interface FactRowReader {
  /** a cheap test on a raw line: false only for a line that cannot hold a fact row */
  mayHold(line: string): boolean;
  /** one already-parsed row (any row), the fact rows it makes; none for a subagent's */
  row(value: unknown): FactRow[];
}
