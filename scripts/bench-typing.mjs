#!/usr/bin/env node
// The typing patterns alone (npm run bench runs them too): keystroke echo measured from outside, direct,
// tmux, --plain and the split view side by side on a 140×45 terminal, one table row per pattern and path.
// `node scripts/bench-typing.mjs [--quick] [--rounds N]` after `npm run build`. Run it on a quiet machine
// (a loaded one moves every path; the ratio to tmux, measured in the same run, moves less).
import os from 'node:os';
import { typingPatterns, typingRows } from './bench-terminal.mjs';

const quick = process.argv.includes('--quick');
const at = process.argv.indexOf('--rounds');
const rounds = at > 0 ? Number(process.argv[at + 1]) : quick ? 1 : 3;
const f = (n, digits = 1) => (typeof n === 'number' && Number.isFinite(n) ? n.toFixed(digits) : '–');
const loadBefore = os.loadavg()[0];
const patterns = await typingPatterns({ rounds, scale: quick ? 0.25 : 1 });
console.log(
  `Taken ${new Date().toISOString()} on ${os.cpus()[0]?.model ?? '?'}, ${os.cpus().length} cpus; load average ${f(loadBefore)} before, ${f(os.loadavg()[0])} after; ${rounds} round(s)${quick ? ', --quick' : ''}.\n`,
);
console.log('| measure | path | value | reference (same run) | target |');
console.log('| --- | --- | --- | --- | --- |');
for (const pattern of patterns) for (const cells of typingRows(pattern, f)) console.log(`| ${cells.join(' | ')} |`);
