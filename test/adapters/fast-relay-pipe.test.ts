// The native relay as macOS and the BSDs build it: no eventfd there, so its thread wakes on a self-pipe
// (native/fast-relay.c, FLOWER_PTY_SELF_PIPE). Only Linux runs here, so this builds that variant on
// Linux, beside the real one, and runs every test of fast-relay.test.ts against it, in a tap of its own
// (the addon under test is chosen when that file loads).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

t.test('the self-pipe build passes every test of the relay', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flower-relay-pipe-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const addon = join(dir, 'fast-relay.node');
  const build = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-native.mjs'), '--out', addon], {
    env: { ...process.env, FLOWER_PTY_RELAY_CFLAGS: '-DFLOWER_PTY_SELF_PIPE' },
    encoding: 'utf8',
  });
  t.ok(existsSync(addon), `the self-pipe variant builds (${build.stderr.trim() || 'no message'})`);
  if (!existsSync(addon)) return;

  const run = spawnSync('npx', ['tap', '--reporter=tap', '--disable-coverage', 'test/adapters/fast-relay.test.ts'], {
    cwd: REPO,
    env: { ...process.env, FLOWER_PTY_TEST_RELAY_ADDON: addon },
    encoding: 'utf8',
    timeout: 300_000,
  });
  // Run under this tap, the inner one prints its file as one subtest (no summary line): read its tests' lines.
  const passed = run.stdout.match(/^ {4}ok \d+ - /gm)?.length ?? 0;
  const plan = Number(/^ {4}1\.\.(\d+)$/m.exec(run.stdout)?.[1] ?? NaN);
  t.equal(run.status, 0, `fast-relay.test.ts against the pipe build exits 0${run.status === 0 ? '' : `:\n${run.stdout.slice(-3000)}`}`);
  t.notMatch(run.stdout, /^\s*not ok/m, 'no test failed against it');
  t.ok(passed >= 10 && passed === plan, `every one of its tests passed against it (${passed} of ${plan})`);
  t.match(run.stdout, /ok \d+ - the build under test wakes its thread with a self-pipe/, 'the build under test was the pipe');
});
