#!/usr/bin/env node
// Rendering cost of the split view's session pane: a large ANSI stream through @xterm/headless and
// coalesced blessed frames into an off-screen screen, beside the same stream through tmux, and the
// idle CPU of flower-pty with a fake claude sitting at its prompt. Prints a table; asserts nothing.
// Usage: npm run build && node scripts/bench-render.mjs [MB]   (default 50)

import {
  createWriteStream,
  mkdtempSync,
  openSync,
  readSync,
  closeSync,
  rmSync,
  writeFileSync,
  readFileSync,
  mkdirSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { tmpdir, cpus } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import blessed from 'blessed';
import { createSessionPane } from '../dist/tui/session-pane.js';
import { createFrameScheduler } from '../dist/tui/frame-scheduler.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const MB = Number(process.argv[2] ?? 50);
const COLS = 120;
const ROWS = 40;
const CHUNK = 64 * 1024;

// A mix of what claude and its tools print: coloured listings, SGR-heavy prose, full-screen repaints.
function buildStream(path, bytes) {
  const out = createWriteStream(path);
  const words = ['context', 'handoff', 'document', 'session', '中文', 'emoji😀', 'truecolor', 'spinner'];
  let written = 0;
  let i = 0;
  const blocks = [];
  while (written < bytes) {
    let block = '';
    const kind = i % 3;
    if (kind === 0) {
      for (let n = 0; n < 40; n++)
        block += `drwxr-xr-x  4 root root 4096 May  9 \u001b[34;1mdir${i}-${n}\u001b[0m  \u001b[32mfile.ts\u001b[0m\r\n`;
    } else if (kind === 1) {
      for (let n = 0; n < 40; n++) {
        block +=
          words
            .map(
              (w, k) =>
                `\u001b[38;5;${(i + n + k) % 256}m${w}\u001b[38;2;${(n * 7) % 256};${(k * 31) % 256};200m·\u001b[0m`,
            )
            .join(' ') + '\r\n';
      }
    } else {
      block += '\u001b[H';
      for (let row = 1; row <= ROWS; row++)
        block += `\u001b[${row};1H\u001b[2K\u001b[7m ${row} \u001b[0m \u001b[1mframe ${i}\u001b[0m ${'─'.repeat(60)}`;
    }
    blocks.push(block);
    written += Buffer.byteLength(block);
    i++;
    if (blocks.length >= 256) out.write(blocks.splice(0).join(''));
  }
  out.write(blocks.join(''));
  return new Promise((resolve) => out.end(resolve)).then(() => written);
}

function* chunks(path) {
  const fd = openSync(path, 'r');
  const buf = Buffer.alloc(CHUNK);
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) return;
      // A real pty read may split UTF-8; node-pty decodes for us, so decode whole chunks here too.
      yield buf.toString('utf8', 0, n);
    }
  } finally {
    closeSync(fd);
  }
}

async function throughPane(path, render) {
  const output = Object.assign(createWriteStream('/dev/null'), { isTTY: true, columns: COLS + 2, rows: ROWS + 2 });
  const screen = blessed.screen({
    input: new PassThrough(),
    output,
    terminal: 'xterm-256color',
    fullUnicode: true,
    smartCSR: true,
    warnings: false,
  });
  const pane = createSessionPane({ screen, cols: COLS, rows: ROWS, onReply: () => {} });
  pane.box.width = COLS + 2;
  pane.box.height = ROWS + 2;
  const frames = createFrameScheduler(() => screen.render());
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let pending = [];
  let bytes = 0;
  for (const chunk of chunks(path)) {
    bytes += Buffer.byteLength(chunk);
    pending.push(
      new Promise((resolve) =>
        pane.write(chunk, () => {
          if (render) frames.request();
          resolve();
        }),
      ),
    );
    // Wait every 16 chunks, as a pty would be read no faster than it is parsed.
    if (pending.length >= 16) {
      await Promise.all(pending);
      pending = [];
      await new Promise((r) => setImmediate(r));
    }
  }
  await Promise.all(pending);
  if (render) await new Promise((r) => setTimeout(r, 40)); // the last frame
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const result = { bytes, seconds, cpu: (cpu.user + cpu.system) / 1e6, frames: render ? frames.frames : 0 };
  frames.dispose();
  pane.dispose();
  screen.destroy();
  return result;
}

function procCpu(pid) {
  // utime + stime in clock ticks (fields 14 and 15 of /proc/<pid>/stat, after the command name).
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function throughTmux(path) {
  const socket = `flower-bench-${process.pid}`;
  const tmux = (...args) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' }).trim();
  tmux('new-session', '-d', '-s', 'b', '-x', String(COLS), '-y', String(ROWS), 'sleep 600');
  try {
    const server = Number(tmux('display-message', '-p', '#{pid}'));
    const cpu0 = procCpu(server);
    const t0 = performance.now();
    tmux('new-window', '-d', '-t', 'b:', `cat ${path}; tmux wait-for -S bench-done`);
    tmux('wait-for', 'bench-done');
    const seconds = (performance.now() - t0) / 1000;
    return { seconds, cpu: procCpu(server) - cpu0 };
  } finally {
    tmux('kill-server');
  }
}

async function idleFlower() {
  const root = mkdtempSync(join(tmpdir(), 'flower-idle-'));
  const home = join(root, 'home');
  mkdirSync(home);
  const socket = `flower-idle-${process.pid}`;
  const tmux = (...args) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' }).trim();
  const fake = join(REPO, 'test', 'fixtures', 'programs', 'fake-claude.mjs');
  tmux(
    'new-session',
    '-d',
    '-s',
    'i',
    '-x',
    '160',
    '-y',
    '40',
    `cd ${REPO} && exec env HOME=${home} CLAUDE_CONFIG_DIR=${home}/.claude LANG=C.UTF-8 node bin/flower-pty.js --window 200k --claude ${fake} --workbench ${join(root, 'wb')}`,
  );
  try {
    const pid = Number(tmux('display-message', '-p', '#{pane_pid}'));
    await new Promise((r) => setTimeout(r, 2000));
    const cpu0 = procCpu(pid);
    const seconds = 10;
    await new Promise((r) => setTimeout(r, seconds * 1000));
    return { seconds, cpu: procCpu(pid) - cpu0 };
  } finally {
    tmux('kill-server');
    rmSync(root, { recursive: true, force: true });
  }
}

const dir = mkdtempSync(join(tmpdir(), 'flower-bench-'));
const file = join(dir, 'stream.ansi');
try {
  const bytes = await buildStream(file, MB * 1024 * 1024);
  const mb = bytes / 1024 / 1024;
  const emulatorOnly = await throughPane(file, false);
  const pane = await throughPane(file, true);
  const tmux = throughTmux(file);
  const idle = await idleFlower();
  const row = (name, r, extra = '') =>
    `| ${name.padEnd(40)} | ${(mb / r.seconds).toFixed(1).padStart(6)} | ${r.seconds.toFixed(2).padStart(7)} | ${r.cpu.toFixed(2).padStart(7)} | ${extra.padEnd(22)} |`;
  const lines = [
    `node ${process.version} · ${cpus().length} cores · ${cpus()[0]?.model ?? '?'} · stream ${mb.toFixed(1)} MB · pane ${COLS}x${ROWS}`,
    '',
    '| path                                     |   MB/s | wall s  |  CPU s  | notes                  |',
    '|------------------------------------------|--------|---------|---------|------------------------|',
    row('xterm-headless only (no frames)', emulatorOnly),
    row('session pane: emulator + blessed frames', pane, `${pane.frames} frames`),
    row('tmux 3 (cat in a pane; server CPU)', tmux),
    '',
    `flower-pty idle, fake claude at its prompt: ${idle.cpu.toFixed(2)} CPU s over ${idle.seconds} s (${((idle.cpu / idle.seconds) * 100).toFixed(1)}% of a core)`,
  ];
  console.log(lines.join('\n'));
  writeFileSync(join(dir, 'done'), '');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
