#!/usr/bin/env node
// Runs the tap suite and ends with the one line CI reads: "N passed, N failed".
// tap prints its own summary as "# { total, pass, fail }" and never that line (docs/libraries.md §5).
import { spawn } from 'node:child_process';

const args = ['tap', '--reporter=tap', ...process.argv.slice(2)];
const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'inherit'] });
let tail = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString('utf8')).slice(-4096);
});
child.on('close', (code) => {
  const summaries = [...tail.matchAll(/^# \{ total: (\d+)(?:, pass: (\d+))?(?:, fail: (\d+))?[^}]*\}/gm)];
  const last = summaries.at(-1);
  const passed = last ? Number(last[2] ?? 0) : 0;
  let failed = last ? Number(last[3] ?? 0) : 0;
  // A non-zero exit with nothing failed means the run itself broke (a crash, a coverage gate): count it.
  if (code !== 0 && failed === 0) failed = 1;
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code ?? 1);
});
