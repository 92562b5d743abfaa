// `flower-pty eval compaction` on every public transcript the repository ships (test/fixtures/shared, each
// folder with its licence): it reads them all, scores each compaction, and prints what docs/eval.md shows.
// The categories docs/eval.md draws conclusions from must have facts here, or the figures say nothing.
import t from 'tap';
import type { Test } from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { runEval } from '../src/commands/eval.js';
import { fixturesDir } from './helpers/fixtures.js';
import { FLOWER_BIN, REPO } from './helpers/flower-run.js';

const FOLDERS = ['spotter-2.1.39', 'spotter-compactions-2.1.39', 'cctrace-2.0.76'].map(
  (f) => `test/fixtures/shared/${f}`,
);

type Score = Record<string, { found: number; total: number; missing: string[] }>;
interface Report {
  summaries: Array<{ transcript: string; line: number; categories: Score; since_previous: Score }>;
  totals: Record<string, { found: number; total: number }>;
}

async function report(t: Test, paths: string[]): Promise<Report> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runEval({
    what: 'compaction',
    paths,
    json: true,
    cwd: REPO,
    env: {},
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  t.equal(code, 0, 'exit 0');
  t.same(err, [], 'no note: every file is a transcript read whole');
  return JSON.parse(out.join('\n')) as Report;
}

t.test(
  'the new public transcripts: a manual and an auto compaction, each category docs/eval.md reads has facts',
  async (t) => {
    const doc = await report(t, [join(fixturesDir(), 'spotter-compactions-2.1.39')]);
    t.same(
      doc.summaries.map((s) => [s.transcript.split('/').pop(), s.line]),
      [
        ['258c7280-ae70-4798-800f-63464d01a85d.jsonl', 1257],
        ['ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl', 1482],
      ],
      'one summary each, at the line the NOTICE names',
    );
    for (const s of doc.summaries) {
      const row = JSON.parse(readFileSync(s.transcript, 'utf8').split('\n')[s.line - 1]!) as {
        isCompactSummary?: boolean;
      };
      t.equal(row.isCompactSummary, true, `${s.line} is the summary row`);
    }
    for (const c of ['files', 'dead_ends', 'identifiers'])
      t.ok(doc.totals[c]!.total > 0, `${c}: facts to score (${doc.totals[c]!.total})`);
    t.ok(doc.totals.files!.found > 0, 'files: found in the summaries');
    t.ok(doc.totals.files!.found <= doc.totals.files!.total);
    // The manual compaction tells its one real dead end in words, not by its command: the rule finds none.
    const manual = doc.summaries.find((s) => s.transcript.endsWith('ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl'))!;
    t.same(
      [manual.categories.dead_ends!.found, manual.categories.dead_ends!.total],
      [0, 3],
      'the figure docs/eval.md explains',
    );
    t.ok(
      manual.categories.dead_ends!.missing.some((m) => m.startsWith('git add -A && git commit')),
      'the commit the hook refused is among the missing',
    );
  },
);

t.test('a transcript that never compacted is read and gives no row', async (t) => {
  const doc = await report(t, [join(fixturesDir(), 'cctrace-2.0.76')]);
  t.same(doc.summaries, []);
});

t.test('docs/eval.md shows exactly what the command prints on all the shipped public transcripts', async (t) => {
  const command = `flower-pty eval compaction ${FOLDERS.join(' ')}`;
  const r = spawnSync(process.execPath, [FLOWER_BIN, 'eval', 'compaction', ...FOLDERS], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stderr, '');
  const text = readFileSync(join(REPO, 'docs', 'eval.md'), 'utf8');
  const block = text.split(`\`\`\`text\n$ ${command}\n`)[1]?.split('```')[0] ?? '';
  t.ok(block.split('\n').length >= 10, 'docs/eval.md holds the block');
  t.equal(block, r.stdout, 'the block is the output, figure for figure');
  t.match(r.stdout, /total of 5 summaries/);
});
