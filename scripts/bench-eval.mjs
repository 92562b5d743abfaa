// `flower-pty eval compaction` over 100 MB of transcripts: a folder of ten 10 MB transcripts made of the
// real fixture sessions (each with its compaction summaries), read by the built command in a fresh process
// (so peak RSS is its own); wall and CPU time, summaries scored, peak RSS. A part of scripts/bench.mjs;
// prints nothing itself.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTranscript } from './bench-tail.mjs';

const HERE = fileURLToPath(import.meta.url);
const REPO = join(dirname(HERE), '..');

// Child mode: the command itself on the folder, its JSON counted.
if (process.argv[2] === '--eval-child') {
  const { runEval } = await import(join(REPO, 'dist', 'commands', 'eval.js'));
  let out = '';
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await runEval({
    what: 'compaction',
    paths: [process.argv[3]],
    json: true,
    cwd: REPO,
    env: {},
    out: (l) => (out += l),
    err: () => {},
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    JSON.stringify({
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      summaries: JSON.parse(out).summaries.length,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
  process.exit(0);
}

export async function evalBench({ mb = 100, files = 10 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'flower-bench-eval-'));
  try {
    const folder = join(dir, 'projects', '-home-me-proj');
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < files; i++) await writeTranscript(join(folder, `session-${i}.jsonl`), (mb * 1e6) / files);
    const bytes = readdirSync(folder).reduce((n, f) => n + statSync(join(folder, f)).size, 0);
    const r = spawnSync(process.execPath, [HERE, '--eval-child', join(dir, 'projects')], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (r.status !== 0) return { error: r.stderr.trim().split('\n').slice(-1)[0] };
    return { bytes, files, ...JSON.parse(r.stdout.trim().split('\n').at(-1)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Alone: node scripts/bench-eval.mjs [megabytes]
if (process.argv[1] === HERE && process.argv[2] !== '--eval-child')
  console.log(JSON.stringify(await evalBench({ mb: Number(process.argv[2] ?? 100) })));
