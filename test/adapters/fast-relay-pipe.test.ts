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
import { passesWhole } from '../helpers/nested-tap.js';

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

  const out = passesWhole(
    t,
    'test/adapters/fast-relay.test.ts',
    { FLOWER_PTY_TEST_RELAY_ADDON: addon },
    'the pipe build',
  );
  t.match(out, /ok \d+ - the build under test wakes its thread with a self-pipe/, 'the build under test was the pipe');
});
