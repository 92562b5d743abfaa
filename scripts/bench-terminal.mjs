// Terminal paths side by side: a key in and its echo out (p50/p99), a large ANSI stream's throughput
// (MB/s and CPU seconds), and idle CPU, each through flower-pty --plain, the split view, tmux, and direct.
// A part of scripts/bench.mjs; exports functions that return numbers, prints nothing itself.
import { spawn } from '@lydell/node-pty';
import { execFileSync, spawnSync, spawn as spawnProcess } from 'node:child_process';
import {
  mkdtempSync,
  mkdirSync,
  readdirSync,
  rmSync,
  writeFileSync,
  chmodSync,
  readFileSync,
  openSync,
  writeSync,
  closeSync,
  existsSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const FLOWER = join(REPO, 'bin', 'flower-pty.js');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TICKS = 100; // clock ticks per second in /proc/<pid>/stat (USER_HZ on Linux)

// Every child answers --version as the pinned Claude Code does: flower-pty's release probe runs it,
// and a child that printed its ready line there would look ready before the run had started.
const VERSION_LINE = `[ "$1" = --version ] && { echo '2.1.332 (Claude Code)'; exit 0; }\n`;

// The child for every path: echoes each key (raw mode) or cats a file, then waits.
const ECHO = `#!/usr/bin/env node
if (process.argv[2] === '--version') { console.log('2.1.332 (Claude Code)'); process.exit(0); }
process.stdin.setRawMode(true);
process.stdout.write('ready\\r\\n');
process.stdin.on('data', (d) => { if (d[0] === 4) process.exit(0); process.stdout.write(d); });
`;
// The floor of any Node server that draws its client's terminal: a bare relay that opens the client's
// terminal by path (as the run server does) and copies keys to a pty and the echo back, nothing else.
// Beside tmux it shows what Node itself costs per key, apart from anything flower-pty does.
const RELAY_SERVER = (ptyModule) => `
const { createServer } = require('node:net');
const { openSync } = require('node:fs');
const tty = require('node:tty');
const { spawn } = require(${JSON.stringify(ptyModule)});
const [socketPath, prog] = process.argv.slice(2);
createServer((s) => s.once('data', (b) => {
  const path = b.toString();
  const input = new tty.ReadStream(openSync(path, 'r+'));
  const output = new tty.WriteStream(openSync(path, 'r+'));
  output._handle.setBlocking(false);
  input.setRawMode(true);
  const child = spawn(prog, [], { cols: 120, rows: 40 });
  child.onData((d) => output.write(d));
  input.on('data', (d) => child.write(d.toString()));
  s.on('close', () => process.exit(0));
})).listen(socketPath);
`;
const RELAY_CLIENT = `
const { createConnection } = require('node:net');
const { readlinkSync } = require('node:fs');
const s = createConnection(process.argv[2], () => s.write(readlinkSync('/proc/self/fd/0')));
s.on('error', () => process.exit(1));
`;

export const PLAIN_STREAMS = 'flower-pty --plain, Node streams only';
/** a reference for the typing patterns alone: tmux with the child's pane beside another */
export const TMUX_TWO_PANES = 'tmux, two panes';

// The stream starts on a key, so a path's start-up (node's, the run server's) is not counted as streaming.
const CAT = (file) =>
  `#!/bin/sh\n${VERSION_LINE}stty raw -echo\nprintf 'ready\\r\\n'\nhead -c 1 >/dev/null\ncat '${file}'\nprintf '\\n__END__\\n'\nsleep 600\n`;

export function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime + stime
  } catch {
    return NaN;
  }
}

// flower-pty runs in a detached run server: each work dir has its own socket folder
// (XDG_RUNTIME_DIR), and whatever server is left in it is ended with the dir.
function workdir() {
  const dir = mkdtempSync(join(tmpdir(), 'flower-bench-term-'));
  mkdirSync(join(dir, 'run'), { mode: 0o700 });
  mkdirSync(join(dir, 'run-streams'), { mode: 0o700 });
  return {
    dir,
    cleanup: () => {
      endServers(join(dir, 'run'));
      endServers(join(dir, 'run-streams'));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** pids of the `flower-pty __serve` processes whose XDG_RUNTIME_DIR is `runtime` */
export function serverPids(runtime) {
  const pids = [];
  const parents = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('\u0000__serve\u0000')) continue;
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').split('\u0000').includes(`XDG_RUNTIME_DIR=${runtime}`))
        continue;
      pids.push(Number(name));
      parents.set(Number(name), Number(/^\d+ \(.*\) \S (\d+)/.exec(readFileSync(`/proc/${name}/stat`, 'utf8'))?.[1]));
    } catch {
      // gone meanwhile
    }
  }
  // a server's child between fork and exec still shows the server's command line: not a second server
  return pids.filter((pid) => !pids.includes(parents.get(pid) ?? -1));
}

export function endServers(runtime) {
  for (const pid of serverPids(runtime)) {
    try {
      process.kill(pid, 'SIGKILL'); // claude's stand-in gets SIGHUP when its pty closes
    } catch {
      // gone
    }
  }
}

/** resident set size (and its peak) of a process, MB */
export function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    // RssFile is mostly the node binary's pages, shared with every other node process (claude among them);
    // PSS charges each shared page to its sharers in part: what the process adds to the machine.
    let pss = NaN;
    try {
      pss = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? NaN) / 1024;
    } catch {
      // an older kernel without smaps_rollup
    }
    return {
      rss: kb('VmRSS') / 1024,
      peak: kb('VmHWM') / 1024,
      anon: kb('RssAnon') / 1024,
      file: kb('RssFile') / 1024,
      pss,
    };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

function program(dir, name, text) {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

// How each path starts `prog`; `watch` is the pid whose CPU is the path's own cost.
function launchers(dir, size = { cols: 120, rows: 40 }) {
  const socket = `flower-bench-${process.pid}`;
  const runtime = join(dir, 'run');
  const env = {
    ...process.env,
    TERM: 'xterm-256color',
    HOME: dir,
    CLAUDE_CONFIG_DIR: join(dir, 'cfg'),
    XDG_RUNTIME_DIR: runtime,
  };
  // The path's own cost is the client's CPU plus its run server's.
  const flower = (extra) => (prog) => ({
    file: process.execPath,
    args: [FLOWER, ...extra, '--no-handoff', '--no-workbench', '--no-notify', '--claude', prog],
    env,
    servers: () => serverPids(runtime),
    cleanup: () => endServers(runtime),
  });
  // tmux with a second pane to the right of the child's, as the split view has its document pane: a pane
  // narrower than the terminal cannot be scrolled by the terminal (its rows are shared with the other pane),
  // so tmux draws it again on a scroll, as the split view does.
  const tmuxSplit = (prog) => {
    const name = `${socket}-split`;
    const side = String(Math.round(size.cols * 0.4));
    return {
      file: 'tmux',
      args: [
        '-L',
        name,
        '-f',
        '/dev/null',
        'new-session',
        '-x',
        String(size.cols),
        '-y',
        String(size.rows),
        prog,
        ';',
        'split-window',
        '-h',
        '-d',
        '-l',
        side,
        'sleep 600',
      ],
      env,
      cleanup: () => {
        try {
          execFileSync('tmux', ['-L', name, 'kill-server'], { stdio: 'ignore' });
        } catch {
          // already gone
        }
      },
    };
  };
  return {
    direct: (prog) => ({ file: prog, args: [], env }),
    'flower-pty --plain': flower(['--plain']),
    'flower-pty split view': flower([]),
    tmux: (prog) => ({
      file: 'tmux',
      args: ['-L', socket, '-f', '/dev/null', 'new-session', '-x', String(size.cols), '-y', String(size.rows), prog],
      env,
      serverPid: () =>
        Number(execFileSync('tmux', ['-L', socket, 'display-message', '-p', '#{pid}'], { encoding: 'utf8' }).trim()),
      cleanup: () => {
        try {
          execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
        } catch {
          // already gone
        }
      },
    }),
    [TMUX_TWO_PANES]: tmuxSplit,
  };
}

function start(launch, size = { cols: 120, rows: 40 }) {
  const pty = spawn(launch.file, launch.args, { name: 'xterm-256color', ...size, cwd: tmpdir(), env: launch.env });
  let out = '';
  let bytes = 0;
  const listeners = new Set();
  pty.onData((d) => {
    bytes += d.length;
    out = (out + d).slice(-4096);
    for (const l of listeners) l(d);
  });
  // Answer the outer-terminal queries blessed and tmux send, as a real terminal would.
  pty.onData((d) => {
    if (d.includes('\u001b[c')) pty.write('\u001b[?62;22c');
    if (d.includes('\u001b[6n')) pty.write('\u001b[1;1R');
  });
  const exited = new Promise((r) => pty.onExit(r));
  return {
    pty,
    exited,
    get bytes() {
      return bytes;
    },
    until(predicate, ms) {
      return new Promise((resolve, reject) => {
        if (predicate(out)) return resolve();
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out; last output: ${JSON.stringify(out.slice(-300))}`));
        }, ms);
        const check = (d) => {
          if (predicate(out, d)) {
            clearTimeout(timer);
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
      });
    },
    kill() {
      try {
        process.kill(-pty.pid, 'SIGKILL');
      } catch {
        // gone
      }
      try {
        pty.kill('SIGKILL');
      } catch {
        // gone
      }
    },
  };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

// Runs `measure` once per path (skipping `skip`), each path in its own child, always cleaned up; a path
// that fails reports its error instead of a number. `t0` is taken just before the child starts.
async function perPath(program, measure, skip = []) {
  const { dir, cleanup } = workdir();
  const results = {};
  try {
    const child = program(dir);
    for (const [name, make] of Object.entries(launchers(dir))) {
      if (skip.includes(name) || name === TMUX_TWO_PANES) continue; // (a reference for the typing patterns alone)
      const launch = make(child);
      const t0 = process.hrtime.bigint();
      const run = start(launch);
      try {
        results[name] = await measure({ run, launch, name, t0 });
      } catch (error) {
        results[name] = { error: String(error.message ?? error).slice(0, 120) };
      } finally {
        run.kill();
        launch.cleanup?.();
        await Promise.race([run.exited, sleep(2000)]);
      }
    }
  } finally {
    cleanup();
  }
  return results;
}

const echoProgram = (dir) => program(dir, 'echo.mjs', ECHO);

// The child of the keystroke paths: cat in cooked mode, so the echo is the child's pty's own (as in a shell).
const CAT_KEYS = `#!/bin/sh\n${VERSION_LINE}printf 'ready\\r\\n'\nexec cat\n`;

// Keystroke round trip, measured from outside every process under test: scripts/bench-keys.py holds each
// path's pty master, writes one key and waits for its echo there (no Node harness in the figure). All paths
// run at once and take turns key by key, so a noisy moment on a shared machine hits every path alike. In
// `rounds` rounds of `keys` keys each: a path's figure is the median of its rounds' figures, with the
// rounds' range, so one noisy stretch does not decide a p99.
// `lineEvery`: an Enter after so many keys (0: never; the line grows, as a long prompt does, and wraps).
// `interval`: a key every so many ms (0: each as soon as the last one's echo is in); `held`: the same key
// each time (a key held down); `paste`: each "key" that many characters written at once. `size`: the
// terminal's (a person's is often larger than the 120×40 default: 140×45 is the typing patterns' size).
export async function keystrokes({
  keys = 200,
  rounds = 1,
  lineEvery = 50,
  interval = 0,
  held = false,
  paste = 0,
  size = { cols: 120, rows: 40 },
  only = null,
} = {}) {
  const { dir, cleanup } = workdir();
  const child = program(dir, 'cat.sh', CAT_KEYS);
  const paths = Object.entries(launchers(dir, size))
    .filter(([name]) => (only === null ? name !== TMUX_TWO_PANES : only.includes(name)))
    .map(([name, make]) => ({ name, launch: make(child) }));
  if (only === null) await extraPaths(dir, child, paths);
  let measured;
  try {
    const plan = {
      keys,
      rounds,
      cols: size.cols,
      rows: size.rows,
      lineEvery,
      interval,
      held,
      paste,
      paths: paths.map((p) => ({
        name: p.name,
        argv: [p.launch.file, ...p.launch.args],
        env: { ...p.launch.env, TERM: 'xterm-256color' },
        raw: p.name !== 'direct',
      })),
    };
    const reader = spawnSync('python3', [join(REPO, 'scripts', 'bench-keys.py')], {
      input: JSON.stringify(plan),
      encoding: 'utf8',
      cwd: tmpdir(),
      maxBuffer: 64 * 1024 * 1024,
    });
    if (reader.status !== 0)
      throw new Error(`bench-keys.py: ${(reader.error?.message ?? reader.stderr ?? '').trim().split('\n').pop()}`);
    measured = JSON.parse(reader.stdout);
  } catch (error) {
    measured = Object.fromEntries(paths.map((p) => [p.name, { error: String(error.message ?? error).slice(0, 120) }]));
  } finally {
    for (const p of paths) p.launch.cleanup?.();
    cleanup();
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  return Object.fromEntries(
    paths.map((p) => {
      const m = measured[p.name] ?? { error: 'not measured' };
      if (m.error) return [p.name, { error: m.error }];
      const each = m.rounds
        .map((times) => times.sort((a, b) => a - b))
        .map((times) => ({ p50: percentile(times, 50), p99: percentile(times, 99) }));
      const p99s = each.map((r) => r.p99);
      return [
        p.name,
        {
          p50: median(each.map((r) => r.p50)),
          p99: median([...p99s]),
          p99Range: [Math.min(...p99s), Math.max(...p99s)],
          rounds: each.length,
        },
      ];
    }),
  );
}

// The two paths that say what a part is worth: a bare Node relay (its server started here, its client the
// path's terminal), and --plain with the native relay turned off.
async function extraPaths(dir, child, paths) {
  // the bare Node relay: its server starts first, its client is the path's terminal
  const relaySocket = join(dir, 'relay.sock');
  writeFileSync(join(dir, 'relay-server.cjs'), RELAY_SERVER(join(REPO, 'node_modules', '@lydell', 'node-pty')));
  writeFileSync(join(dir, 'relay-client.cjs'), RELAY_CLIENT);
  const relay = spawnProcess(process.execPath, [join(dir, 'relay-server.cjs'), relaySocket, child], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100 && !existsSync(relaySocket); i++) await sleep(50);
  paths.push({
    name: 'bare Node relay',
    launch: {
      file: process.execPath,
      args: [join(dir, 'relay-client.cjs'), relaySocket],
      env: process.env,
      cleanup: () => relay.kill('SIGKILL'),
    },
  });
  // --plain with the native relay turned off: what the relay itself is worth per key
  const streamsRuntime = join(dir, 'run-streams');
  const plain = paths.find((p) => p.name === 'flower-pty --plain').launch;
  paths.push({
    name: PLAIN_STREAMS,
    launch: {
      ...plain,
      env: { ...plain.env, FLOWER_PTY_NO_NATIVE: '1', XDG_RUNTIME_DIR: streamsRuntime },
      servers: () => serverPids(streamsRuntime),
      cleanup: () => endServers(streamsRuntime),
    },
  });
}

// A large ANSI stream on disk, written in blocks (a 100 MB file never sits in memory at once).
function ansiFileSync(path, bytes) {
  const fd = openSync(path, 'w');
  let written = 0;
  try {
    for (let i = 0; written < bytes; ) {
      const lines = [];
      for (let n = 0; n < 2000 && written < bytes; n++, i++) {
        // palette and 24-bit colours, italic and strikethrough, as claude draws a reply
        const line = `\u001b[3${i % 8}m${'context handoff 中文 '.repeat(4)}\u001b[0m \u001b[3;38;2;${i % 256};100;200mline ${i}\u001b[23;9m done\u001b[0m\r\n`;
        lines.push(line);
        written += Buffer.byteLength(line);
      }
      writeSync(fd, lines.join(''));
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

// Throughput: a child cats `mb` MB of ANSI on a key; the time from the key until the end marker comes
// out, and the path's CPU over that time.
export async function throughput({ mb = 50 } = {}) {
  let bytes = 0;
  const catProgram = (dir) => {
    const file = join(dir, 'stream.txt');
    bytes = ansiFileSync(file, mb * 1e6);
    return program(dir, 'cat.sh', CAT(file));
  };
  const results = await perPath(catProgram, async ({ run, launch, name }) => {
    await run.until((o) => o.includes('ready'), 20_000);
    await sleep(500); // the first frames settle
    const watch = launch.serverPid
      ? [launch.serverPid()]
      : name === 'direct'
        ? []
        : [run.pty.pid, ...(launch.servers?.() ?? [])];
    const timed = await timeStream(run, watch, bytes, launch.servers?.()[0]);
    return { ...timed, cpu: watch.length === 0 ? null : timed.cpu };
  });
  results[SPLIT_THREE] = await threeSplitClients(catProgram, () => bytes);
  return results;
}

// One timed stream: `g` starts the child's cat, timed until its end marker; the CPU of `watch` (pids) over
// it, and the run server's RSS after it.
async function timeStream(run, watch, bytes, server) {
  const cpu = () => watch.reduce((sum, pid) => sum + cpuOf(pid), 0);
  const c0 = cpu();
  const t0 = process.hrtime.bigint();
  const ended = run.until((o) => o.includes('__END__'), 300_000);
  run.pty.write('g');
  await ended;
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { mbps: bytes / 1e6 / seconds, seconds, cpu: cpu() - c0, serverRss: server ? rssOf(server) : null };
}

export const SPLIT_THREE = 'flower-pty split view, 3 clients';

// The same stream with three split views attached to the one run (the first starts it, two more attach),
// each terminal reading all it gets; timed on the first. The run server draws all three.
async function threeSplitClients(catProgram, bytes) {
  const { dir, cleanup } = workdir();
  const runs = [];
  try {
    const launch = launchers(dir)['flower-pty split view'](catProgram(dir));
    const first = start(launch);
    runs.push(first);
    await first.until((o) => o.includes('ready'), 20_000);
    const id = readdirSync(join(dir, 'run', 'flower-pty'))
      .find((n) => n.endsWith('.sock'))
      .replace(/\.sock$/, '');
    for (let i = 0; i < 2; i++) {
      const other = start({ file: process.execPath, args: [FLOWER, 'attach', id], env: launch.env });
      runs.push(other);
      await other.until((o) => o.includes('ready'), 20_000);
    }
    await sleep(500);
    return await timeStream(first, [...runs.map((r) => r.pty.pid), ...launch.servers()], bytes(), launch.servers()[0]);
  } catch (error) {
    return { error: String(error.message ?? error).slice(0, 120) };
  } finally {
    for (const r of runs) r.kill();
    await Promise.race([Promise.all(runs.map((r) => r.exited)), sleep(2000)]);
    cleanup();
  }
}

// Idle is measured once start-up has settled: V8 collects what start-up left behind (its memory
// reducer) for some seconds after a node process starts, a cost of starting, not of idling.
const SETTLE_MS = 10_000;

// Idle CPU: the supervisor (and the tmux server) with the child sitting idle for `seconds`.
export async function idle({ seconds = 60 } = {}) {
  return perPath(
    echoProgram,
    async ({ run, launch }) => {
      await run.until((o) => o.includes('ready'), 20_000);
      await sleep(SETTLE_MS);
      const pids = launch.serverPid ? [launch.serverPid()] : [run.pty.pid, ...(launch.servers?.() ?? [])];
      const total = () => pids.reduce((sum, pid) => sum + cpuOf(pid), 0);
      const c0 = total();
      await sleep(seconds * 1000);
      const cpu = total() - c0;
      return { cpu, seconds, percent: (cpu / seconds) * 100 };
    },
    ['direct'],
  );
}

// A run server with nobody attached: the terminal that started it hangs up (a detach), then the server's
// CPU over `seconds` with its child idle, and its memory before and after that time.
export async function idleDetached({ seconds = 60 } = {}) {
  return perPath(
    echoProgram,
    async ({ run, launch }) => {
      await run.until((o) => o.includes('ready'), 20_000);
      const [server] = launch.servers();
      process.kill(run.pty.pid, 'SIGHUP');
      await Promise.race([run.exited, sleep(5000)]);
      await sleep(SETTLE_MS);
      // Its memory once start-up has settled, and again at the end: quiet with nobody connected for
      // 15 s, the server gives back the pages it does not use (core/server/memory-trim.ts).
      const settled = rssOf(server);
      const c0 = cpuOf(server);
      await sleep(seconds * 1000);
      const cpu = cpuOf(server) - c0;
      const memory = rssOf(server);
      return {
        cpu,
        seconds,
        percent: (cpu / seconds) * 100,
        rss: memory.rss,
        anon: memory.anon,
        file: memory.file,
        pss: memory.pss,
        settled,
      };
    },
    ['direct', 'flower-pty split view', 'tmux'],
  );
}

// A full 200x60 screen of styled text, then it waits.
const FULL_SCREEN = `#!/usr/bin/env node
const rows = [];
for (let y = 0; y < 59; y++) rows.push(\`\\u001b[3\${y % 8};4\${(y + 3) % 8}m\` + String(y).padStart(3, '0') + ' context handoff 中文 '.repeat(9).slice(0, 190) + '\\u001b[0m');
process.stdout.write('\\u001b[H\\u001b[2J' + rows.join('\\r\\n') + '\\r\\nFRAME-END');
setInterval(() => {}, 1 << 30);
`;

// The floor of any command in Node: start, print the marker, wait.
const BARE_NODE = "process.stdout.write('FRAME-END'); setTimeout(() => {}, 60000)";

// Attach to the first full frame of a 200x60 screen, with nobody attached before: the wire alone
// (a socket client: hello until its screen frame is in), and the whole command in a new terminal
// (\`flower-pty attach --plain\` started until the screen's last row is out, node's start-up included).
export async function attachFrame({ rounds = 5 } = {}) {
  const { encodeFrame, createFrameReader, parseServerMessage, WIRE_VERSION } = await import('../dist/server/wire.js');
  const { dir, cleanup } = workdir();
  const size = { cols: 200, rows: 60 };
  const result = { wire: [], command: [], split: [], nodeClient: [], nodeSplit: [], node: [] };
  try {
    const prog = program(dir, 'screen.mjs', FULL_SCREEN);
    const launch = launchers(dir)['flower-pty --plain'](prog);
    const first = start(launch, size);
    await first.until((o) => o.includes('FRAME-END'), 20_000);
    process.kill(first.pty.pid, 'SIGHUP');
    await Promise.race([first.exited, sleep(5000)]);
    const socket = join(
      dir,
      'run',
      'flower-pty',
      readdirSync(join(dir, 'run', 'flower-pty')).find((n) => n.endsWith('.sock')),
    );
    for (let i = 0; i < rounds; i++) {
      const t0 = process.hrtime.bigint();
      await new Promise((resolve, reject) => {
        const s = createConnection(socket);
        const reader = createFrameReader({
          validate: parseServerMessage,
          onMessage: (m) => {
            if (m.t === 'screen' && m.data.includes('FRAME-END')) {
              result.wire.push(Number(process.hrtime.bigint() - t0) / 1e6);
              s.end(encodeFrame({ t: 'detach' }));
              resolve();
            }
          },
          onError: reject,
        });
        s.on('connect', () =>
          s.write(encodeFrame({ t: 'hello', version: WIRE_VERSION, role: 'attach', ...size, face: 'plain' })),
        );
        s.on('data', (c) => reader.push(c));
        s.on('error', reject);
      });
      // the whole command as a person types it (the bin run as an executable: the native client), --plain and
      // the split view, the Node client (FLOWER_PTY_NO_NATIVE=1), and a bare node that prints the same marker
      const nodeClient = { ...launch.env, FLOWER_PTY_NO_NATIVE: '1' };
      const commands = [
        ['command', FLOWER, ['attach', '--plain'], launch.env],
        ['split', FLOWER, ['attach'], launch.env],
        ['nodeClient', FLOWER, ['attach', '--plain'], nodeClient],
        ['nodeSplit', FLOWER, ['attach'], nodeClient],
        ['node', process.execPath, ['-e', BARE_NODE], launch.env],
      ];
      for (const [key, file, args, env] of commands) {
        const c0 = process.hrtime.bigint();
        const client = start({ file, args, env }, size);
        await client.until((o) => o.includes('FRAME-END'), 20_000);
        result[key].push(Number(process.hrtime.bigint() - c0) / 1e6);
        process.kill(client.pty.pid, 'SIGHUP');
        await Promise.race([client.exited, sleep(5000)]);
      }
    }
    first.kill();
  } catch (error) {
    return { error: String(error.message ?? error).slice(0, 120) };
  } finally {
    cleanup();
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    wireMs: median(result.wire),
    commandMs: median(result.command),
    splitMs: median(result.split),
    nodeClientMs: median(result.nodeClient),
    nodeSplitMs: median(result.nodeSplit),
    nodeMs: median(result.node),
    rounds,
  };
}

// The typing patterns a person's terminal sees, each measured beside tmux in the same run on a 140×45
// terminal with cat as the child (--no-handoff): the split view's echo must stay within tmux + 0.3 ms at
// p50 and tmux + 1 ms at p99 in every one. `scale`: fewer keys (--quick).
export const TYPING_PATTERNS = [
  { name: 'a growing line, no Enter, wrapping past the width', keys: 300, options: { lineEvery: 0 } },
  { name: 'a key every 10 ms (a fast typist)', keys: 400, options: { interval: 10 } },
  { name: 'a key every 100 ms (cold between keys)', keys: 150, options: { interval: 100 } },
  { name: 'a key held down (repeats every 30 ms)', keys: 300, options: { interval: 30, held: true, lineEvery: 100 } },
  { name: 'a paste (200 characters at once)', keys: 40, options: { paste: 200, lineEvery: 1, interval: 50 } },
];
export const TYPING_PATHS = ['direct', 'tmux', TMUX_TWO_PANES, 'flower-pty --plain', 'flower-pty split view'];

export async function typingPatterns({ rounds = 1, scale = 1 } = {}) {
  const out = [];
  for (const pattern of TYPING_PATTERNS) {
    const keys = Math.max(20, Math.round(pattern.keys * scale));
    out.push({
      ...pattern,
      keys,
      rounds,
      measured: await keystrokes({
        keys,
        rounds,
        size: { cols: 140, rows: 45 },
        only: TYPING_PATHS,
        ...pattern.options,
      }),
    });
  }
  return out;
}

/** a pattern's rows (measure, path, value, reference, target), the split view's ratio to tmux said */
export function typingRows(pattern, f) {
  const tk = pattern.measured.tmux ?? {};
  return TYPING_PATHS.map((path) => {
    const k = pattern.measured[path] ?? {};
    const ratio =
      !path.startsWith('flower') || k.error || tk.error
        ? ''
        : ` (×${f(k.p50 / tk.p50, 2)} / ×${f(k.p99 / tk.p99, 2)} of tmux)`;
    const target =
      path === 'flower-pty split view'
        ? `≤ tmux + 0.3 / + 1 ms (${f(tk.p50 + 0.3, 2)} / ${f(tk.p99 + 1, 2)} ms)`
        : path === 'flower-pty --plain'
          ? `≤ tmux (${f(tk.p50, 2)} / ${f(tk.p99, 2)} ms)`
          : '';
    return [
      `keystroke echo p50 / p99, 140×45: ${pattern.name} (${pattern.keys} keys)`,
      path,
      k.error ?? `${f(k.p50, 2)} / ${f(k.p99, 2)} ms${ratio}`,
      path === 'tmux' ? '' : `tmux ${f(tk.p50, 2)} / ${f(tk.p99, 2)} ms`,
      target,
    ];
  });
}

// The chooser's switch (docs/chooser.md): two runs of a full screen, `flower-pty attach --choose` (split view) in a
// 200×60 terminal, then a row's shortcut; timed from the key until the run's screen is drawn, and from C-] d
// until the chooser is back. Alternates between the two runs.
export async function chooserSwitch({ rounds = 5 } = {}) {
  const { dir, cleanup } = workdir();
  const size = { cols: 200, rows: 60 };
  const result = { switch: [], back: [] };
  let chooser = null;
  try {
    const prog = program(dir, 'screen.mjs', FULL_SCREEN);
    const launch = launchers(dir)['flower-pty --plain'](prog);
    for (let i = 0; i < 2; i++) {
      const run = start(launch, size);
      await run.until((o) => o.includes('FRAME-END'), 20_000);
      process.kill(run.pty.pid, 'SIGHUP');
      await Promise.race([run.exited, sleep(5000)]);
    }
    chooser = start({ file: process.execPath, args: [FLOWER, 'attach', '--choose'], env: launch.env }, size);
    await chooser.until((o) => o.includes('2 runs'), 20_000);
    // A person reads the list before a key: the runs the chooser listed have their split view ready by then
    // (server/split-warmup.ts); a key within the list's first few hundred ms meets a cold server.
    await sleep(1000);
    // what came after a key, whole, however the pty cut it
    const after = (needle) => {
      let seen = '';
      return (_out, d) => (d === undefined ? false : (seen += d).includes(needle));
    };
    for (let i = 0; i < rounds; i++) {
      const t0 = process.hrtime.bigint();
      const drawn = chooser.until(after('FRAME-END'), 20_000);
      chooser.pty.write(String(i % 2));
      await drawn;
      result.switch.push(Number(process.hrtime.bigint() - t0) / 1e6);
      await sleep(200);
      const t1 = process.hrtime.bigint();
      const back = chooser.until(after('2 runs'), 20_000);
      chooser.pty.write('\u001dd');
      await back;
      result.back.push(Number(process.hrtime.bigint() - t1) / 1e6);
      await sleep(200);
    }
    chooser.pty.write('q');
    await Promise.race([chooser.exited, sleep(5000)]);
  } catch (error) {
    return { error: String(error.message ?? error).slice(0, 120) };
  } finally {
    chooser?.kill();
    cleanup();
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { switchMs: median([...result.switch]), backMs: median([...result.back]), all: result, rounds };
}
