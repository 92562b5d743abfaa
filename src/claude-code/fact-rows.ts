// Claude Code's transcript rows (2.1.332, and 2.1.39 in the spotter fixtures) as the coverage scorer's
// fact rows (core/coverage/fact-row.ts): the main thread only (a subagent's `isSidechain` rows are skipped).
// Composes the readers that already know the rows: transcript-rows.ts (whose prompt a row is, a
// compaction's summary), tool-runs.ts (calls and results), session-scope.ts (TaskCreate/TaskUpdate).
// Read here, and nowhere else, for the scorer:
// - the files a call created or changed: Write, Edit, MultiEdit (`file_path`) and NotebookEdit
//   (`notebook_path`), when the call worked;
// - TodoWrite's `todos` [{content, status: pending|in_progress|completed}] (sdk-tools.d.ts), written
//   whole each time: the last call's list is the list;
// - `gitBranch`, on every row since 2.0: the branch the session's folder was on when the row was written.
// Pure; one reader per transcript.

import type { FactRow, FactRowReader, ListItem } from '../core/coverage/fact-row.js';
import type { ToolRun } from '../core/dead-ends/tool-run.js';
import type { ScopeChange } from '../core/document/session-scope.js';
import type { RowTap } from '../core/meter/transcript-reader.js';
import { mayMoveMeter, responseText, userSaid } from './transcript-rows.js';
import { createToolRunReader } from './tool-runs.js';
import { createScopeReader } from './session-scope.js';
import { RUN_DIALECT } from './run-dialect.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** the tools that create or change a file */
export const WRITING_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

function checklistOf(content: unknown): ListItem[] | null {
  if (!Array.isArray(content)) return null;
  let items: ListItem[] | null = null;
  for (const b of content) {
    if (
      !isObj(b) ||
      b.type !== 'tool_use' ||
      b.name !== 'TodoWrite' ||
      !isObj(b.input) ||
      !Array.isArray(b.input.todos)
    )
      continue;
    items = [];
    for (const t of b.input.todos)
      if (isObj(t) && typeof t.content === 'string') items.push({ subject: t.content, done: t.status === 'completed' });
  }
  return items;
}

/** a tool run of the main thread as a fact row: the files it changed when it is a writing tool that worked */
export function runFactRow(run: ToolRun): FactRow {
  return { kind: 'run', run, changed: run.ok && WRITING_TOOLS.has(run.tool) ? run.files : [] };
}

export const scopeFactRow = (change: ScopeChange): FactRow => ({ kind: 'scope', change });

// What only the scorer reads of a row: the branch, a person's prompt, a compaction's summary, the model's
// text, a TodoWrite list. Tool runs and task changes come from the readers that already read them (the
// live tail's, claude-code/session-reader.ts), so beside the tail nothing is read twice.
function ownRows(): (value: unknown) => FactRow[] {
  let branch: string | null = null;
  return (value) => {
    if (!isObj(value) || value.isSidechain === true) return [];
    const out: FactRow[] = [];
    if (typeof value.gitBranch === 'string' && value.gitBranch !== '' && value.gitBranch !== branch) {
      branch = value.gitBranch;
      out.push({ kind: 'branch', name: branch });
    }
    if (value.type === 'user') {
      const u = userSaid(value);
      if (u.said === 'prompt' && !RUN_DIALECT.isOwnPrompt(u.text)) out.push({ kind: 'prompt', text: u.text });
      else if (u.said === 'summary') out.push({ kind: 'summary', text: u.text });
    } else if (value.type === 'assistant') {
      const text = responseText(value);
      if (text !== null && text !== '') out.push({ kind: 'said', text });
      const items = checklistOf(isObj(value.message) ? value.message.content : null);
      if (items !== null) out.push({ kind: 'checklist', items });
    }
    return out;
  };
}

/** the scorer's tap on the live tail's reader: its own rows; the tail's runs and task changes go through runFactRow and scopeFactRow */
export function factRowTap(push: (row: FactRow) => void): RowTap {
  const own = ownRows();
  return { row: (value) => own(value).forEach(push) };
}

/** every fact row of a transcript read on its own (`flower-pty eval compaction`) */
export function createFactRowReader(): FactRowReader {
  const own = ownRows();
  const runs = createToolRunReader();
  const scope = createScopeReader();
  return {
    mayHold: mayMoveMeter,
    row(value) {
      const out = own(value);
      if (out.length === 0 && !(isObj(value) && isObj(value.message) && Array.isArray(value.message.content)))
        return out;
      for (const change of scope.row(value)) out.push(scopeFactRow(change));
      for (const run of runs.row(value)) out.push(runFactRow(run));
      return out;
    },
  };
}
