// The person's claude flags as a successor must get them, in Claude Code 2.1.332's launch dialect: the
// session's permission mode (shift+tab may have changed it) replaces the launch one, the directories it
// added are added again, and a flag that would break a fresh start in the predecessor's folder is
// translated: `-w/--worktree [name]` asked to create a worktree that now exists and is where the successor
// starts, so it is dropped (and `--tmux`, which needs it, with it). Everything else passes as it was. Pure.

import type { SessionPlace } from '../core/lineage/session-place.js';

// Flags that take a value in the next word unless given as --flag=value.
const PERMISSION_MODE = '--permission-mode';
const SKIP_PERMISSIONS = '--dangerously-skip-permissions';
const ADD_DIR = '--add-dir';
const WORKTREE = new Set(['-w', '--worktree']);
const TMUX = '--tmux';

/** the permission mode that skips every permission check: a successor gets it only if the person's own launch did */
export const BYPASS_MODE = 'bypassPermissions';
const ALLOW_SKIP_PERMISSIONS = '--allow-dangerously-skip-permissions';

/** the person's own flags let the session bypass permissions (or shift+tab into it) */
export function flagsAllowBypass(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === SKIP_PERMISSIONS || arg === ALLOW_SKIP_PERMISSIONS) return true;
    if (arg === `${PERMISSION_MODE}=${BYPASS_MODE}` || (arg === PERMISSION_MODE && args[i + 1] === BYPASS_MODE))
      return true;
  }
  return false;
}

/** the flags a run under flower-pty cannot have: a session in the background, or in a tmux of its own */
export const FOREGROUND_ONLY_FLAGS: readonly string[] = ['--bg', '--background', TMUX];

function flagOf(arg: string): string {
  return arg.split('=')[0] ?? arg;
}

// `-w` takes an optional name: the next word is the name unless it is a flag.
function optionalValue(args: readonly string[], i: number): number {
  const next = args[i + 1];
  return next !== undefined && !next.startsWith('-') ? 1 : 0;
}

/** the --add-dir values among `args` (`--add-dir a b` takes every word up to the next flag) */
export function addedDirsOf(args: readonly string[]): string[] {
  const dirs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith(`${ADD_DIR}=`)) dirs.push(arg.slice(ADD_DIR.length + 1));
    else if (arg === ADD_DIR) {
      while (args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')) dirs.push(args[++i]!);
    }
  }
  return dirs;
}

export function successorArgs(userArgs: readonly string[], place: SessionPlace): string[] {
  const out: string[] = [];
  const moved = place.folder !== null;
  for (let i = 0; i < userArgs.length; i++) {
    const arg = userArgs[i]!;
    const flag = flagOf(arg);
    if (moved && WORKTREE.has(flag)) {
      if (arg === flag) i += optionalValue(userArgs, i);
      continue;
    }
    if (moved && flag === TMUX) continue;
    if (place.permissionMode !== null && flag === PERMISSION_MODE) {
      if (arg === flag) i += 1;
      continue;
    }
    if (place.permissionMode !== null && flag === SKIP_PERMISSIONS) continue;
    out.push(arg);
  }
  if (place.permissionMode !== null) out.push(PERMISSION_MODE, place.permissionMode);
  const have = new Set(addedDirsOf(userArgs));
  for (const dir of place.addedDirs) if (!have.has(dir) && dir !== place.folder) out.push(ADD_DIR, dir);
  return out;
}
