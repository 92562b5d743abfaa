// The fuzz harnesses' checked-in corpus (native/fuzz/corpus/<target>/) replays clean under AddressSanitizer
// and UBSan with the normal build's compiler (no libFuzzer: native/fuzz/replay.c drives each harness), and
// holds every input that once broke the native code: the title bomb and the empty first read (the relay),
// a payload nested past 512 and 1e999 (the hook client), a NUL in an edit's path, exit status 4294967296 and
// a NUL inside "welcome" (the attach client). `npm run fuzz` fuzzes from the same corpus (docs/relay.md).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../helpers/flower-run.js';

const CORPUS = join(REPO, 'native', 'fuzz', 'corpus');

const CRASHERS: Record<string, string[]> = {
  'title-filter': ['title-bomb', 'empty-read'],
  'hook-reader': ['nested-513', 'number-1e999', 'timeout-huge'],
  'attach-frames': ['edit-nul-path', 'bye-exit-4294967296', 'welcome-nul-junk'],
  'echo-path': [],
};

t.test('the corpus holds every input that broke the native code', async (t) => {
  for (const [target, names] of Object.entries(CRASHERS)) {
    const files = readdirSync(join(CORPUS, target));
    for (const name of names) t.ok(files.includes(name), `${target}/${name}`);
  }
});

t.test('each harness replays its corpus clean under ASan and UBSan', async (t) => {
  const run = spawnSync(process.execPath, [join(REPO, 'scripts', 'fuzz.mjs'), '--replay'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  t.equal(run.status, 0, `scripts/fuzz.mjs --replay: ${run.stderr.slice(-2000)}`);
  for (const target of Object.keys(CRASHERS)) {
    t.match(run.stdout, new RegExp(`fuzz ${target}: ok`), `${target} replayed clean`);
  }
  // each target's replay, in order, and the corpus it read (the title filter's small-cap build reads its corpus too)
  const replayed = [...run.stdout.matchAll(/replayed (\d+) input\(s\)\nfuzz ([\w-]+): ok/g)].map(
    (m) => [m[2]!, Number(m[1])] as const,
  );
  t.ok(replayed.length >= Object.keys(CRASHERS).length, 'every target replayed');
  for (const [target, count] of replayed) {
    const corpus = Object.keys(CRASHERS).find((name) => target.startsWith(name))!;
    t.equal(count, readdirSync(join(CORPUS, corpus)).length, `${target}: every file of ${corpus}'s corpus`);
  }
});
