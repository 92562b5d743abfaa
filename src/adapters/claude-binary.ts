// Finds the claude executable before anything starts: node-pty does not throw on a missing
// binary, it spawns, prints "execvp(3) failed" and exits 1 later (docs/libraries.md §1).

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { FlowerError, EXIT } from '../core/errors.js';

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const CLAUDE_HELP =
  'install Claude Code (npm install -g @anthropic-ai/claude-code), or point to it with --claude <path> or FLOWER_PTY_CLAUDE';

// --claude wins, then FLOWER_PTY_CLAUDE, then PATH.
export function resolveClaude(opts: { flag?: string; env: NodeJS.ProcessEnv; cwd: string }): string {
  const given = opts.flag ?? opts.env.FLOWER_PTY_CLAUDE;
  if (given) {
    const source = opts.flag ? '--claude' : 'FLOWER_PTY_CLAUDE';
    const path = isAbsolute(given) || given.includes('/') ? resolve(opts.cwd, given) : findOnPath(given, opts.env);
    if (path && isExecutableFile(path)) return path;
    throw new FlowerError(`${source} "${given}" is not an executable file: ${CLAUDE_HELP}`, EXIT.claudeMissing);
  }
  const found = findOnPath('claude', opts.env);
  if (!found) throw new FlowerError(`no "claude" on PATH: ${CLAUDE_HELP}`, EXIT.claudeMissing);
  return found;
}

/** the first executable `name` in PATH's folders, or null */
export function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}
