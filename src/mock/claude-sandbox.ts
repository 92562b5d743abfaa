// A throwaway home for running the real claude offline against a mock API: pre-seeded config (no
// onboarding, trust or bypass dialogs), a project dir, and the env + args that point claude at the mock.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildChildEnv } from '../claude-code/child-env.js';
import { transcriptPathFor } from '../claude-code/transcript-path.js';

// The release the repository pins (package.json's devDependency, read from there so it is written once): the
// one whose first-run screens the seed below skips (docs/claude-code.md §8).
export const PINNED_CLAUDE_VERSION: string = pinnedClaudeVersion();

function pinnedClaudeVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  const pinned = pkg.devDependencies?.['@anthropic-ai/claude-code'];
  if (pinned === undefined) throw new Error('package.json pins no @anthropic-ai/claude-code devDependency');
  return pinned;
}

// A catalogued 200k-window model; unknown ids are assumed to have 1M (docs/claude-code.md §6).
export const DEFAULT_SANDBOX_MODEL = 'claude-sonnet-4-5';

export type SandboxLogin = 'token' | 'api-key' | 'oauth';

const SANDBOX_API_KEY = 'sk-ant-api03-mock-sandbox-key-0123456789abcdef';

// The credential variable of each login; a mock accepts any value.
function loginEnv(login: SandboxLogin): Record<string, string> {
  if (login === 'token') return { ANTHROPIC_AUTH_TOKEN: 'sk-mock-sandbox-token' };
  if (login === 'api-key') return { ANTHROPIC_API_KEY: SANDBOX_API_KEY };
  return { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-mock-sandbox-token' };
}

export interface SandboxOptions {
  root: string;
  baseUrl: string;
  projectDir?: string;
  model?: string;
  // Extra variables for claude (win over everything else), e.g. DISABLE_AUTO_COMPACT.
  env?: Record<string, string>;
  // How claude logs in to the mock (default 'token'): 'token' a bearer token (ANTHROPIC_AUTH_TOKEN), 'api-key'
  // an API key (ANTHROPIC_API_KEY, pre-approved), 'oauth' a subscription login (CLAUDE_CODE_OAUTH_TOKEN), the
  // only one Claude Code continues by itself after a usage limit resets (docs/claude-code.md §10).
  login?: SandboxLogin;
  // The env the sandbox starts from (default process.env); its ANTHROPIC_* and CLAUDE_* keys are dropped.
  baseEnv?: Record<string, string | undefined>;
}

export interface Sandbox {
  env: Record<string, string>;
  root: string;
  configDir: string;
  home: string;
  // The realpath of the project dir, which is what claude uses as its cwd key.
  projectDir: string;
  transcriptPath(sessionId: string): string;
  claudeArgs: string[];
}

// Any inherited ANTHROPIC_*/CLAUDE_* setting (a real key, a Bedrock switch, a model alias) would
// change what the sandboxed claude does, so none of them pass through.
function inheritedClaudeKeys(base: Record<string, string | undefined>): string[] {
  return Object.keys(base).filter((key) => /^(ANTHROPIC_|CLAUDE_)/.test(key));
}

export async function createClaudeSandbox(opts: SandboxOptions): Promise<Sandbox> {
  const home = join(opts.root, 'home');
  const configDir = join(opts.root, 'config');
  const requestedProject = opts.projectDir ?? join(opts.root, 'project');
  await Promise.all([
    mkdir(home, { recursive: true }),
    mkdir(configDir, { recursive: true }),
    mkdir(requestedProject, { recursive: true }),
  ]);
  // claude keys trust and transcripts by realpath(cwd) (docs/claude-code.md §3).
  const projectDir = await realpath(requestedProject);
  const login = opts.login ?? 'token';
  const globalConfig = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: PINNED_CLAUDE_VERSION,
    theme: 'dark',
    projects: { [projectDir]: { hasTrustDialogAccepted: true } },
    // An API key raises "Do you want to use this API key?" unless it was approved (by its last 20 characters).
    ...(login === 'api-key' ? { customApiKeyResponses: { approved: [SANDBOX_API_KEY.slice(-20)], rejected: [] } } : {}),
  };
  await writeFile(join(configDir, '.claude.json'), `${JSON.stringify(globalConfig, null, 2)}\n`);
  // Read only from user/policy settings, never from --settings (docs/claude-code.md §1).
  await writeFile(
    join(configDir, 'settings.json'),
    `${JSON.stringify({ skipDangerousModePermissionPrompt: true }, null, 2)}\n`,
  );

  const base = opts.baseEnv ?? process.env;
  const env = buildChildEnv(
    base,
    {
      ANTHROPIC_BASE_URL: opts.baseUrl,
      ...loginEnv(login),
      ANTHROPIC_MODEL: opts.model ?? DEFAULT_SANDBOX_MODEL,
      CLAUDE_CONFIG_DIR: configDir,
      HOME: home,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      // Older releases (2.1.78) ask the model for a "what next?" suggestion after each turn: a side call that
      // offers tools like the conversation does and would take a scripted reply (found by the canary, scripts/canary.mjs).
      CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: 'false',
      // Running as root with bypass permissions is refused unless this is set.
      IS_SANDBOX: '1',
      TERM: 'xterm-256color',
      ...opts.env,
    },
    inheritedClaudeKeys(base),
  );
  return {
    env,
    root: opts.root,
    configDir,
    home,
    projectDir,
    transcriptPath: (sessionId) => transcriptPathFor(configDir, projectDir, sessionId),
    claudeArgs: ['--permission-mode', 'bypassPermissions'],
  };
}

// The claude binary installed in this repo's node_modules (the pinned devDependency), for tests and the demo.
export function resolveRepoClaude(): string {
  const path = fileURLToPath(new URL('../../node_modules/.bin/claude', import.meta.url));
  if (!existsSync(path)) {
    throw new Error(
      `claude not found at ${path}; run \`npm install\` in the flower-pty repo to get @anthropic-ai/claude-code`,
    );
  }
  return path;
}
