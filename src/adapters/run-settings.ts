// Per-run Claude Code settings (`claude --settings <file>`): hooks and the status line all routed to
// flower-pty's hook client; plus a read-only lookup of the user's own statusLine command to chain to.
import { writeFile, rename, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RunSettingsInput {
  dir: string; // the private run folder
  hookCommand: string[]; // argv of the hook client, e.g. [process.execPath, '/abs/dist/hook-client.js']
  events?: string[]; // default DEFAULT_HOOK_EVENTS
  statusLine: boolean; // install the status-line relay
}

// The events the supervisor listens to (claude-code-facts.md §4.3 for what each carries).
export const DEFAULT_HOOK_EVENTS: readonly string[] = [
  'Stop',
  'StopFailure',
  'PostToolUse',
  'SessionStart',
  'UserPromptSubmit',
  'Notification',
  'SessionEnd',
];

// The argv that runs the built hook client with this node: dist/hook-client.js next to dist/adapters/.
// Run from the TypeScript source (tests), it points at the built copy in dist/ all the same.
export function defaultHookCommand(): string[] {
  const fromSource = import.meta.url.endsWith('.ts');
  const client = new URL(fromSource ? '../../dist/hook-client.js' : '../hook-client.js', import.meta.url);
  return [process.execPath, fileURLToPath(client)];
}

// Claude kills a hook after this many seconds; the client gives up on the supervisor well before (15 s).
const HOOK_TIMEOUT_S = 60;

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

// The settings object (claude-code-facts.md §4.2 shape); no matcher, so every tool and every source fires.
export function buildRunSettings(input: RunSettingsInput): Record<string, unknown> {
  const base = input.hookCommand.map(shellQuote).join(' ');
  const hooks: Record<string, unknown> = {};
  for (const event of input.events ?? DEFAULT_HOOK_EVENTS) {
    hooks[event] = [{ hooks: [{ type: 'command', command: `${base} ${shellWord(event)}`, timeout: HOOK_TIMEOUT_S }] }];
  }
  const settings: Record<string, unknown> = { hooks };
  if (input.statusLine) settings['statusLine'] = { type: 'command', command: `${base} statusline`, padding: 0 };
  return settings;
}

// Claude runs a hook command through a shell, so every argv element goes in single quotes: spaces,
// double quotes, `$()` and backticks stay literal; a single quote becomes '\''.
export function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

// Event names are plain identifiers and read better bare; anything else is quoted like argv.
function shellWord(word: string): string {
  return /^[A-Za-z0-9_]+$/.test(word) ? word : shellQuote(word);
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
