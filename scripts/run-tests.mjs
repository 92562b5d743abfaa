#!/usr/bin/env node
// Runs the tap suite and ends with the one line CI reads: "N passed, N failed".
// tap prints its own summary as "# { total, pass, fail }" and never that line (docs/libraries.md §5).
import { spawn } from 'node:child_process';
// The fault tests SIGKILL run servers, which then cannot remove their temp folders: the suite ends with the
// sweep a starting run does (src/adapters/run-dir.ts), so it leaves no flower-pty-run-* folder behind.
import { sweepStaleRunDirs } from '../dist/adapters/run-dir.js';

const args = ['tap', '--reporter=tap', ...process.argv.slice(2)];
const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'inherit'] });
let tail = '';
// CI keeps only the end of what the suite prints (the coverage table fills it), so the failures are said again
// just above the last line: each failing file and the first failing assertions inside it.
const failures = [];
let partial = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  const text = chunk.toString('utf8');
  tail = (tail + text).slice(-4096);
  const lines = (partial + text).split('\n');
  partial = lines.pop() ?? '';
  for (const line of lines) if (/^\s*not ok \d+/.test(line) && failures.length < 40) failures.push(line.trimEnd());
});
child.on('close', async (code) => {
  const swept = await sweepStaleRunDirs();
  if (swept.length > 0)
    console.log(`# removed ${swept.length} temp folder(s) of run servers killed by the fault tests`);
  if (failures.length > 0) console.log(['# what failed:', ...failures.map((line) => `#   ${line}`)].join('\n'));
  const summaries = [...tail.matchAll(/^# \{ total: (\d+)(?:, pass: (\d+))?(?:, fail: (\d+))?[^}]*\}/gm)];
  const last = summaries.at(-1);
  const passed = last ? Number(last[2] ?? 0) : 0;
  let failed = last ? Number(last[3] ?? 0) : 0;
  // A non-zero exit with nothing failed means the run itself broke (a crash, a coverage gate): count it.
  if (code !== 0 && failed === 0) failed = 1;
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code ?? 1);
});
