#!/usr/bin/env node
// Fuzzes every native input path with libFuzzer, AddressSanitizer and UBSan (clang, as Debian ships it with
// libclang-rt-14-dev): the relay's title filter on chunk sequences and its echo plan, the hook client's
// readers, the attach client's frame and member readers (native/fuzz/<target>.c). Each target first replays
// its checked-in corpus (native/fuzz/corpus/<target>/, every crasher found so far), then fuzzes for --seconds.
//
//   npm run fuzz                          every target, 60 s each
//   npm run fuzz -- --seconds 20 title    the targets whose name holds "title", 20 s each
//   npm run fuzz -- --replay              the corpus alone, without libFuzzer (any cc with the sanitizers)
//
// Needs dist/ (npm run build): the harnesses get the clients' words and limits from src/ as the build does.
// A finding is kept as <tmp>/crash-… and named on the way out; exits 1 when any target failed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookDefines, attachDefines } from './native-defines.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FUZZ = join(root, 'native', 'fuzz');

// Each target: its harness (native/fuzz/<source>.c) and corpus, the -D flags its source needs from src/, and
// the largest input libFuzzer makes for it (the corpus is replayed whole). The title filter is fuzzed twice:
// with its own cap, and with a cap of 40 units, which small inputs (many runs a second) reach and pass.
const TARGETS = {
  'title-filter': { source: 'title-filter', defines: async () => [], maxLen: 16384 },
  'title-filter-small-cap': { source: 'title-filter', defines: async () => ['-DMAX_HELD=40'], maxLen: 2048 },
  'hook-reader': { source: 'hook-reader', defines: () => hookDefines(root), maxLen: 65536 },
  'attach-frames': { source: 'attach-frames', defines: () => attachDefines(root), maxLen: 65536 },
  'echo-path': { source: 'echo-path', defines: async () => [], maxLen: 4096 },
};

function parseArgs(argv) {
  const out = { seconds: 60, replay: false, filters: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--replay') out.replay = true;
    else if (arg === '--seconds') {
      out.seconds = Number(argv[++i]);
      if (!Number.isInteger(out.seconds) || out.seconds < 1)
        fail(`--seconds expects a whole number of seconds, got "${argv[i]}"`);
    } else if (arg.startsWith('-'))
      fail(`unknown flag ${arg}; use --seconds N, --replay and target names (${Object.keys(TARGETS).join(', ')})`);
    else out.filters.push(arg);
  }
  return out;
}

function fail(message) {
  process.stderr.write(`fuzz: ${message}\n`);
  process.exit(2);
}

function hasCompiler(cc) {
  return spawnSync(cc, ['--version'], { stdio: 'ignore' }).status === 0;
}

const corpusDir = (target) => join(FUZZ, 'corpus', TARGETS[target].source);

/** the corpus's files for a target */
function corpusFiles(target) {
  const dir = corpusDir(target);
  return existsSync(dir)
    ? readdirSync(dir)
        .sort()
        .map((name) => join(dir, name))
    : [];
}

const SANITIZE = [
  '-g',
  '-O1',
  '-fno-omit-frame-pointer',
  '-fno-sanitize-recover=all',
  '-Wall',
  '-Wextra',
  '-Wno-unused-function',
];

async function build(cc, target, out, { fuzzer }) {
  const defines = await TARGETS[target].defines();
  const sanitizers = fuzzer ? '-fsanitize=fuzzer,address,undefined' : '-fsanitize=address,undefined';
  const sources = [join(FUZZ, `${TARGETS[target].source}.c`), ...(fuzzer ? [] : [join(FUZZ, 'replay.c')])];
  execFileSync(cc, [...SANITIZE, sanitizers, ...defines, ...sources, '-o', out], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

// Sanitizer settings for every run: stop at the first error with a stack, leaks included where the
// kernel lets LeakSanitizer look (it needs ptrace; not inside every container).
const ENV = {
  ...process.env,
  ASAN_OPTIONS: 'abort_on_error=1:detect_leaks=0',
  UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
};

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const targets = Object.keys(TARGETS).filter(
    (name) => opts.filters.length === 0 || opts.filters.some((f) => name.includes(f)),
  );
  if (targets.length === 0)
    fail(`no target matches ${opts.filters.join(', ')}; the targets: ${Object.keys(TARGETS).join(', ')}`);
  const cc = opts.replay ? [process.env.CC, 'clang', 'gcc', 'cc'].find((c) => c && hasCompiler(c)) : 'clang';
  if (!cc || !hasCompiler(cc))
    fail(
      opts.replay
        ? 'no C compiler (clang, gcc or cc)'
        : 'clang is missing: apt-get install -y clang libclang-rt-14-dev',
    );
  const work = mkdtempSync(join(tmpdir(), 'flower-pty-fuzz-'));
  const failed = [];
  for (const target of targets) {
    const bin = join(work, target);
    try {
      await build(cc, target, bin, { fuzzer: !opts.replay });
    } catch {
      failed.push(`${target}: did not build`);
      continue;
    }
    const seeds = corpusFiles(target);
    let run;
    if (opts.replay) {
      run = spawnSync(bin, seeds, { stdio: 'inherit', env: ENV });
    } else {
      const found = join(work, `${target}-corpus`);
      mkdirSync(found);
      const common = ['-timeout=10', '-rss_limit_mb=2048', `-artifact_prefix=${join(work, `${target}-`)}`];
      process.stdout.write(`fuzz ${target}: the corpus (${seeds.length}) and ${opts.seconds} s of libFuzzer\n`);
      // libFuzzer talks on stderr all the time: its last words are shown only when it found something.
      // The corpus first, each file whole (as seeds of a fuzzing run they would be cut to -max_len).
      const quiet = { stdio: ['ignore', 'ignore', 'pipe'], env: ENV, maxBuffer: 1 << 30, encoding: 'utf8' };
      run = spawnSync(bin, [...common, ...seeds], quiet);
      if (run.status === 0)
        run = spawnSync(
          bin,
          [
            found,
            corpusDir(target),
            ...common,
            `-max_total_time=${opts.seconds}`,
            `-max_len=${TARGETS[target].maxLen}`,
          ],
          quiet,
        );
      const done = /Done (\d+) runs in (\d+) second/.exec(run.stderr ?? '');
      if (done) process.stdout.write(`fuzz ${target}: ${done[1]} runs in ${done[2]} s\n`);
      if (run.status !== 0) process.stderr.write(`${(run.stderr ?? '').split('\n').slice(-80).join('\n')}\n`);
    }
    if (run.status === 0) process.stdout.write(`fuzz ${target}: ok\n`);
    else {
      const kept = readdirSync(work).filter((name) => name.startsWith(`${target}-`) && !name.endsWith('-corpus'));
      failed.push(
        `${target}: ${run.signal ?? `exit ${run.status}`}${kept.length ? `; the input: ${kept.map((k) => join(work, k)).join(', ')}` : ''}`,
      );
    }
  }
  if (failed.length === 0) rmSync(work, { recursive: true, force: true });
  for (const line of failed) process.stderr.write(`fuzz: FAILED ${line}\n`);
  process.stdout.write(`fuzz: ${targets.length - failed.length} of ${targets.length} target(s) clean\n`);
  process.exit(failed.length ? 1 : 0);
}

await main();
