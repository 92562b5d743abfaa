#!/usr/bin/env node
// `npm run bench`: every figure beside its reference, measured in the same run on this machine, printed
// as a Markdown table with its target (docs/benchmarks.md says why each). Asserts nothing. `--quick` finishes in under 2 minutes
// (fewer keys, smaller streams, no 1 GB transcript, 10 s idle); the full run takes several minutes.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  keystrokes,
  throughput,
  idle,
  idleDetached,
  attachFrame,
  chooserSwitch,
  typingPatterns,
  typingRows,
  PLAIN_STREAMS,
  SPLIT_THREE,
} from './bench-terminal.mjs';
import { tailCatchUp } from './bench-tail.mjs';
import { tailAgainst } from './bench-tail-against.mjs';
import { handoffOverhead } from './bench-handoff.mjs';
import { reportBench } from './bench-report.mjs';
import { webBench } from './bench-web.mjs';
import { hookClientCost } from './bench-hook-client.mjs';
import { evalBench } from './bench-eval.mjs';
import { lsOverHosts, echoBesideHosts } from './bench-hosts.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const plan = quick
  ? {
      keys: 60,
      keyRounds: 1,
      streamMb: 10,
      tails: [200],
      idleS: 10,
      replayMb: 50,
      rounds: 1,
      reportMb: 200,
      reportRefMb: null,
    }
  : {
      keys: 1000,
      keyRounds: 5,
      streamMb: 100,
      tails: [200, 1000],
      idleS: 60,
      replayMb: 200,
      rounds: 3,
      reportMb: 1000,
      reportRefMb: 200,
    };

const f = (n, digits = 1) => (typeof n === 'number' && Number.isFinite(n) ? n.toFixed(digits) : '–');
const log = (s) => process.stderr.write(`bench: ${s}\n`);
const rows = [];
const row = (...cells) => rows.push(`| ${cells.join(' | ')} |`);
const PATHS = ['direct', 'flower-pty --plain', 'flower-pty split view', 'tmux'];

log(`keystroke round trip, ${plan.keyRounds} rounds of ${plan.keys} keys per path`);
const keys = await keystrokes({ keys: plan.keys, rounds: plan.keyRounds });
log(
  `keystroke echo in the typing patterns (140x45: a growing line, 10 ms, 100 ms, a held key, a paste), ${plan.keyRounds} round(s) each`,
);
const typing = await typingPatterns({ rounds: plan.keyRounds, scale: quick ? 0.25 : 1 });
log(`throughput, ${plan.streamMb} MB of ANSI per path`);
const stream = await throughput({ mb: plan.streamMb });
log(`idle CPU, ${plan.idleS} s per path`);
const quiet = await idle({ seconds: plan.idleS });
log(`idle CPU of a run server with nobody attached, ${plan.idleS} s`);
const alone = (await idleDetached({ seconds: plan.idleS }))['flower-pty --plain'] ?? {};
log('attach to the first full frame, 200x60');
const attach = await attachFrame({ rounds: quick ? 3 : 9 });
log('the chooser: a shortcut to the run drawn, and C-] d back, 200x60');
const chooser = await chooserSwitch({ rounds: quick ? 4 : 10 });
log("web face: a page's key to its echo, a run page's first frame, idle with two pages open");
const webFace = await webBench({ keys: quick ? 200 : 1000, idleS: plan.idleS });
const tails = [];
for (const mb of plan.tails) {
  log(`transcript tail catch-up, ${mb} MB`);
  tails.push([mb, await tailCatchUp(mb)]);
}
// The tail must stay within 10 % of its speed before the failure record (docs/dead-ends.md): that commit,
// built in a git worktree, and this checkout read one file in turn.
const BEFORE_RECORD = 'd09084d';
log(`transcript tail, 200 MB, against ${BEFORE_RECORD} (before the failure record)`);
const against = await tailAgainst(BEFORE_RECORD, 200, quick ? 3 : 5).catch((error) => ({
  error: String(error.message ?? error)
    .split('\n')[0]
    .slice(0, 120),
}));
log('the hook command claude runs on every hook, native and Node');
const hookCost = await hookClientCost({ runs: quick ? 15 : 50 });
log(`handoff overhead with the real claude, ${plan.rounds} round(s)`);
let handoff;
try {
  handoff = await handoffOverhead({ rounds: plan.rounds });
} catch (error) {
  handoff = { error: String(error.message ?? error) };
}
log(`replay throughput (${plan.replayMb} MB)`);
const replay = spawnSync(process.execPath, [join(REPO, 'scripts', 'bench-replay.mjs'), String(plan.replayMb)], {
  encoding: 'utf8',
});
log('eval compaction, 100 MB of transcripts in ten files');
const evalRun = await evalBench({ mb: 100, files: 10 }).catch((error) => ({
  error: String(error.message ?? error).split('\n')[0],
}));
log(`report of 8 generations, ${plan.reportMb} MB of transcripts`);
const report = await reportBench({ totalMb: plan.reportMb, generations: 8 });
// A smaller lineage beside it shows whether memory grows with the transcripts (it should not).
const reportRef = plan.reportRefMb ? await reportBench({ totalMb: plan.reportRefMb, generations: 8 }) : null;

log("ls over two hosts (a real sshd on loopback), and a run page's echo while the web face follows ten hosts");
const hostsLs = await lsOverHosts({ rounds: quick ? 5 : 15 });
const hostsEcho = await echoBesideHosts({ keys: quick ? 1000 : 4000 });

const cpu = os.cpus()[0]?.model ?? 'unknown cpu';
console.log(
  `Taken ${new Date().toISOString().slice(0, 10)} on ${cpu}, ${os.cpus().length} cpus, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, node ${process.version}; load average ${os.loadavg()[0].toFixed(1)} at the end${quick ? '; --quick' : ''}.\n`,
);
row('measure', 'path', 'value', 'reference (same run)', 'target');
row('---', '---', '---', '---', '---');
const direct = keys.direct ?? {};
// --plain with the native relay off, and the bare Node relay: what any Node server drawing its client's
// terminal costs per key without native code (scripts/bench-terminal.mjs)
for (const path of [...PATHS, PLAIN_STREAMS, 'bare Node relay']) {
  const k = keys[path] ?? {};
  // Two noisy tails subtracted can go below zero: say so rather than print a negative cost.
  const delta = k.p99 - direct.p99;
  const added =
    path === 'direct' ? '' : delta < 0 ? ' (adds nothing measurable at p99)' : ` (adds ${f(delta, 2)} ms p99)`;
  const tk = keys.tmux ?? {};
  // The targets: through the run server, --plain no slower than tmux; the split view within tmux + 0.3 ms (p50) / + 1.5 ms (p99).
  const target =
    path === 'flower-pty --plain'
      ? `≤ tmux (${f(tk.p50, 2)} / ${f(tk.p99, 2)} ms)`
      : path === 'flower-pty split view'
        ? `≤ tmux + 0.3 / + 1.5 ms (${f(tk.p50 + 0.3, 2)} / ${f(tk.p99 + 1.5, 2)} ms)`
        : '';
  const spread = k.rounds > 1 ? `; p99 ${f(k.p99Range[0], 2)}–${f(k.p99Range[1], 2)} over the rounds` : '';
  row(
    'keystroke echo p50 / p99, from outside',
    path,
    k.error ?? `${f(k.p50, 2)} / ${f(k.p99, 2)} ms${added}${spread}`,
    path === 'direct' ? '' : `direct ${f(direct.p50, 2)} / ${f(direct.p99, 2)} ms`,
    target,
  );
}
for (const pattern of typing) for (const cells of typingRows(pattern, f)) row(...cells);
const tmuxStream = stream.tmux ?? {};
for (const path of [...PATHS, SPLIT_THREE]) {
  const s = stream[path] ?? {};
  const rss = s.serverRss ? `; run server peak RSS ${f(s.serverRss.peak, 0)} MB` : '';
  row(
    `throughput, ${plan.streamMb} MB ANSI (palette and 24-bit colour, italic, strikethrough, CJK)`,
    path,
    s.error ?? `${f(s.mbps)} MB/s${s.cpu !== null && s.cpu !== undefined ? `, ${f(s.cpu, 2)} CPU s` : ''}${rss}`,
    path === 'tmux'
      ? ''
      : path === SPLIT_THREE
        ? `one split view ${f(stream['flower-pty split view']?.mbps)} MB/s`
        : `tmux ${f(tmuxStream.mbps)} MB/s, ${f(tmuxStream.cpu, 2)} CPU s (server)`,
    path === SPLIT_THREE
      ? `≥ 80 % of one (${f(0.8 * stream['flower-pty split view']?.mbps)} MB/s)`
      : path.startsWith('flower')
        ? '≥ tmux'
        : '',
  );
}
for (const path of PATHS.slice(1)) {
  const q = quiet[path] ?? {};
  row(
    `idle CPU, child idle ${plan.idleS} s`,
    path,
    q.error ?? `${f(q.percent, 2)} % of a core (${f(q.cpu, 2)} CPU s)`,
    path === 'tmux' ? '' : `tmux server ${f(quiet.tmux?.percent, 2)} %`,
    path.startsWith('flower') ? '< 0.5 %' : '',
  );
}
row(
  `idle CPU, child idle ${plan.idleS} s`,
  'run server, nobody attached',
  alone.error ??
    `${f(alone.percent, 2)} % of a core (${f(alone.cpu, 2)} CPU s), RSS ${f(alone.rss, 0)} MB (${f(alone.anon, 0)} MB its own, ${f(alone.file, 0)} MB file pages shared with other node processes; PSS ${f(alone.pss, 0)} MB); 10 s after the detach, before its idle trim: RSS ${f(alone.settled?.rss, 0)} MB (${f(alone.settled?.anon, 0)} own, ${f(alone.settled?.file, 0)} file; PSS ${f(alone.settled?.pss, 0)})`,
  `tmux server ${f(quiet.tmux?.percent, 2)} %`,
  '< 0.1 %; RSS < 50 MB',
);
row(
  'attach to the first full frame, 200×60',
  'flower-pty attach --plain',
  attach.error ??
    `${f(attach.commandMs, 0)} ms for the whole command in a new terminal (the native client), median of ${attach.rounds}; ${f(attach.wireMs, 1)} ms of it on the wire (hello → screen frame)`,
  attach.error ? '' : `bare node start-up ${f(attach.nodeMs, 0)} ms`,
  '< 100 ms',
);
if (!attach.error) {
  row(
    'attach to the first full frame, 200×60',
    'flower-pty attach (split view)',
    `${f(attach.splitMs, 0)} ms for the whole command (the native client), median of ${attach.rounds}`,
    `bare node start-up ${f(attach.nodeMs, 0)} ms`,
    '< 100 ms',
  );
  row(
    'attach to the first full frame, 200×60',
    'the Node client (FLOWER_PTY_NO_NATIVE=1), --plain / split view',
    `${f(attach.nodeClientMs, 0)} / ${f(attach.nodeSplitMs, 0)} ms for the whole command, median of ${attach.rounds}`,
    `bare node start-up ${f(attach.nodeMs, 0)} ms`,
    '',
  );
}
// every switch, each server's first among them (the chooser has had it make its split view ready)
if (chooser.error)
  row('switch from the chooser to a run, 200×60', 'flower-pty attach --choose', chooser.error, '', '< 100 ms');
else {
  const all = [...chooser.all.switch].sort((a, b) => a - b);
  row(
    'switch from the chooser to a run, 200×60',
    'flower-pty attach --choose (split view)',
    `${f(all[Math.floor(all.length / 2)], 0)} / ${f(all.at(-1), 0)} ms from the shortcut to the run's screen, median / worst of ${all.length} (each server's first: ${chooser.all.switch
      .slice(0, 2)
      .map((ms) => f(ms, 0))
      .join(' / ')} ms); C-] d back to the chooser ${f(chooser.backMs, 0)} ms`,
    attach.error ? '' : `attach (split view, native client) ${f(attach.splitMs, 0)} ms`,
    '< 100 ms',
  );
}
{
  const plainKeys = keys['flower-pty --plain'] ?? {};
  const tmuxKeys = keys.tmux ?? {};
  const w = webFace.keys ?? {};
  row(
    'keystroke echo p50 / p99, in a page',
    'flower-pty web (Chromium; timed in the page, socket to xterm.js parsed)',
    webFace.error ?? `${f(w.p50, 2)} / ${f(w.p99, 2)} ms (${w.count} keys)`,
    `flower-pty --plain ${f(plainKeys.p50, 2)} / ${f(plainKeys.p99, 2)} ms, tmux ${f(tmuxKeys.p50, 2)} / ${f(tmuxKeys.p99, 2)} ms (from outside)`,
    `≤ attach + 2 ms at p50 (${f(plainKeys.p50 + 2, 2)} ms)`,
  );
  row(
    'first frame of a run page',
    'flower-pty web',
    webFace.error ?? `${f(webFace.firstFrameMs, 0)} ms (navigation until the terminal shows the screen, median of 5)`,
    attach.error ? '' : `attach: ${f(attach.wireMs, 1)} ms on the wire`,
    '< 150 ms',
  );
  row(
    `idle CPU, ${plan.idleS} s, two pages open`,
    'flower-pty web server',
    webFace.error ??
      `${f(webFace.idle.percent, 2)} % of a core (${f(webFace.idle.cpu, 2)} CPU s), RSS ${f(webFace.idle.rss, 0)} MB`,
    `tmux server ${f(quiet.tmux?.percent, 2)} %`,
    '< 0.1 %',
  );
}
row(
  'flower-pty ls --host a --host b (loopback sshd, both hosts asked at once)',
  'the whole command',
  hostsLs.error ?? `${f(hostsLs.twoHostsMs, 0)} ms (median of ${hostsLs.rounds})`,
  hostsLs.error
    ? ''
    : `both hosts' own ls over plain ssh at once ${f(hostsLs.slowestOwnMs, 0)} ms (the slower asked alone ${f(hostsLs.aloneMs, 0)} ms)`,
  hostsLs.error ? '≤ slowest host + 150 ms' : `≤ slowest host + 150 ms (${f(hostsLs.slowestOwnMs + 150, 0)} ms)`,
);
row(
  'keystroke echo p50 / p99, in a page, the web face following 10 hosts (each asked every 10 s)',
  'flower-pty web (Chromium)',
  hostsEcho.error ?? `${f(hostsEcho.ten.p50, 2)} / ${f(hostsEcho.ten.p99, 2)} ms (${hostsEcho.ten.count} keys)`,
  hostsEcho.error ? '' : `no hosts ${f(hostsEcho.none.p50, 2)} / ${f(hostsEcho.none.p99, 2)} ms`,
  'p50 no slower than with no hosts',
);
for (const [mb, r] of tails) {
  row(
    `transcript tail catch-up, ${mb} MB`,
    'tail → reader → meter',
    r.error ??
      `${f(r.bytes / 1e6 / r.seconds)} MB/s (${f(r.seconds, 2)} s, ${f(r.bytes / 1e6 / r.cpuSeconds)} MB/cpu-s), peak RSS ${f(r.maxRssMb, 0)} MB`,
    '',
    '≥ 100 MB/s, RSS flat',
  );
  const w = r.withoutFailures;
  if (!r.error && w)
    row(
      `the failure record's own share, ${mb} MB`,
      'catch-up cpu-s with it vs the same reader without it',
      `${f(r.cpuSeconds, 2)} vs ${f(w.cpuSeconds, 2)} cpu-s (${f((r.cpuSeconds / w.cpuSeconds - 1) * 100, 1)}%)`,
      '',
      '',
    );
  const sc = r.withScorer;
  // The coverage scorer's facts collected off the same rows, as a live run would (docs/eval.md).
  if (!r.error && sc)
    row(
      `the coverage scorer beside the tail, ${mb} MB`,
      "catch-up with the scorer's facts vs the same reader without",
      sc.error ??
        `${f(sc.cpuSeconds, 2)} vs ${f(r.cpuSeconds, 2)} cpu-s (${f((sc.cpuSeconds / r.cpuSeconds) * 100, 0)} %); ${f(sc.seconds, 2)} vs ${f(r.seconds, 2)} s`,
      '',
      '≤ 110 % of the tail alone',
    );
  if (!r.error)
    row(
      `one append after ${mb} MB`,
      'catchUp() in a hook',
      `p50 ${f(r.appendP50us, 0)} µs / p99 ${f(r.appendP99us, 0)} µs`,
      '',
      '',
    );
}
row(
  `the tail against ${BEFORE_RECORD} (before the failure record), ${f(against.mb ?? 200, 0)} MB, one file`,
  "catch-up, this checkout's reader (the record and all)",
  against.error ??
    `${f(against.now.seconds, 2)} s, ${f(against.now.cpuSeconds, 2)} cpu-s (median of ${against.rounds})`,
  against.error ? '' : `${BEFORE_RECORD} ${f(against.before.seconds, 2)} s, ${f(against.before.cpuSeconds, 2)} cpu-s`,
  against.error
    ? '≤ 110 % of its time'
    : `≤ 110 % of its time (now ${f((against.now.seconds / against.before.seconds) * 100, 0)} %)`,
);
{
  const c = (name) => hookCost[name] ?? {};
  const ms = (r) => `${f(r.p50, 1)} ms (p90 ${f(r.p90, 1)})`;
  row(
    'hook call, spawn to exit, median',
    'native hook client (what runs use)',
    `round trip to the run ${ms(c('native hook client, round trip to the run'))}; status line with the person's command ${ms(c("native hook client, status line + the person's command"))}`,
    `Node hook client ${ms(c('Node hook client, round trip to the run'))}; bare node start-up ${ms(c('node -e 0 (bare start-up)'))}`,
    '',
  );
}
row(
  'handoff overhead',
  "end of writing turn → successor's first request",
  handoff.error ??
    `${f(handoff.totalMs, 0)} ms total = ${f(handoff.flowerMs, 0)} ms flower-pty + ${f(handoff.successorStartMs, 0)} ms claude start-up (median of ${handoff.rounds}); flower-pty part: ${Object.entries(
      handoff.stepsMs,
    )
      .map(([step, ms]) => `${step} ${f(ms, 0)} ms`)
      .join(
        ', ',
      )}; the writing turn's Stop held for its row: ${handoff.lastRowMs.map((ms) => (ms === null ? 'not held (in before it)' : `${f(ms, 0)} ms`)).join(', ')}`,
  handoff.error ? '' : `bare claude start-up ${f(handoff.bareStartMs, 0)} ms`,
  'flower-pty part < 200 ms',
);
row(
  `flower-pty eval compaction, ${f((evalRun.bytes ?? 1e8) / 1e6, 0)} MB of transcripts in ${evalRun.files ?? 10} files`,
  'stream → facts → each summary scored',
  evalRun.error ??
    `${f(evalRun.seconds, 2)} s (${f(evalRun.bytes / 1e6 / evalRun.seconds, 0)} MB/s, ${f(evalRun.cpuSeconds, 2)} CPU s), ${evalRun.summaries} summaries, peak RSS ${f(evalRun.maxRssMb, 0)} MB`,
  '',
  '< 10 s',
);
row(
  `flower-pty report, 8 generations, ${plan.reportMb} MB of transcripts`,
  'stream → reader → model → page',
  report.error ??
    `${f(report.seconds, 2)} s (${f(report.bytes / 1e6 / report.seconds, 0)} MB/s, ${f(report.cpuSeconds, 2)} CPU s), peak RSS ${f(report.maxRssMb, 0)} MB, page ${f(report.pageBytes / 1024, 0)} KB`,
  reportRef && !reportRef.error
    ? `${f(reportRef.bytes / 1e6, 0)} MB: ${f(reportRef.seconds, 2)} s, peak RSS ${f(reportRef.maxRssMb, 0)} MB, page ${f(reportRef.pageBytes / 1024, 0)} KB`
    : '',
  'seconds, RSS flat, page small enough to mail',
);
console.log(rows.join('\n'));
console.log('\nReplay (scripts/bench-replay.mjs):\n');
console.log('```');
console.log((replay.stdout || replay.stderr).trim());
console.log('```');
