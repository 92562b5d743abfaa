// One transcript's compaction summaries, each scored twice against the main thread before it (from its start,
// and since the previous compaction): bytes in (as
// they stream off the disk), the summaries out with their 1-based line and their coverage score. The
// facts are collected as the lines go by, so a summary is scored against what came before it and nothing
// of the transcript is held but the facts. The dialect's row reader is handed in as a value. Pure.

import { createLineSplitter } from '../meter/jsonl.js';
import { createFactCollector } from '../coverage/successor-facts.js';
import { scoreDocument, type CoverageScore } from '../coverage/coverage-score.js';
import type { FactRowReader } from '../coverage/fact-row.js';

export interface ScoredSummary {
  /** the summary row's 1-based line in its file */
  line: number;
  /** against the facts from the transcript's start */
  score: CoverageScore;
  /** against the facts since the previous compaction (what the model had in hand besides that summary) */
  since: CoverageScore;
}

export interface CompactionScan {
  push(chunk: Uint8Array | string): void;
  end(): CompactionScanResult;
}

export interface CompactionScanResult {
  summaries: ScoredSummary[];
  /** lines that parsed as JSON */
  rows: number;
  /** lines that did not (a torn write, a foreign line) */
  junk: number;
  /** the first non-empty line did not parse: not a JSONL file */
  notJsonl: boolean;
  /** the file's last line had no line end and did not parse: a write cut short (a session still writing) */
  truncatedTail: boolean;
  /** lines over the splitter's bound, skipped */
  dropped: number;
}

export function createCompactionScan(reader: FactRowReader): CompactionScan {
  const splitter = createLineSplitter();
  const facts = createFactCollector();
  // The facts since the previous compaction: a collector begun anew after each summary.
  let since = createFactCollector();
  const summaries: ScoredSummary[] = [];
  let rows = 0;
  let junk = 0;
  let first: boolean | null = null; // whether the first non-empty line parsed
  let lastFailed = false;

  function take(lines: string[]): void {
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.length === 0) continue;
      // Until the first line has parsed, parse everything: that is how a file that is not JSONL is told.
      if (first !== null && !reader.mayHold(line)) {
        lastFailed = false;
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        first ??= false;
        junk += 1;
        lastFailed = true;
        continue;
      }
      first ??= true;
      lastFailed = false;
      rows += 1;
      for (const row of reader.row(value)) {
        if (row.kind === 'summary') {
          // Only the score is kept: a folder of a thousand summaries must not hold a thousand sets of facts.
          summaries.push({
            line: splitter.lineNumber(i),
            score: scoreDocument(facts.facts(), row.text),
            since: scoreDocument(since.facts(), row.text),
          });
          since = createFactCollector();
        } else {
          facts.push(row);
          since.push(row);
        }
      }
    }
  }

  return {
    push: (chunk) => take(splitter.push(chunk)),
    end() {
      const tail = splitter.end();
      take(tail);
      return {
        summaries,
        rows,
        junk,
        notJsonl: first === false,
        truncatedTail: tail.length > 0 && lastFailed,
        dropped: splitter.dropped,
      };
    },
  };
}
