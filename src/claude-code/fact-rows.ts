// Claude Code's transcript rows (2.1.332, and 2.1.39 in the spotter fixtures) as the coverage scorer's
// fact rows (core/eval/fact-row.ts): the main thread only (a subagent's `isSidechain` rows are skipped).
// Composes the readers that already know the rows: transcript-rows.ts (whose prompt a row is, a
// compaction's summary), tool-runs.ts (calls and results), session-scope.ts (TaskCreate/TaskUpdate).
// Read here, and nowhere else, for the scorer:
// - the files a call created or changed: Write, Edit, MultiEdit (`file_path`) and NotebookEdit
//   (`notebook_path`), when the call worked;
// - TodoWrite's `todos` [{content, status: pending|in_progress|completed}] (sdk-tools.d.ts), written
//   whole each time: the last call's list is the list;
// - `gitBranch`, on every row since 2.0: the branch the session's folder was on when the row was written.
// Pure; one reader per transcript.

import type { FactRow, FactRowReader, ListItem } from '../core/eval/fact-row.js';
import { mayMoveMeter, toRecord } from './transcript-rows.js';
import { createToolRunReader } from './tool-runs.js';
import { createScopeReader } from './session-scope.js';
import { RUN_DIALECT } from './run-dialect.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

const WRITING_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

function checklistOf(content: unknown): ListItem[] | null {
  if (!Array.isArray(content)) return null;
  let items: ListItem[] | null = null;
  for (const b of content) {
    if (!isObj(b) || b.type !== 'tool_use' || b.name !== 'TodoWrite' || !isObj(b.input) || !Array.isArray(b.input.todos)) continue;
    items = [];
    for (const t of b.input.todos) if (isObj(t) && typeof t.content === 'string') items.push({ subject: t.content, done: t.status === 'completed' });
  }
  return items;
}

export function createFactRowReader(): FactRowReader {
  const runs = createToolRunReader();
  const scope = createScopeReader();
  let branch: string | null = null;
  return {
    mayHold: mayMoveMeter,
    row(value) {
      if (!isObj(value) || value.isSidechain === true) return [];
      const out: FactRow[] = [];
      if (typeof value.gitBranch === 'string' && value.gitBranch !== '' && value.gitBranch !== branch) {
        branch = value.gitBranch;
        out.push({ kind: 'branch', name: branch });
      }
      const record = toRecord(value);
      if (record?.kind === 'user') {
        if (record.said === 'prompt' && !RUN_DIALECT.isOwnPrompt(record.text)) out.push({ kind: 'prompt', text: record.text });
        else if (record.said === 'summary') out.push({ kind: 'summary', text: record.text });
      } else if (record?.kind === 'assistant') {
        if (record.failure === null && record.text !== '') out.push({ kind: 'said', text: record.text });
        const items = checklistOf(isObj(value.message) ? value.message.content : null);
        if (items !== null) out.push({ kind: 'checklist', items });
      }
      for (const change of scope.row(value)) out.push({ kind: 'scope', change });
      for (const run of runs.row(value)) out.push({ kind: 'run', run, changed: run.ok && WRITING_TOOLS.has(run.tool) ? run.files : [] });
      return out;
    },
  };
}
