// `flower-pty doctor`: one screen telling whether this machine's claude, its login, its config folder,
// hooks and transcript writing will work with flower-pty, and what to do if not. Gathers the facts here
// (read-only: it never writes, never calls the API), judges them in src/claude-code/doctor-verdict.ts.
import { access, constants, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, FlowerError } from '../core/errors.js';
import { resolveClaude } from '../adapters/claude-binary.js';
import { defaultHookCommand } from '../adapters/run-settings.js';
import { probeRelease } from '../adapters/claude-probe.js';
import { claudeConfigDir } from '../adapters/claude-config-dir.js';
import { doctorLines, type DoctorFacts } from '../claude-code/doctor-verdict.js';
import { CLAUDE_ENV } from '../claude-code/launch.js';
import { stripControl } from '../core/document/handoff-doc.js';

export interface DoctorOptions {
  claude: string | undefined;
  /** one JSON object: each check (level, topic, text), and whether flower-pty can run here */
  json?: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  out: (line: string) => void;
}

export async function runDoctor(o: DoctorOptions): Promise<number> {
  const facts = await gatherFacts(o);
  const lines = doctorLines(facts);
  const failed = lines.filter((l) => l.level === 'FAIL').length;
  if (o.json) {
    o.out(
      JSON.stringify({
        ready: failed === 0,
        checks: lines.map((l) => ({ level: l.level, topic: l.topic, text: stripControl(l.text) })),
      }),
    );
    return failed === 0 ? EXIT.ok : EXIT.doctor;
  }
  o.out('flower-pty doctor');
  for (const line of lines) o.out(`  ${line.level.padEnd(4)}  ${line.topic.padEnd(12)} ${stripControl(line.text)}`);
  o.out(failed === 0 ? 'ready: flower-pty can run here' : `${failed} problem(s) to fix before flower-pty can run here`);
  return failed === 0 ? EXIT.ok : EXIT.doctor;
}

async function gatherFacts(o: DoctorOptions): Promise<DoctorFacts> {
  let claude: DoctorFacts['claude'];
  try {
    claude = { path: resolveClaude({ ...(o.claude !== undefined ? { flag: o.claude } : {}), env: o.env, cwd: o.cwd }) };
  } catch (error) {
    if (!(error instanceof FlowerError)) throw error;
    claude = { error: error.message };
  }
  const probe = 'path' in claude ? await probeRelease({ claude: claude.path, env: o.env }) : null;
  const home = o.env.HOME || homedir();
  const configDir = claudeConfigDir(o.env);
  const globalConfig = o.env[CLAUDE_ENV.configDir] ? join(configDir, '.claude.json') : join(home, '.claude.json');
  const settingsFiles = [
    join(configDir, 'settings.json'),
    join(o.cwd, '.claude', 'settings.json'),
    join(o.cwd, '.claude', 'settings.local.json'),
  ];
  const settings = await Promise.all(settingsFiles.map(readJsonObject));
  const hookClient = defaultHookCommand().at(-1) ?? fileURLToPath(new URL('../cli/hook-client.js', import.meta.url));
  return {
    claude,
    version: probe ? { release: probe.release, printed: probe.printed } : null,
    login: {
      apiKeyEnv: Boolean(o.env.ANTHROPIC_API_KEY),
      authTokenEnv: Boolean(o.env.ANTHROPIC_AUTH_TOKEN),
      oauthTokenEnv: Boolean(o.env.CLAUDE_CODE_OAUTH_TOKEN),
      credentialsFile: await exists(join(configDir, '.credentials.json')),
      oauthAccount: typeof (await readJsonObject(globalConfig))?.['oauthAccount'] === 'object',
      apiKeyHelper: settings.some((s) => typeof s?.['apiKeyHelper'] === 'string'),
    },
    configDir: {
      path: configDir,
      exists: await exists(configDir),
      writable: await writable(configDir),
      parentWritable: await writable(dirname(configDir)),
    },
    hookClient: { path: hookClient, exists: await exists(hookClient) },
    hooksDisabledIn: settingsFiles.find((_, i) => settings[i]?.['disableAllHooks'] === true) ?? null,
    childSessionMarker: Boolean(o.env[CLAUDE_ENV.childSession]),
  };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function writable(path: string): Promise<boolean> {
  return access(path, constants.W_OK).then(
    () => true,
    () => false,
  );
}

async function readJsonObject(file: string): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null; // missing, unreadable or not JSON: as if it said nothing
  }
}
