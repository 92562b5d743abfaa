#!/usr/bin/env node
// `flower-pty report` at scale: a lineage of 8 generations with 1 GB of transcripts in total, made of
// the real fixtures' lines (real shapes and lengths; session ids and timestamps rewritten so each
// generation is one session in time order). Reports wall time, CPU, peak RSS and the page's size.
// Run after `npm run build`: node scripts/bench-report.mjs [total MB] [generations]. Asserts nothing.
import { spawnSync } from 'node:child_process';
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(import.meta.url);
const repo = path.resolve(path.dirname(here), '..');
const dist = (p) => pathToFileURL(path.join(repo, 'dist', p)).href;
const fixtures = process.env.FLOWER_PTY_FIXTURES ?? path.resolve(repo, 'test/fixtures/shared');
const cc332 = path.resolve(repo, 'test/fixtures/claude-code/2.1.332/sessions');

// Child mode: one report in a fresh process, so the peak RSS is the report's own.
if (process.argv[2] === '--one') {
  const [workbench, output] = process.argv.slice(3);
  const { runReport } = await import(dist('commands/report.js'));
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  await runReport({ workbench, cwd: process.cwd(), output, open: false, json: false, env: process.env, out: () => {} });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  // resourceUsage().maxRSS is in kilobytes on Linux.
  console.log(
    JSON.stringify({
      seconds,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    }),
  );
  process.exit(0);
}

const jsonl = (dir) =>
  readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.jsonl') && !f.includes('subagents'))
    .map((f) => path.join(dir, f));

// Writes one generation's transcript: fixture blocks in turn until `bytes`, with its own session id
// and timestamps that advance through [from, to).
async function writeTranscript(file, { sessionId, bytes, from, to, blocks }) {
  const out = createWriteStream(file);
  const perByte = (to - from) / bytes;
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    const text = blocks[i % blocks.length]
      .replace(/"sessionId":"[^"]*"/g, `"sessionId":"${sessionId}"`)
      .replace(/"timestamp":"[^"]*"/g, () => `"timestamp":"${new Date(from + written * perByte).toISOString()}"`);
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
  return written;
}

// Builds the lineage, runs the report in a child, returns the figures; removes everything after.
export async function reportBench({ totalMb = 1000, generations = 8 } = {}) {
  const { createManifest, startGeneration, recordUsage, endGeneration, recordOriginalPrompt } = await import(
    dist('core/lineage/manifest.js')
  );
  const { transcriptPathFor } = await import(dist('claude-code/transcript-path.js'));
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'flower-bench-report-')));
  try {
    const project = path.join(root, 'project');
    const configDir = path.join(root, 'config');
    const workbench = path.join(project, '.flower');
    const archive = path.join(workbench, 'notes', 'archive', '交接');
    mkdirSync(archive, { recursive: true });
    const blocks = [...jsonl(cc332), ...jsonl(path.join(fixtures, 'spotter-2.1.39'))].map((f) =>
      readFileSync(f, 'utf8'),
    );
    const t0 = Date.parse('2026-11-30T20:00:00.000Z');
    const span = 40 * 60_000;
    let m = recordOriginalPrompt(
      createManifest({ step: 'work', cwd: project, window: 200_000, at: 150_000, now: new Date(t0).toISOString() }),
      'the benchmark task',
    );
    let bytes = 0;
    const doc = (n) =>
      `# 交接 · work\n\n## Doing · 现在在做\n\nGeneration ${n} of the benchmark.\n\n## Next · 下一步\n\nGo on with part ${n + 1}.\n`;
    for (let n = 1; n <= generations; n++) {
      const sessionId = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const from = t0 + (n - 1) * span;
      const file = transcriptPathFor(configDir, project, sessionId);
      mkdirSync(path.dirname(file), { recursive: true });
      bytes += await writeTranscript(file, {
        sessionId,
        bytes: (totalMb * 1e6) / generations,
        from,
        to: from + span - 60_000,
        blocks,
      });
      m = startGeneration(m, { generation: n, sessionId, now: new Date(from).toISOString() });
      m = recordUsage(m, {
        context: 140_000,
        costUsd: 1.5,
        numTurns: 300,
        now: new Date(from + span - 60_000).toISOString(),
      });
      const last = n === generations;
      m = endGeneration(m, {
        end: last ? 'quit' : 'handoff',
        now: new Date(from + span - 60_000).toISOString(),
        handoffPath: last ? null : path.join(workbench, 'notes', '交接-work.md'),
      });
      if (!last)
        writeFileSync(
          n === generations - 1
            ? path.join(workbench, 'notes', '交接-work.md')
            : path.join(archive, `work-2026-11-30T2${n}0000.000Z.md`),
          doc(n),
        );
    }
    writeFileSync(path.join(workbench, 'manifest.json'), JSON.stringify(m, null, 2));
    const page = path.join(root, 'report.html');
    const r = spawnSync(process.execPath, [here, '--one', workbench, page], {
      encoding: 'utf8',
      env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
    });
    if (r.status !== 0) return { error: `report failed (${r.status}): ${r.stderr.trim().split('\n')[0]}` };
    return { ...JSON.parse(r.stdout.trim().split('\n').at(-1)), bytes, generations, pageBytes: statSync(page).size };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const totalMb = Number(process.argv[2]) || 1000;
  const generations = Number(process.argv[3]) || 8;
  const r = await reportBench({ totalMb, generations });
  if (r.error) console.log(r.error);
  else {
    console.log(
      `report of ${r.generations} generations, ${(r.bytes / 1e6).toFixed(0)} MB of transcripts: ${r.seconds.toFixed(2)} s ` +
        `(${(r.bytes / 1e6 / r.seconds).toFixed(0)} MB/s, ${r.cpuSeconds.toFixed(2)} CPU s), peak RSS ${r.maxRssMb.toFixed(0)} MB, page ${(r.pageBytes / 1024).toFixed(0)} KB`,
    );
  }
}
