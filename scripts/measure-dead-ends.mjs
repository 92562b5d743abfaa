// The failure record measured on the real transcripts in test/fixtures/ (docs/dead-ends.md keeps the
// numbers): per transcript, its main thread's failures (entries, and tries in all), how many of the failures
// before each of Claude Code's compactions its summary mentions (the one handoff-like document a fixture
// has), and the reader's time per MB with the share of it the record takes. Needs `npm run build`. Prints a table.
import { readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = join(REPO, 'test', 'fixtures');
// others' transcripts, and the pinned release's whole sessions
const ROOTS = ['shared', join('claude-code', '2.1.332', 'sessions')];
const dist = (p) => import(join(REPO, 'dist', p));
const { createSessionReader } = await dist('claude-code/session-reader.js');
const { createTranscriptReader } = await dist('core/meter/transcript-reader.js');
const { TRANSCRIPT_ROWS } = await dist('claude-code/transcript-rows.js');
const { createScopeReader, mayBeScopeAttachment } = await dist('claude-code/session-scope.js');
const { EMPTY_FAILURES, recordRun } = await dist('core/dead-ends/failure-record.js');
const { mentions } = await dist('core/dead-ends/dead-end-watch.js');
const { emptyDoc } = await dist('core/document/handoff-doc.js');

const { createToolRunReader } = await dist('claude-code/tool-runs.js');

// The supervisor's reader (as claude-code/session-reader.ts composes it), with the time spent in the
// failure record (the tool runs read off the parsed rows, and recorded) counted apart: the best of ROUNDS.
const ROUNDS = 7;
function timed(bytes) {
  let best = { all: Infinity, record: Infinity };
  for (let i = 0; i < ROUNDS; i++) {
    const scope = createScopeReader();
    const runs = createToolRunReader();
    let record = EMPTY_FAILURES;
    let inRecord = 0;
    const reader = createTranscriptReader(TRANSCRIPT_ROWS, {
      taps: [
        { alsoWants: mayBeScopeAttachment, row: (v) => void scope.row(v) },
        {
          row: (v) => {
            const t0 = performance.now();
            for (const run of runs.row(v)) record = recordRun(record, run);
            inRecord += performance.now() - t0;
          },
        },
      ],
    });
    const t0 = performance.now();
    reader.push(bytes);
    reader.end();
    const all = performance.now() - t0;
    if (all < best.all) best = { all, record: inRecord };
  }
  return best;
}

const files = ROOTS.flatMap((root) =>
  readdirSync(join(FIXTURES, root), { recursive: true }).map((f) => join(root, String(f))),
)
  .filter((f) => f.endsWith('.jsonl') && !f.includes('subagents') && !f.includes('walk-away'))
  .sort();
console.log(
  '| transcript | MB | failures (calls) | tries | compaction summaries: failures before / mentioned | reader ms/MB | of it, the failure record ms/MB |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const f of files) {
  const bytes = readFileSync(join(FIXTURES, f));
  let record = EMPTY_FAILURES;
  const reader = createSessionReader({ toolRun: (run) => void (record = recordRun(record, run)) });
  const summaries = [];
  for (const line of bytes.toString('utf8').split('\n')) {
    reader.push(`${line}\n`);
    if (!line.includes('"isCompactSummary":true')) continue;
    const row = JSON.parse(line);
    const c = row.message?.content;
    const text = typeof c === 'string' ? c : Array.isArray(c) ? c.map((b) => b?.text ?? '').join('\n') : '';
    const before = record.failures;
    summaries.push(`${before.length} / ${before.filter((x) => mentions({ ...emptyDoc(), deadends: text }, x)).length}`);
  }
  reader.end();
  const mb = bytes.length / 1e6;
  const time = timed(bytes);
  const tries = record.failures.reduce((n, x) => n + x.tries, 0);
  console.log(
    `| ${f} | ${mb.toFixed(2)} | ${record.failures.length} | ${tries} | ${summaries.join(', ') || '-'} | ${(time.all / mb).toFixed(1)} | ${(time.record / mb).toFixed(2)} (${((time.record / time.all) * 100).toFixed(1)}%) |`,
  );
}
