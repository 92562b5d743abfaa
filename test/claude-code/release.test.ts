// The release table and what hangs off it: the version parser on odd strings, the features, the verdict
// and its costs, the hooks registered per release, the launch env's blocking-limit override, the limits.
import t from 'tap';
import { parseRelease, hasFeature, supportFor, compareReleases, MIN_SUPPORTED } from '../../src/claude-code/release.js';
import { hookEventsFor, buildSettings } from '../../src/claude-code/settings.js';
import { thresholds } from '../../src/core/run/policy.js';
import { RUN_DIALECT } from '../../src/claude-code/run-dialect.js';
import {
  clientBlockLimit,
  blockingLimitOverride,
  stopBlockCap,
  STOP_BLOCK_CAP_DEFAULT,
} from '../../src/claude-code/limits.js';
import { launchEnv, launchArgs, refusedClaudeArg } from '../../src/claude-code/child-launch.js';
import { requestSessionId } from '../../src/claude-code/requests.js';

const r = (text: string) => {
  const release = parseRelease(text);
  if (!release) throw new Error(`unparsable ${text}`);
  return release;
};

t.test('parseRelease reads what claude --version prints, and odd variants', async (t) => {
  t.match(parseRelease('2.1.332 (Claude Code)'), { major: 2, minor: 1, patch: 332, text: '2.1.332' });
  t.match(parseRelease('  2.1.47 (Claude Code)\n'), { text: '2.1.47' });
  t.match(parseRelease('claude 2.1.100-beta.1'), { text: '2.1.100' }, 'a suffix after the triple');
  t.match(parseRelease('v2.0.65'), { text: '2.0.65' });
  t.equal(parseRelease('Claude Code'), null);
  t.equal(parseRelease(''), null);
  t.equal(parseRelease('2.1'), null, 'two numbers are not a release');
  t.equal(parseRelease('1.2.3.4'), null, 'four numbers are not a release');
  t.ok(compareReleases(r('2.1.100'), r('2.1.78')) > 0, 'compared as numbers, not text');
});

t.test('features by release; unknown counts as the newest', async (t) => {
  t.notOk(hasFeature(r('2.1.77'), 'stopFailure'));
  t.ok(hasFeature(r('2.1.78'), 'stopFailure'));
  t.notOk(hasFeature(r('2.1.46'), 'lastAssistantMessage'));
  t.ok(hasFeature(r('2.1.47'), 'lastAssistantMessage'));
  t.notOk(hasFeature(r('2.1.112'), 'nativeBinary'));
  t.ok(hasFeature(null, 'stopFailure'));
  t.ok(hasFeature(r('2.1.47'), 'permissionRequest'), 'present on every release the canary ran');
});

t.test('the verdict: refused below the minimum with one line, costs said for an older one', async (t) => {
  const old = supportFor(r('2.1.46'));
  t.equal(old.kind, 'too-old');
  if (old.kind === 'too-old') {
    t.match(old.message, /2\.1\.46/, 'names the version found');
    t.match(old.message, new RegExp(MIN_SUPPORTED.replace(/\./g, '\\.')), 'names the minimum');
    t.match(old.message, /npm install -g @anthropic-ai\/claude-code/, 'says how to upgrade');
    t.notMatch(old.message, /\n/, 'one line');
  }
  const older = supportFor(r('2.1.77'));
  t.equal(older.kind, 'supported');
  if (older.kind === 'supported')
    t.ok(
      older.costs.some((c) => /StopFailure/.test(c)),
      'the missing StopFailure is a cost',
    );
  const newest = supportFor(r('2.1.332'));
  t.same(newest.kind === 'supported' ? newest.costs : null, []);
  t.same(supportFor(null).kind, 'supported');
});

t.test('the hooks registered per release: exactly those it knows', async (t) => {
  t.notOk(hookEventsFor(r('2.1.77')).includes('StopFailure'), 'the 2.1.77 dialog: never');
  t.ok(hookEventsFor(r('2.1.78')).includes('StopFailure'));
  for (const release of [r('2.1.47'), r('2.1.78'), null]) {
    for (const needed of [
      'Stop',
      'PostToolUse',
      'SessionStart',
      'UserPromptSubmit',
      'Notification',
      'PermissionRequest',
      'PreCompact',
      'SessionEnd',
    ]) {
      t.ok(hookEventsFor(release).includes(needed as never), `${release?.text ?? 'newest'} registers ${needed}`);
    }
  }
  // A failed call's boundary is on every supported release; auto mode's refusal only from 2.1.88 (a release
  // without it would refuse the whole settings file over the name).
  for (const release of [r('2.1.47'), r('2.1.87'), r('2.1.332'), null])
    t.ok(
      hookEventsFor(release).includes('PostToolUseFailure'),
      `${release?.text ?? 'newest'} registers PostToolUseFailure`,
    );
  t.notOk(hookEventsFor(r('2.1.87')).includes('PermissionDenied'), '2.1.87 does not know PermissionDenied');
  t.ok(hookEventsFor(r('2.1.88')).includes('PermissionDenied'));
  const s = buildSettings({ hookCommand: ['/n', '/c.js'], release: r('2.1.77'), statusLine: true }) as {
    hooks: Record<string, unknown>;
    statusLine: { command: string };
  };
  t.same(Object.keys(s.hooks), hookEventsFor(r('2.1.77')));
  t.equal(s.statusLine.command, "'/n' '/c.js' statusline");
});

t.test('limits: the client line, its override, the Stop block cap', async (t) => {
  t.equal(clientBlockLimit(200_000), 177_000);
  t.equal(clientBlockLimit(200_000, blockingLimitOverride(200_000)), 200_000);
  t.ok(thresholds(200_000).at < clientBlockLimit(200_000), 'the default handoff line sits below the 177k client block');
  // The same line, as the run's decisions get it (a value, never an import from core).
  t.equal(RUN_DIALECT.refusalLine(200_000, false), 177_000);
  t.equal(RUN_DIALECT.refusalLine(200_000, true), 200_000, 'lifted to the window while the run blocks compaction');
  t.equal(stopBlockCap({}), STOP_BLOCK_CAP_DEFAULT);
  t.equal(stopBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '3' }), 3);
  t.equal(stopBlockCap({ CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: 'lots' }), STOP_BLOCK_CAP_DEFAULT);
});

t.test('the launch: argv names and the env, with the blocking-limit override only under a handoff', async (t) => {
  const base = {
    sessionId: 'id-1',
    settingsPath: '/s.json',
    userArgs: ['--model', 'm'],
    prompt: '-starts with a dash',
    handoff: true,
    keepAutoCompact: false,
    baseEnv: { PATH: '/bin', CLAUDE_CODE_CHILD_SESSION: '1' },
    channel: { socketPath: '/sock', token: 'tok' },
    userStatusLine: null,
  };
  t.same(launchArgs(base), [
    '--session-id',
    'id-1',
    '--settings',
    '/s.json',
    '--model',
    'm',
    '--',
    '-starts with a dash',
  ]);
  const env = launchEnv({ ...base, window: 200_000 });
  t.match(env, {
    DISABLE_AUTO_COMPACT: '1',
    CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE: '200000',
    FLOWER_PTY_SOCKET: '/sock',
    FLOWER_PTY_TOKEN: 'tok',
    PATH: '/bin',
  });
  t.notOk('CLAUDE_CODE_CHILD_SESSION' in env, 'the inherited marker is dropped');
  t.ok(
    Number(launchEnv(base).CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE) >= 10_000_000,
    'no window known: a line no window reaches',
  );
  const kept = launchEnv({ ...base, keepAutoCompact: true });
  t.notOk(
    'CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE' in kept || 'DISABLE_AUTO_COMPACT' in kept,
    'auto-compact kept: claude left as it is',
  );
  t.equal(refusedClaudeArg(['--model', 'x', '--resume=abc']), '--resume');
});

t.test('the session of a request: the header from 2.1.86, metadata.user_id before', async (t) => {
  const id = '9fc2b102-8368-4460-8735-5b59bcf83228';
  t.equal(requestSessionId({ 'x-claude-code-session-id': id }, {}), id);
  // As 2.1.78 sent it (recorded by hand from the mock).
  t.equal(
    requestSessionId(
      {},
      { metadata: { user_id: JSON.stringify({ device_id: 'd', account_uuid: '', session_id: id }) } },
    ),
    id,
  );
  // The older text form (hand-made from its documented shape).
  t.equal(requestSessionId({}, { metadata: { user_id: `user_abc_account__session_${id}` } }), id);
  t.equal(requestSessionId({}, { metadata: { user_id: 'user_abc' } }), undefined);
  t.equal(requestSessionId({}, null), undefined);
});
