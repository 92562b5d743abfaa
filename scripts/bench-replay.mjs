#!/usr/bin/env node
// Replay throughput: the built replay (dist/) on the largest fixture and on a synthetic ~200 MB
// transcript made of fixture lines; prints MB/s and peak RSS per case. Asserts nothing.
// Run after `npm run build`: node scripts/bench-replay.mjs [megabytes]
import { spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync, readdirSync, rmSync, statSync, mkdtempSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);
const repo = path.resolve(path.dirname(here), '..');
// The real transcripts live in the repository (test/fixtures/shared and the pinned release's sessions under
// test/fixtures/claude-code/), so a fresh clone can bench.
const fixtures = path.join(repo, 'test', 'fixtures', 'shared');
const cc332 = path.join(repo, 'test', 'fixtures', 'claude-code', '2.1.332', 'sessions');

// Child mode: replay one file and report; a fresh process per case so peak RSS is that case's own.
if (process.argv[2] === '--one') {
  const file = process.argv[3];
  const json = process.argv[4] === 'json';
  const { runReplay } = await import(path.join(repo, 'dist', 'commands', 'replay.js'));
  let outputLines = 0;
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  await runReplay({ file, window: 200_000, json, out: () => (outputLines += 1) });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  // resourceUsage().maxRSS is in kilobytes on Linux.
  console.log(JSON.stringify({ seconds, cpuSeconds, outputLines, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

function runCase(label, file, json = true) {
  const bytes = statSync(file).size;
  const r = spawnSync(process.execPath, [here, '--one', file, json ? 'json' : 'human'], { encoding: 'utf8' });
  if (r.status !== 0) {
    console.log(`${label}: failed (${r.status}) ${r.stderr.trim().split('\n')[0]}`);
    return;
  }
  const { seconds, cpuSeconds, outputLines, maxRssMb } = JSON.parse(r.stdout.trim().split('\n').at(-1));
  const mb = bytes / 1e6;
  console.log(
    [
      label.padEnd(34),
      mb.toFixed(1).padStart(8),
      seconds.toFixed(2).padStart(8),
      (mb / seconds).toFixed(1).padStart(8),
      (mb / cpuSeconds).toFixed(1).padStart(10),
      maxRssMb.toFixed(0).padStart(9),
      String(outputLines).padStart(8),
    ].join(' '),
  );
}

const jsonl = (dir) =>
  readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.jsonl') && !f.includes('subagents'))
    .map((f) => path.join(dir, f));
const all = [...jsonl(path.join(fixtures, 'spotter-2.1.39')), ...jsonl(cc332)];
const largest = all.reduce((a, b) => (statSync(a).size >= statSync(b).size ? a : b));

const targetMb = Number(process.argv[2]) || 200;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'flower-bench-'));
const synthetic = path.join(tmp, 'synthetic.jsonl');
try {
  // Every fixture's lines in turn, repeated until the target size: real shapes, real line lengths.
  const blocks = all.map((f) => readFileSync(f));
  const out = createWriteStream(synthetic);
  let written = 0;
  for (let i = 0; written < targetMb * 1e6; i++) {
    const b = blocks[i % blocks.length];
    written += b.length;
    if (!out.write(b)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');

  // Wall-clock MB/s moves with whatever else the machine runs; MB per CPU-second (user+sys) much less.
  console.log(
    `node ${process.version}, ${os.cpus().length} cpus, load ${os.loadavg()[0].toFixed(1)}; window 200k; one process per case`,
  );
  console.log(
    [
      'case'.padEnd(34),
      'MB'.padStart(8),
      'seconds'.padStart(8),
      'MB/s'.padStart(8),
      'MB/cpu-s'.padStart(10),
      'peak RSS'.padStart(9),
      'out'.padStart(8),
    ].join(' '),
  );
  runCase(`largest fixture (${path.basename(largest).slice(0, 8)}…) --json`, largest);
  runCase('largest fixture, human', largest, false);
  runCase(`synthetic ${targetMb} MB --json`, synthetic);
  runCase(`synthetic ${targetMb} MB, human`, synthetic, false);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
