// Transcript tail catch-up: the supervisor's pipeline (tail → line splitter → record → meter) over a
// synthetic transcript of real fixture lines, then the cost of one more append, and peak RSS. One
// child process per size so RSS is that case's own. A part of scripts/bench.mjs; prints nothing itself.
import { spawnSync } from 'node:child_process';
import { appendFileSync, createWriteStream, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(import.meta.url);
const REPO = join(dirname(HERE), '..');
// The real transcripts live in the repository (the pinned release's sessions under test/fixtures/claude-code/,
// and test/fixtures/shared), so a fresh clone can bench.
const FIXTURES = [
  join(REPO, 'test', 'fixtures', 'claude-code', '2.1.332', 'sessions'),
  join(REPO, 'test', 'fixtures', 'shared'),
];

function fixtureBlocks() {
  const files = FIXTURES.flatMap((dir) =>
    readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.jsonl') && !f.includes('subagents'))
      .map((f) => join(dir, f)),
  );
  return files.map((f) => readFileSync(f)).filter((b) => b.length > 0);
}

export async function writeTranscript(path, bytes) {
  const blocks = fixtureBlocks();
  const out = createWriteStream(path);
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    const b = blocks[i % blocks.length];
    written += b.length;
    if (!out.write(b)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return written;
}

// The readers compared: the supervisor's own (the meter with the session's state and its failure record
// read off the same lines), the one before the failure record (the meter and the session's state only), and
// the supervisor's with the coverage scorer beside it (docs/eval.md: the facts collected off the same rows).
async function makeReader(kind) {
  if (kind === 'with-scorer') {
    const { createSessionReader } = await import(join(REPO, 'dist', 'claude-code', 'session-reader.js'));
    const { EMPTY_FAILURES, recordRun } = await import(join(REPO, 'dist', 'core', 'dead-ends', 'failure-record.js'));
    const { factRowTap, runFactRow, scopeFactRow } = await import(join(REPO, 'dist', 'claude-code', 'fact-rows.js'));
    const { createFactCollector } = await import(join(REPO, 'dist', 'core', 'eval', 'successor-facts.js'));
    // As a live run would keep them: the facts take the run's own failure record rather than keep a second.
    let record = EMPTY_FAILURES;
    const facts = createFactCollector({ failures: () => record });
    const onRun = (run) => {
      record = recordRun(record, run);
      facts.push(runFactRow(run));
    };
    return createSessionReader(
      { scope: (changes) => changes.forEach((c) => facts.push(scopeFactRow(c))), toolRun: onRun },
      [factRowTap(facts.push)],
    );
  }
  const { createTranscriptReader } = await import(join(REPO, 'dist', 'core', 'meter', 'transcript-reader.js'));
  const { TRANSCRIPT_ROWS } = await import(join(REPO, 'dist', 'claude-code', 'transcript-rows.js'));
  const { createScopeReader, mayBeScopeAttachment } = await import(
    join(REPO, 'dist', 'claude-code', 'session-scope.js')
  );
  if (kind === 'without-failures') {
    const scope = createScopeReader();
    return createTranscriptReader(TRANSCRIPT_ROWS, {
      taps: [{ alsoWants: mayBeScopeAttachment, row: (v) => void scope.row(v) }],
    });
  }
  const { createSessionReader } = await import(join(REPO, 'dist', 'claude-code', 'session-reader.js'));
  const { EMPTY_FAILURES, recordRun } = await import(join(REPO, 'dist', 'core', 'dead-ends', 'failure-record.js'));
  let record = EMPTY_FAILURES;
  return createSessionReader({ scope: () => {}, toolRun: (run) => void (record = recordRun(record, run)) });
}

// Child mode: catch up on `file` the way the supervisor does, then time single appends.
if (process.argv[2] === '--one') {
  const file = process.argv[3];
  const { openTranscriptTail } = await import(join(REPO, 'dist', 'adapters', 'transcript-tail.js'));
  const size = statSync(file).size;
  const reader = await makeReader(process.argv[4] ?? 'supervisor'); // the supervisor's own pipeline: splitter, parser, meter, taps
  const meter = reader.meter;
  let seen = 0;
  let readings = 0;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let resolveDone;
  const done = new Promise((r) => (resolveDone = r));
  const tail = openTranscriptTail({
    path: file,
    pollMs: 50,
    onChunk(bytes) {
      seen += bytes.length;
      for (const s of reader.push(bytes)) if (s.kind === 'reading') readings += 1;
      if (seen >= size) resolveDone();
    },
    onReset() {},
  });
  const keepAlive = setInterval(() => {}, 1000); // the tail's timer is unref'd, as it should be in the supervisor
  await done;
  clearInterval(keepAlive);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const context = meter.context;
  // Per append: one assistant record with new usage, read with catchUp() as a hook does.
  const appends = [];
  for (let i = 0; i < 200; i++) {
    const line =
      JSON.stringify({
        type: 'assistant',
        sessionId: 's',
        message: {
          id: `m${i}`,
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: 'x'.repeat(400) }],
          usage: { input_tokens: 10, cache_read_input_tokens: 1000 + i, output_tokens: 5 },
        },
      }) + '\n';
    appendFileSync(file, line);
    const a0 = process.hrtime.bigint();
    tail.catchUp();
    appends.push(Number(process.hrtime.bigint() - a0) / 1e3);
  }
  tail.close();
  appends.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      bytes: size,
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      readings,
      context,
      afterAppends: meter.context,
      appendP50us: appends[100],
      appendP99us: appends[198],
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
  process.exit(0);
}

function catchUpOnce(file, kind) {
  const r = spawnSync(process.execPath, [HERE, '--one', file, kind], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) return { error: r.stderr.trim().split('\n').slice(-1)[0] };
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

// Catch-up of a `mb` MB transcript in a fresh process; the file is made in os.tmpdir() and removed.
// `withoutFailures`: the same file read without the failure record (docs/dead-ends.md: within 10%).
export async function tailCatchUp(mb) {
  const dir = mkdtempSync(join(tmpdir(), 'flower-bench-tail-'));
  try {
    const file = join(dir, 'transcript.jsonl');
    await writeTranscript(file, mb * 1e6);
    const without = catchUpOnce(file, 'without-failures');
    const r = catchUpOnce(file, 'supervisor');
    const scorer = catchUpOnce(file, 'with-scorer');
    return r.error ? r : { ...r, withoutFailures: without.error ? null : without, withScorer: scorer };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
