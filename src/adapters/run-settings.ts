// Writes the per-run Claude Code settings (`claude --settings <file>`) that src/claude-code/settings.ts
// builds for the release; plus a read-only lookup of the user's own statusLine command to chain to.
import { writeFile, rename, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSettings, hookEventsFor, shellQuote } from '../claude-code/settings.js';
import type { Release } from '../claude-code/release.js';

export { shellQuote };

export interface RunSettingsInput {
  dir: string; // the private run folder
  hookCommand: string[]; // argv of the hook client, e.g. [process.execPath, '/abs/dist/hook-client.js']
  events?: string[]; // default: the hooks `release` knows (src/claude-code/settings.ts)
  /** the release the probe found (src/adapters/claude-probe.ts); absent or null: the newest */
  release?: Release | null;
  statusLine: boolean; // install the status-line relay
}

// The events registered for the newest release (docs/claude-code.md §5 for what each carries).
export const DEFAULT_HOOK_EVENTS: readonly string[] = hookEventsFor(null);

// The argv of the hook client claude runs on every hook: the native one (dist/native/flower-pty-hook,
// native/hook-client.c) where the build had a C compiler, as it starts in ~1 ms against Node's ~30;
// else dist/cli/hook-client.js with this node. Run from the TypeScript source (tests), it points at the
// built copies in dist/ all the same.
// The package's dist/, from dist/adapters and from src/adapters alike.
const DIST = new URL(import.meta.url.endsWith('.ts') ? '../../dist/' : '../', import.meta.url);

export function defaultHookCommand(): string[] {
  const native = fileURLToPath(new URL('native/flower-pty-hook', DIST));
  return runsHere(native) ? [native] : nodeHookCommand();
}

// A package packed on another machine carries the packer's binary (another OS or CPU): if it cannot
// run here, every hook would fail, so it is tried once (no event, no input: it says nothing, exits 0).
const tried = new Map<string, boolean>();
function runsHere(binary: string): boolean {
  if (!tried.has(binary))
    tried.set(
      binary,
      existsSync(binary) &&
        spawnSync(binary, [], { stdio: ['ignore', 'ignore', 'ignore'], timeout: 5_000 }).status === 0,
    );
  return tried.get(binary)!;
}

/** the Node hook client (src/cli/hook-client.ts), which the native one mirrors */
export function nodeHookCommand(): string[] {
  return [process.execPath, fileURLToPath(new URL('cli/hook-client.js', DIST))];
}

// Writes `<dir>/settings.json` (mode 0600, replaced atomically) and returns its path.
export async function writeRunSettings(input: RunSettingsInput): Promise<string> {
  if (input.hookCommand.length === 0) throw new Error('Expected a hook command argv with at least one element, got []');
  const settings = buildRunSettings(input);
  const file = join(input.dir, 'settings.json');
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(settings, null, 2) + '\n', { mode: 0o600 });
  await rename(tmp, file);
  return file;
}

// The settings object for the input's release (the dialect builds it).
export function buildRunSettings(input: RunSettingsInput): Record<string, unknown> {
  return buildSettings(input);
}

// The user's statusLine command, from the first of local project, project, and user settings that
// has one (Claude Code's own precedence); missing, unreadable or malformed files are skipped. Never writes.
export async function findUserStatusLine(opts: { configDir: string; cwd: string }): Promise<string | null> {
  const candidates = [
    join(opts.cwd, '.claude', 'settings.local.json'),
    join(opts.cwd, '.claude', 'settings.json'),
    join(opts.configDir, 'settings.json'),
  ];
  for (const file of candidates) {
    const command = statusLineCommand(await readJson(file));
    if (command !== null) return command;
  }
  return null;
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined; // not there, not readable, or not JSON: as if it had no statusLine
  }
}

function statusLineCommand(settings: unknown): string | null {
  if (typeof settings !== 'object' || settings === null) return null;
  const statusLine = (settings as { statusLine?: unknown }).statusLine;
  if (typeof statusLine !== 'object' || statusLine === null) return null;
  const command = (statusLine as { command?: unknown }).command;
  return typeof command === 'string' && command.trim() !== '' ? command : null;
}

/**
 * The mode the person's own settings start their sessions in (`permissions.defaultMode` in their user
 * settings, read once when the run starts; null when they name none): with their flags, the most a
 * successor's mode may be (claude-code/permission-modes.ts), and whether it may bypass permissions.
 */
export async function settingsDefaultMode(opts: { configDir: string }): Promise<string | null> {
  const settings = await readJson(join(opts.configDir, 'settings.json'));
  if (typeof settings !== 'object' || settings === null) return null;
  const permissions = (settings as { permissions?: unknown }).permissions;
  if (typeof permissions !== 'object' || permissions === null) return null;
  const mode = (permissions as { defaultMode?: unknown }).defaultMode;
  return typeof mode === 'string' && mode !== '' ? mode : null;
}
