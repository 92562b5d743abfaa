// A seeded successor's transcript (Claude Code 2.1.332) as the steps its rediscovery cost is counted from
// (core/eval/rediscovery.ts): each main-thread response with the input tokens its request carried
// (`message.usage`: input_tokens + cache_creation_input_tokens + cache_read_input_tokens, written on every
// content row of the response, so counted once per `message.id`), then its `tool_use` blocks: a Read's
// `file_path`, and whether the tool changes a file (Write, Edit, MultiEdit, NotebookEdit). Subagents'
// rows (`isSidechain`) are not the successor's own steps. Pure.

import type { SuccessorStep } from '../core/eval/rediscovery.js';
import { WRITING_TOOLS } from './fact-rows.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const num = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : 0);

export function successorSteps(transcript: string): SuccessorStep[] {
  const out: SuccessorStep[] = [];
  for (const line of transcript.split('\n')) {
    if (!line.includes('"assistant"')) continue;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObj(row) || row.type !== 'assistant' || row.isSidechain === true || !isObj(row.message)) continue;
    const m = row.message;
    const u = isObj(m.usage) ? m.usage : {};
    out.push({
      kind: 'request',
      id: typeof m.id === 'string' ? m.id : `line:${out.length}`,
      tokens: num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens),
    });
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (!isObj(b) || b.type !== 'tool_use' || typeof b.name !== 'string') continue;
      const input = isObj(b.input) ? b.input : {};
      const read = b.name === 'Read' && typeof input.file_path === 'string' ? input.file_path : null;
      out.push({ kind: 'call', tool: b.name, read, changes: WRITING_TOOLS.has(b.name) });
    }
  }
  return out;
}
