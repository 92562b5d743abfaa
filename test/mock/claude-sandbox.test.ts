// createClaudeSandbox: the seeded config files, the env it builds for claude, and the transcript path.
import t from 'tap';
import { existsSync, readFileSync, realpathSync, symlinkSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createClaudeSandbox, resolveRepoClaude, PINNED_CLAUDE_VERSION } from '../../src/mock/claude-sandbox.js';

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

t.test('the pinned release is the devDependency of package.json, the one npm installed', async (tt) => {
  tt.match(PINNED_CLAUDE_VERSION, /^\d+\.\d+\.\d+$/, 'an exact release, not a range');
  const installed = readJson(
    join(import.meta.dirname, '..', '..', 'node_modules', '@anthropic-ai', 'claude-code', 'package.json'),
  ) as { version: string };
  tt.equal(PINNED_CLAUDE_VERSION, installed.version);
});

t.test('seeds onboarding, trust and the bypass acceptance', async (tt) => {
  const root = tt.testdir({});
  const sb = await createClaudeSandbox({ root, baseUrl: 'http://127.0.0.1:9' });
  tt.equal(sb.home, join(root, 'home'));
  tt.equal(sb.configDir, join(root, 'config'));
  tt.equal(sb.projectDir, realpathSync(join(root, 'project')));
  tt.ok(existsSync(sb.home) && existsSync(sb.projectDir), 'home and project exist');
  tt.same(readJson(join(sb.configDir, '.claude.json')), {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: PINNED_CLAUDE_VERSION,
    theme: 'dark',
    projects: { [sb.projectDir]: { hasTrustDialogAccepted: true } },
  });
  tt.same(readJson(join(sb.configDir, 'settings.json')), { skipDangerousModePermissionPrompt: true });
  tt.same(sb.claudeArgs, ['--permission-mode', 'bypassPermissions']);
});

t.test('each login sets its one credential; an API key is pre-approved so no dialog asks about it', async (tt) => {
  const credentials = ['ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'];
  const expected = {
    token: 'ANTHROPIC_AUTH_TOKEN',
    'api-key': 'ANTHROPIC_API_KEY',
    oauth: 'CLAUDE_CODE_OAUTH_TOKEN',
  } as const;
  for (const login of ['token', 'api-key', 'oauth'] as const) {
    const sb = await createClaudeSandbox({
      root: tt.testdir({}),
      baseUrl: 'http://127.0.0.1:9',
      login,
      baseEnv: { PATH: '/usr/bin' },
    });
    tt.same(
      credentials.filter((key) => key in sb.env),
      [expected[login]],
      login,
    );
    const config = readJson(join(sb.configDir, '.claude.json')) as { customApiKeyResponses?: { approved: string[] } };
    if (login === 'api-key') tt.same(config.customApiKeyResponses?.approved, [sb.env.ANTHROPIC_API_KEY?.slice(-20)]);
    else tt.notOk('customApiKeyResponses' in config);
  }
});

t.test('trust and transcripts are keyed by the realpath of a symlinked project dir', async (tt) => {
  const root = tt.testdir({ real: {} });
  symlinkSync(join(root, 'real'), join(root, 'link'));
  const sb = await createClaudeSandbox({ root, baseUrl: 'http://127.0.0.1:9', projectDir: join(root, 'link') });
  const real = realpathSync(join(root, 'real'));
  tt.equal(sb.projectDir, real);
  tt.ok(Object.keys((readJson(join(sb.configDir, '.claude.json')) as { projects: object }).projects).includes(real));
  tt.equal(sb.transcriptPath('id-1'), `${sb.configDir}/projects/${real.replace(/[^a-zA-Z0-9]/g, '-')}/id-1.jsonl`);
});

t.test('the env points claude at the mock and drops outer-session and inherited claude settings', async (tt) => {
  const root = tt.testdir({});
  const sb = await createClaudeSandbox({
    root,
    baseUrl: 'http://127.0.0.1:4321',
    model: 'claude-haiku-4-5',
    baseEnv: {
      PATH: '/usr/bin',
      ANTHROPIC_API_KEY: 'sk-real-key',
      ANTHROPIC_DEFAULT_SONNET_MODEL: 'x',
      CLAUDE_CODE_CHILD_SESSION: '1',
      CLAUDECODE: '1',
      CLAUDE_CODE_USE_BEDROCK: '1',
      TMUX: 'sock',
      LINES: '10',
    },
    env: { DISABLE_AUTO_COMPACT: '1' },
  });
  tt.same(sb.env, {
    PATH: '/usr/bin',
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:4321',
    ANTHROPIC_AUTH_TOKEN: 'sk-mock-sandbox-token',
    ANTHROPIC_MODEL: 'claude-haiku-4-5',
    CLAUDE_CONFIG_DIR: sb.configDir,
    HOME: sb.home,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: 'false',
    IS_SANDBOX: '1',
    TERM: 'xterm-256color',
    DISABLE_AUTO_COMPACT: '1',
  });
});

t.test('the default model is the 200k claude-sonnet-4-5', async (tt) => {
  const sb = await createClaudeSandbox({ root: tt.testdir({}), baseUrl: 'http://127.0.0.1:9', baseEnv: {} });
  tt.equal(sb.env.ANTHROPIC_MODEL, 'claude-sonnet-4-5');
});

t.test('resolveRepoClaude finds the pinned binary in node_modules', async (tt) => {
  const path = resolveRepoClaude();
  tt.match(path, /node_modules\/\.bin\/claude$/);
  tt.ok(existsSync(path));
});

t.test('an existing project dir is reused, not replaced', async (tt) => {
  const root = tt.testdir({ mine: { 'keep.txt': 'x' } });
  mkdirSync(join(root, 'mine', 'sub'));
  const sb = await createClaudeSandbox({ root, baseUrl: 'http://127.0.0.1:9', projectDir: join(root, 'mine') });
  tt.equal(readFileSync(join(sb.projectDir, 'keep.txt'), 'utf8'), 'x');
});
