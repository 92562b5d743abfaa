// The reader the live tail feeds (and the tail's benchmark measures): Claude Code's rows into the meter,
// with the session's own state (session-scope.ts) and its tool runs (tool-runs.ts) read off the same
// lines, each line parsed once and handed to each of them. Pure.

import type { ScopeChange } from '../core/document/session-scope.js';
import type { ToolRun } from '../core/dead-ends/tool-run.js';
import { createTranscriptReader, type RowTap, type TranscriptReader } from '../core/meter/transcript-reader.js';
import { createScopeReader, mayBeScopeAttachment } from './session-scope.js';
import { createToolRunReader } from './tool-runs.js';
import { TRANSCRIPT_ROWS } from './transcript-rows.js';

// `more`: other readers of the same parsed rows (the coverage scorer's facts, claude-code/fact-rows.ts).
export function createSessionReader(
  on: { scope?: (changes: ScopeChange[]) => void; toolRun?: (run: ToolRun) => void },
  more: readonly RowTap[] = [],
): TranscriptReader {
  const scope = createScopeReader();
  const runs = createToolRunReader();
  return createTranscriptReader(TRANSCRIPT_ROWS, {
    taps: [
      {
        alsoWants: mayBeScopeAttachment,
        row: (value) => {
          const changes = scope.row(value);
          if (changes.length > 0) on.scope?.(changes);
        },
      },
      {
        // Calls and results are assistant and user rows, which the meter parses anyway (mayMoveMeter).
        row: (value) => {
          for (const run of runs.row(value)) on.toolRun?.(run);
        },
      },
      ...more,
    ],
  });
}
