// Runs one test file in a tap of its own, with variables that choose what it tests (another build of
// a native piece, the Node twin of one), and holds the caller's test to all of that file passing.
import type { Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

export function passesWhole(t: Test, file: string, env: Record<string, string>, against: string): string {
  const run = spawnSync('npx', ['tap', '--reporter=tap', '--disable-coverage', file], {
    cwd: REPO,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 300_000,
  });
  // Run under this tap, the inner one prints its file as one subtest (no summary line): read its tests' lines.
  const passed = run.stdout.match(/^ {4}ok \d+ - /gm)?.length ?? 0;
  const plan = Number(/^ {4}1\.\.(\d+)$/m.exec(run.stdout)?.[1] ?? NaN);
  t.equal(
    run.status,
    0,
    `${file} against ${against} exits 0${run.status === 0 ? '' : `:\n${run.stdout.slice(-3000)}`}`,
  );
  t.notMatch(run.stdout, /^\s*not ok/m, `no test failed against ${against}`);
  t.ok(passed >= 10 && passed === plan, `every one of its tests passed against ${against} (${passed} of ${plan})`);
  return run.stdout;
}
