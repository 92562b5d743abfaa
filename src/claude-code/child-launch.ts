// How one generation of claude is launched: its argv, its environment and its first prompt.
// Pure composition of values; the supervisor does the spawning.

import { buildChildEnv } from './child-env.js';
import { CLAUDE_ENV, CLAUDE_FLAGS, HOOK_ENV, RESUMING_FLAGS } from './launch.js';
import { blockingLimitOverride } from './limits.js';
import { FOREGROUND_ONLY_FLAGS } from './successor-args.js';

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
  /** the policy window: claude's own refusal line is lifted to it (limits.ts); absent, a line no window reaches */
  window?: number;
}

// Without a known window the override must still never refuse below the real one: only the API decides.
const NO_WINDOW_OVERRIDE = 100_000_000;

// Linux limits one argv string to 128 KiB (MAX_ARG_STRLEN); stay well below it.
export const MAX_PROMPT_ARG_BYTES = 100 * 1024;

const RESUMING = new Set(RESUMING_FLAGS);

// The first of `args` whose flag (the part before any '=') is in `flags`.
function firstFlagIn(args: readonly string[], flags: ReadonlySet<string>): string | null {
  for (const arg of args) {
    const flag = arg.split('=')[0] ?? arg;
    if (flags.has(flag)) return flag;
  }
  return null;
}

export function refusedClaudeArg(args: readonly string[]): string | null {
  return firstFlagIn(args, RESUMING);
}

const FOREGROUND_ONLY = new Set(FOREGROUND_ONLY_FLAGS);

// A claude in the background or in a tmux of its own leaves flower-pty's pty: nothing to supervise.
export function foregroundOnlyArg(args: readonly string[]): string | null {
  return firstFlagIn(args, FOREGROUND_ONLY);
}

export function launchArgs(input: LaunchInput): string[] {
  const args: string[] = [CLAUDE_FLAGS.sessionId, input.sessionId];
  if (input.settingsPath) args.push(CLAUDE_FLAGS.settings, input.settingsPath);
  args.push(...input.userArgs);
  // `--` keeps a prompt that starts with '-' from being read as a flag.
  if (input.prompt) args.push('--', input.prompt);
  return args;
}

export function launchEnv(input: LaunchInput): Record<string, string> {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  if (input.handoff && !input.keepAutoCompact) {
    set[CLAUDE_ENV.disableAutoCompact] = '1';
    // With auto-compact off claude refuses a prompt at window − 23k by itself (a 200k window: 177k), so a
    // writing turn that starts at 150k could be refused; lift the line to what the API accepts (test/claude-code/blocking-limit.test.ts shows both).
    set[CLAUDE_ENV.blockingLimitOverride] = String(
      input.window !== undefined ? blockingLimitOverride(input.window) : NO_WINDOW_OVERRIDE,
    );
  }
  if (input.channel) {
    set[HOOK_ENV.socket] = input.channel.socketPath;
    set[HOOK_ENV.token] = input.channel.token;
  } else {
    remove.push(HOOK_ENV.socket, HOOK_ENV.token);
  }
  if (input.userStatusLine) set[HOOK_ENV.userStatusLine] = input.userStatusLine;
  else remove.push(HOOK_ENV.userStatusLine);
  return buildChildEnv(input.baseEnv, set, remove);
}

// A prompt too long for one argument goes through a file the short prompt points to (generation 1's
// prompt: the person's own, already on flower-pty's command line).
export function promptArgument(prompt: string, overflowPath: string): { arg: string; spill: boolean } {
  if (new TextEncoder().encode(prompt).length <= MAX_PROMPT_ARG_BYTES) return { arg: prompt, spill: false };
  return { arg: readFileArgument(overflowPath), spill: true };
}

function readFileArgument(path: string): string {
  return (
    `You are TAKING OVER an ongoing task from a previous session that ran out of context. ` +
    `Its handoff document is too long to pass inline: read the file ${path} now, in full, ` +
    `and continue the work from its "Next" section. Do not ask anyone for context.`
  );
}

// A successor's positional prompt. /proc/<pid>/cmdline is readable by every local user, so the document
// (and the project and transcript paths in it) never goes there: `viaHook`, the first UserPromptSubmit hook
// hands the whole first prompt to the model as context; else the model reads it from `file`, a 0600 file
// in the run's private folder. The file is named in both cases when there is one (a hook that did not run).
export function successorArgument(o: { file: string | null; viaHook: boolean }): string {
  if (!o.viaHook) {
    if (o.file === null) throw new Error('a successor prompt needs the hook or a file');
    return readFileArgument(o.file);
  }
  return (
    `You are TAKING OVER an ongoing task from a previous session that ran out of context. ` +
    `flower-pty gives you its handoff document, and what to do with it, as the context of this message.` +
    (o.file !== null ? ` If that context is missing, read the file ${o.file} now, in full, instead.` : '') +
    ` Do not ask anyone for context.`
  );
}
