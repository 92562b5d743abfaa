// What `npm test` needs from the system is said at its start, one line per missing thing: each case tried
// on stand-in probes, and the script run for real with an empty PATH (no tmux, no compiler).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { missingNeeds } from '../scripts/test-needs.mjs';
import { REPO } from './helpers/flower-run.js';

const all = { hasCommand: () => true, exists: () => true, compiles: () => true, env: {} };

t.test('nothing missing: nothing said', async (t) => {
  t.same(missingNeeds(all), []);
});

t.test('each missing thing is one line naming it and how to get it', async (t) => {
  t.match(missingNeeds({ ...all, hasCommand: (name) => name !== 'tmux' }), [
    /^npm test: tmux is missing: .*apt-get install -y tmux/,
  ]);
  t.match(missingNeeds({ ...all, exists: () => false }), [
    /^npm test: no Chromium at \/usr\/bin\/chromium: .*FLOWER_PTY_CHROMIUM/,
  ]);
  t.match(missingNeeds({ ...all, exists: () => false, env: { FLOWER_PTY_CHROMIUM: '/opt/chrome' } }), [
    /no Chromium at \/opt\/chrome/,
  ]);
  t.match(missingNeeds({ ...all, hasCommand: (name) => name !== 'cc' }), [/^npm test: no C compiler \(cc\)/]);
  t.match(missingNeeds({ ...all, hasCommand: (name) => name !== 'clang', env: { CC: 'clang' } }), [
    /no C compiler \(clang\)/,
  ]);
  t.match(missingNeeds({ ...all, compiles: () => false }), [/finds no C library headers .*libc6-dev/]);
  t.match(missingNeeds({ ...all, hasCommand: (name) => name !== 'ssh' }), [
    /^npm test: OpenSSH .* is missing: .*apt-get install -y openssh-server openssh-client/,
  ]);
  t.match(missingNeeds({ ...all, exists: (path) => path !== '/usr/sbin/sshd' }), [/^npm test: OpenSSH/]);
  t.equal(
    missingNeeds({ hasCommand: () => false, exists: () => false, compiles: () => false, env: {} }).length,
    4,
    'one line each, no header line without a compiler',
  );
});

t.test('the script itself, with nothing on the PATH: says what is missing and exits 0', async (t) => {
  const r = spawnSync(process.execPath, [join(REPO, 'scripts', 'test-needs.mjs')], {
    encoding: 'utf8',
    env: { PATH: '/nonexistent', FLOWER_PTY_CHROMIUM: '/nonexistent/chromium' },
  });
  t.equal(r.status, 0, 'the run goes on: the tests say the rest');
  const lines = r.stderr.trim().split('\n');
  t.equal(lines.length, 4, r.stderr);
  t.match(r.stderr, /OpenSSH .* is missing/);
  t.match(r.stderr, /tmux is missing/);
  t.match(r.stderr, /no Chromium at \/nonexistent\/chromium/);
  t.match(r.stderr, /no C compiler \(cc\)/);
});

t.test('npm test runs it first', async (t) => {
  const { scripts } = (await import(join(REPO, 'package.json'), { with: { type: 'json' } })).default as {
    scripts: Record<string, string>;
  };
  t.match(scripts.test, /^node scripts\/test-needs\.mjs && /);
});
