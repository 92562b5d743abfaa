// A throwaway home for running the real claude offline against a mock API: pre-seeded config (no
// onboarding, trust or bypass dialogs), a project dir, and the env + args that point claude at the mock.
import { existsSync } from 'node:fs';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildChildEnv } from '../core/child-env.js';
import { transcriptPathFor } from '../core/claude-paths.js';

// The version whose first-run screens the seed below skips (claude-code-facts.md §7.4).
export const PINNED_CLAUDE_VERSION = '2.1.332';

// A catalogued 200k-window model; unknown ids are assumed to have 1M (claude-code-facts.md §5).
export const DEFAULT_SANDBOX_MODEL = 'claude-sonnet-4-5';

export interface SandboxOptions {
  root: string;
  baseUrl: string;
  projectDir?: string;
  model?: string;
  // Extra variables for claude (win over everything else), e.g. DISABLE_AUTO_COMPACT.
  env?: Record<string, string>;
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
  await Promise.all([mkdir(home, { recursive: true }), mkdir(configDir, { recursive: true }), mkdir(requestedProject, { recursive: true })]);
  // claude keys trust and transcripts by realpath(cwd) (claude-code-facts.md §3.1).
  const projectDir = await realpath(requestedProject);
  const globalConfig = {
    hasCompletedOnboarding: true,
    lastOnboardingVersion: PINNED_CLAUDE_VERSION,
    theme: 'dark',
    projects: { [projectDir]: { hasTrustDialogAccepted: true } },
  };
  await writeFile(join(configDir, '.claude.json'), `${JSON.stringify(globalConfig, null, 2)}\n`);
  // Read only from user/policy settings, never from --settings (claude-code-facts.md §1).
  await writeFile(join(configDir, 'settings.json'), `${JSON.stringify({ skipDangerousModePermissionPrompt: true }, null, 2)}\n`);

  const base = opts.baseEnv ?? process.env;
  const env = buildChildEnv(
    base,
    {
      ANTHROPIC_BASE_URL: opts.baseUrl,
      // A bearer token, not ANTHROPIC_API_KEY: an API key raises the "use this key?" dialog.
      ANTHROPIC_AUTH_TOKEN: 'sk-mock-sandbox-token',
      ANTHROPIC_MODEL: opts.model ?? DEFAULT_SANDBOX_MODEL,
      CLAUDE_CONFIG_DIR: configDir,
      HOME: home,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      // Older releases (2.1.78) ask the model for a "what next?" suggestion after each turn: a side call that
      // offers tools like the conversation does and would take a scripted reply (the canary, issue 11).
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
    throw new Error(`claude not found at ${path}; run \`npm install\` in the flower-pty repo to get @anthropic-ai/claude-code`);
  }
  return path;
}
