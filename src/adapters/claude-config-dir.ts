// Where a claude keeps its sessions and user settings: $CLAUDE_CONFIG_DIR, else ~/.claude (docs/claude-code.md
// §3). The dialect names the variable; this adapter reads the home folder, so every command finds the same one.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CLAUDE_ENV } from '../claude-code/launch.js';

export function claudeConfigDir(env: Readonly<Record<string, string | undefined>>): string {
  return env[CLAUDE_ENV.configDir] || join(env.HOME || homedir(), '.claude');
}
