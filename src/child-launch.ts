// How one generation of claude is launched: its argv, its environment and its first prompt.
// Pure composition of values; the supervisor does the spawning.

import { buildChildEnv } from './core/child-env.js';

export interface LaunchInput {
  sessionId: string;
  settingsPath: string | null;
  userArgs: readonly string[];
  prompt: string | null;
  handoff: boolean;
  keepAutoCompact: boolean;
  baseEnv: Record<string, string | undefined>;
  channel: { socketPath: string; token: string } | null;
  userStatusLine: string | null;
}

// Linux limits one argv string to 128 KiB (MAX_ARG_STRLEN); stay well below it.
export const MAX_PROMPT_ARG_BYTES = 100 * 1024;

// Flags that would make a successor resume or fork instead of starting fresh.
const RESUMING_FLAGS = new Set(['--resume', '-r', '--continue', '-c', '--fork-session', '--session-id']);

export function refusedClaudeArg(args: readonly string[]): string | null {
  for (const arg of args) {
    const flag = arg.split('=')[0] ?? arg;
    if (RESUMING_FLAGS.has(flag)) return flag;
  }
  return null;
}

export function launchArgs(input: LaunchInput): string[] {
  const args = ['--session-id', input.sessionId];
  if (input.settingsPath) args.push('--settings', input.settingsPath);
  args.push(...input.userArgs);
  // `--` keeps a prompt that starts with '-' from being read as a flag.
  if (input.prompt) args.push('--', input.prompt);
  return args;
}

export function launchEnv(input: LaunchInput): Record<string, string> {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  if (input.handoff && !input.keepAutoCompact) set.DISABLE_AUTO_COMPACT = '1';
  if (input.channel) {
    set.FLOWER_PTY_SOCKET = input.channel.socketPath;
    set.FLOWER_PTY_TOKEN = input.channel.token;
  } else {
    remove.push('FLOWER_PTY_SOCKET', 'FLOWER_PTY_TOKEN');
  }
  if (input.userStatusLine) set.FLOWER_PTY_USER_STATUSLINE = input.userStatusLine;
  else remove.push('FLOWER_PTY_USER_STATUSLINE');
  return buildChildEnv(input.baseEnv, set, remove);
}

// A prompt too long for one argument goes through a file the short prompt points to.
export function promptArgument(prompt: string, overflowPath: string): { arg: string; spill: boolean } {
  if (new TextEncoder().encode(prompt).length <= MAX_PROMPT_ARG_BYTES) return { arg: prompt, spill: false };
  return {
    arg:
      `You are TAKING OVER an ongoing task from a previous session that ran out of context. ` +
      `Its handoff document is too long to pass inline: read the file ${overflowPath} now, in full, ` +
      `and continue the work from its "Next" section. Do not ask anyone for context.`,
    spill: true,
  };
}
