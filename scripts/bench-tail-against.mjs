// The transcript tail's catch-up, this checkout against an earlier commit, on the same file: the earlier
// commit is checked out in a temporary git worktree and built there (its own bench-tail.mjs, its own dist),
// one synthetic transcript is written (this checkout's fixtures), and each side catches up on it in a fresh
// process, in turn, round after round. Prints each round and the medians. Too slow for `npm test` (it builds
// a second checkout and reads hundreds of MB); run it on a quiet machine:
//
//   node scripts/bench-tail-against.mjs d09084d        # 200 MB, 5 rounds
//   node scripts/bench-tail-against.mjs d09084d 100 3  # 100 MB, 3 rounds
//
// `npm run bench` runs it too (tailAgainst), for the tail's row against the commit before the failure record.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
/** the medians of `rounds` catch-ups of one `mb` MB file by `commit`'s checkout and by this one, in turn;
 * `say` hears each round */
export async function tailAgainst(commit, mb, rounds, say = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'flower-tail-against-'));
  const old = join(dir, 'old');
  try {
    execFileSync('git', ['-C', REPO, 'worktree', 'add', '--detach', old, commit], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    symlinkSync(join(REPO, 'node_modules'), join(old, 'node_modules'));
    execFileSync(
      process.execPath,
      [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(old, 'tsconfig.build.json')],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const file = join(dir, 'transcript.jsonl');
    const { writeTranscript } = await import(join(REPO, 'scripts', 'bench-tail.mjs'));
    const bytes = await writeTranscript(file, mb * 1e6);
    const sides = {
      before: [join(old, 'scripts', 'bench-tail.mjs'), '--one', file],
      now: [join(REPO, 'scripts', 'bench-tail.mjs'), '--one', file, 'supervisor'],
    };
    const seen = { before: [], now: [] };
    for (let i = 0; i < rounds; i++) {
      for (const [name, args] of Object.entries(sides)) {
        const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
        if (r.status !== 0) throw new Error(`${name}: ${(r.stderr || '').trim().split('\n').pop()}`);
        const one = JSON.parse(r.stdout.trim().split('\n').at(-1));
        seen[name].push(one);
        say(
          `round ${i + 1} ${(name === 'before' ? commit : 'now').padEnd(10)} ${one.seconds.toFixed(3)} s, ${one.cpuSeconds.toFixed(3)} cpu-s`,
        );
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    return {
      mb: bytes / 1e6,
      rounds,
      before: {
        seconds: median(seen.before.map((r) => r.seconds)),
        cpuSeconds: median(seen.before.map((r) => r.cpuSeconds)),
      },
      now: { seconds: median(seen.now.map((r) => r.seconds)), cpuSeconds: median(seen.now.map((r) => r.cpuSeconds)) },
    };
  } finally {
    spawnSync('git', ['-C', REPO, 'worktree', 'remove', '--force', old], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [commit, mbArg = '200', roundsArg = '5'] = process.argv.slice(2);
  const mb = Number(mbArg);
  const rounds = Number(roundsArg);
  if (!commit || !(mb > 0) || !(rounds > 0)) {
    process.stderr.write('usage: node scripts/bench-tail-against.mjs COMMIT [MB] [ROUNDS]\n');
    process.exit(2);
  }
  const r = await tailAgainst(commit, mb, rounds, (line) => console.log(line));
  console.log(
    `${r.mb.toFixed(0)} MB, median of ${rounds}: ${commit} ${r.before.seconds.toFixed(3)} s, now ${r.now.seconds.toFixed(3)} s (${((r.now.seconds / r.before.seconds) * 100).toFixed(0)} % of it); cpu ${r.before.cpuSeconds.toFixed(3)} against ${r.now.cpuSeconds.toFixed(3)} s`,
  );
}
