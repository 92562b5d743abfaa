// Runs the REAL claude binary in a pty against a mock API sandbox, with a headless terminal for the
// screen and a hook recorder; every run is killed (process group included) at test teardown.
import { spawn } from '@lydell/node-pty';
import type { IPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';
import unicode11 from '@xterm/addon-unicode11';
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox, SandboxLogin } from '../../src/mock/claude-sandbox.js';
import { createClaudeSandbox, resolveRepoClaude } from '../../src/mock/claude-sandbox.js';
import { hasFeature, parseRelease, type Release } from '../../src/claude-code/release.js';
import { startMockApi } from '../../src/mock/messages-api.js';
import type { MockApi, Respond } from '../../src/mock/messages-api.js';
import { randomUUID } from 'node:crypto';
import { sleep } from './poll.js';
import { tempRoot, type Teardown } from './temp-root.js';

// @xterm/* are CommonJS: named ESM imports fail (docs/libraries.md §3).
const { Terminal } = xterm;
const { Unicode11Addon } = unicode11;

export type { Teardown };

export interface RunClaudeOptions {
  t: Teardown;
  sandbox: Sandbox;
  // Appended after sandbox.claudeArgs, e.g. ['--session-id', id, '--settings', file, 'prompt'].
  args: string[];
  onData?: (data: string) => void;
  cols?: number;
  rows?: number;
  bin?: string;
}

export interface ClaudeExit {
  exitCode: number;
  signal?: number;
}

export interface RunningClaude {
  pty: IPty;
  startedAt: number;
  // Everything the pty printed so far, raw.
  output(): string;
  // The visible screen as plain text lines joined by '\n' (after the emulator has parsed all output).
  screenText(): Promise<string>;
  // Polls `predicate` every 50 ms; rejects after `ms` with `what` and the current screen in the message.
  waitFor(predicate: () => boolean | Promise<boolean>, ms: number, what?: string): Promise<void>;
  // Resolves with the screen once it contains `needle`.
  waitForScreen(needle: string | RegExp, ms: number): Promise<string>;
  exited: Promise<ClaudeExit>;
  isExited(): boolean;
  // Ends claude and everything it started; safe to call twice. Resolves once the pty has exited.
  kill(): Promise<void>;
}

// The claude the end-to-end tests run: FLOWER_PTY_TEST_CLAUDE (the canary points it at a release it
// installed, scripts/canary.mjs), else the pinned one in node_modules.
export function testClaude(): string {
  return process.env.FLOWER_PTY_TEST_CLAUDE || resolveRepoClaude();
}

// The release of testClaude(), as the canary announces it (FLOWER_PTY_TEST_CLAUDE_RELEASE); null: the newest.
export function testRelease(): Release | null {
  return parseRelease(process.env.FLOWER_PTY_TEST_CLAUDE_RELEASE ?? '');
}

// Idle and taking input: the '❯' prompt box between two rules, no "esc to interrupt" (busy) footer and no
// modal. The prompt line may hold a draft or a placeholder ("Resend your message to try again" after an error).
export function looksReady(screen: string): boolean {
  return (
    /─{10,}\n❯[^\n]*\n─{10,}/.test(screen) &&
    !screen.includes('esc to interrupt') &&
    !screen.includes('Enter to confirm')
  );
}

// Ctrl-C twice, as a person quits claude at its prompt. A first Ctrl-C that lands while a turn is
// still finishing interrupts it instead of arming the exit (older releases show the prompt a moment
// before their turn is over): it is pressed again until claude says a second one exits.
export async function quitWithCtrlC(run: RunningClaude, attempts = 5): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    run.pty.write('\u0003');
    const armed = await run.waitForScreen(/again to exit/, 3_000).then(
      () => true,
      () => false,
    );
    if (armed) {
      run.pty.write('\u0003');
      return;
    }
  }
  throw new Error(`claude never offered to exit after ${attempts} Ctrl-C; screen:\n${await run.screenText()}`);
}

export function runClaude(opts: RunClaudeOptions): RunningClaude {
  const cols = opts.cols ?? 120;
  const rows = opts.rows ?? 40;
  const term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  const pty = spawn(opts.bin ?? testClaude(), [...opts.sandbox.claudeArgs, ...opts.args], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: opts.sandbox.projectDir,
    env: opts.sandbox.env,
  });
  const startedAt = Date.now();
  let raw = '';
  let exited = false;
  // Claude asks for cursor position / device attributes; the emulator answers through the pty.
  term.onData((data) => {
    if (!exited) pty.write(data);
  });
  pty.onData((data) => {
    raw += data;
    term.write(data);
    opts.onData?.(data);
  });
  const exitedPromise = new Promise<ClaudeExit>((resolve) => {
    pty.onExit(({ exitCode, signal }) => {
      exited = true;
      resolve(signal === undefined ? { exitCode } : { exitCode, signal });
    });
  });

  const screenText = (): Promise<string> =>
    new Promise((resolve) => {
      term.write('', () => {
        const buffer = term.buffer.active;
        const lines: string[] = [];
        for (let y = 0; y < term.rows; y++)
          lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
        resolve(lines.join('\n'));
      });
    });

  const waitFor = async (
    predicate: () => boolean | Promise<boolean>,
    ms: number,
    what = 'condition',
  ): Promise<void> => {
    const deadline = performance.now() + ms;
    for (;;) {
      if (await predicate()) return;
      if (performance.now() > deadline) {
        throw new Error(`timed out after ${ms} ms waiting for ${what}; screen:\n${await screenText()}`);
      }
      await sleep(50);
    }
  };

  const kill = async (): Promise<void> => {
    if (!exited) {
      // SIGTERM first so claude can restore the terminal and write its last records.
      try {
        pty.kill('SIGTERM');
      } catch {
        // already gone
      }
      await Promise.race([exitedPromise, sleep(3000)]);
    }
    // The pty child leads its own process group: take down tool shells it may have left behind.
    try {
      process.kill(-pty.pid, 'SIGKILL');
    } catch {
      // no such group: nothing left
    }
    await Promise.race([exitedPromise, sleep(1000)]);
    term.dispose();
  };
  opts.t.teardown(kill);

  return {
    pty,
    startedAt,
    output: () => raw,
    screenText,
    waitFor,
    async waitForScreen(needle, ms) {
      let last = '';
      await waitFor(
        async () => {
          last = await screenText();
          return typeof needle === 'string' ? last.includes(needle) : needle.test(last);
        },
        ms,
        `screen to show ${String(needle)}`,
      );
      return last;
    },
    exited: exitedPromise,
    isExited: () => exited,
    kill,
  };
}

// The JSON objects of a JSONL file, one a line; a missing file or a bad line gives nothing for it.
export function readJsonl(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line): Record<string, unknown>[] => {
      try {
        const parsed = JSON.parse(line) as unknown;
        return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
          ? [parsed as Record<string, unknown>]
          : [];
      } catch {
        return [];
      }
    });
}

// A fresh sandbox root outside any git checkout (inside one, claude reads that repo's git state into its
// prompt), removed at teardown: call it before runClaude so claude is killed before its files go.
export { tempRoot };

export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'Stop',
  'StopFailure',
  'Notification',
  'SessionEnd',
] as const;
// The events of a walk-away run (docs/claude-code.md §10) on top of HOOK_EVENTS: pass to recordHooks.
export const WALK_AWAY_EVENTS = [
  ...HOOK_EVENTS,
  'PreToolUse',
  'PermissionRequest',
  'PreCompact',
  'PostCompact',
] as const;
// Every boundary of a tool call on top of those (docs/claude-code.md §12): a failed call, a batch of
// parallel calls, a call auto mode refused.
export const TOOL_BOUNDARY_EVENTS = [
  ...WALK_AWAY_EVENTS,
  'PostToolUseFailure',
  'PostToolBatch',
  'PermissionDenied',
] as const;
// 'StatusLine' is not a hook: it is the statusLine command's stdin, recorded the same way.
export type HookEvent = (typeof TOOL_BOUNDARY_EVENTS)[number] | 'StatusLine';

export interface HookRecorder {
  // Pass to claude as `--settings <settingsPath>`.
  settingsPath: string;
  // The stdin payloads of `event`, in order (unparsable lines skipped).
  payloads(event: HookEvent): Record<string, unknown>[];
  // Queue a stdout answer for the next call of `event` (each answer is used once).
  replyOnce(event: HookEvent, answer: Record<string, unknown>): void;
}

// The hook program: append the stdin JSON as one line to <dir>/<event>.jsonl, then print and drop the
// first queued answer in <dir>/<event>.replies.json. CommonJS so node runs it without a package.json.
const HOOK_SCRIPT = `
const fs = require('fs'), path = require('path');
const [dir, event] = process.argv.slice(2);
let input = '';
process.stdin.on('data', (c) => { input += c; });
process.stdin.on('end', () => {
  let line = input.trim();
  try { line = JSON.stringify(JSON.parse(line)); } catch {}
  fs.appendFileSync(path.join(dir, event + '.jsonl'), line + '\\n');
  const queue = path.join(dir, event + '.replies.json');
  if (!fs.existsSync(queue)) return;
  const replies = JSON.parse(fs.readFileSync(queue, 'utf8'));
  const next = replies.shift();
  fs.writeFileSync(queue, JSON.stringify(replies));
  if (next !== undefined) process.stdout.write(JSON.stringify(next));
});
`;

// Writes a --settings file whose hooks (and status line) record every payload of `events` under `dir`.
export function recordHooks(
  dir: string,
  extraSettings: Record<string, unknown> = {},
  events: readonly HookEvent[] = HOOK_EVENTS,
): HookRecorder {
  mkdirSync(dir, { recursive: true });
  const script = join(dir, 'record-hook.cjs');
  writeFileSync(script, HOOK_SCRIPT);
  const command = (event: string): string => `'${process.execPath}' '${script}' '${dir}' ${event}`;
  // A release refuses the whole file over a hook it does not know (StopFailure before 2.1.78).
  const known = events.filter((event) => event !== 'StopFailure' || hasFeature(testRelease(), 'stopFailure'));
  const hooks = Object.fromEntries(
    known.map((event) => [event, [{ hooks: [{ type: 'command', command: command(event) }] }]]),
  );
  const settingsPath = join(dir, 'settings.json');
  const statusLine = { type: 'command', command: command('StatusLine'), padding: 0 };
  writeFileSync(settingsPath, JSON.stringify({ statusLine, ...extraSettings, hooks }, null, 2));
  return {
    settingsPath,
    payloads(event) {
      return readJsonl(join(dir, `${event}.jsonl`));
    },
    replyOnce(event, answer) {
      const queue = join(dir, `${event}.replies.json`);
      const replies = existsSync(queue) ? (JSON.parse(readFileSync(queue, 'utf8')) as unknown[]) : [];
      replies.push(answer);
      writeFileSync(queue, JSON.stringify(replies));
    },
  };
}

// One mock, one sandbox, one claude with recorded hooks and `prompt` as its first turn.
export interface ClaudeRig {
  api: MockApi;
  sandbox: Sandbox;
  hooks: HookRecorder;
  claude: RunningClaude;
  sessionId: string;
}

export interface ClaudeRigOptions {
  respond: Respond;
  prompt: string;
  login?: SandboxLogin;
  // claude's extra environment (default: auto-compact off, as flower-pty runs claude).
  env?: Record<string, string>;
  // Replaces the sandbox's bypass mode, e.g. ['--permission-mode', 'default'].
  claudeArgs?: string[];
  events?: readonly HookEvent[];
  // Runs before claude starts, e.g. to queue a hook's answer.
  beforeStart?: (hooks: HookRecorder) => void;
}

export async function startClaudeRig(t: Teardown, o: ClaudeRigOptions): Promise<ClaudeRig> {
  const api = await startMockApi({ respond: o.respond });
  t.teardown(() => api.close());
  const root = tempRoot(t);
  const created = await createClaudeSandbox({
    root,
    baseUrl: api.url,
    login: o.login ?? 'token',
    env: o.env ?? { DISABLE_AUTO_COMPACT: '1' },
  });
  const sandbox = o.claudeArgs ? { ...created, claudeArgs: o.claudeArgs } : created;
  const hooks = recordHooks(join(root, 'hooks'), {}, o.events ?? HOOK_EVENTS);
  o.beforeStart?.(hooks);
  const sessionId = randomUUID();
  const claude = runClaude({
    t,
    sandbox,
    args: ['--session-id', sessionId, '--settings', hooks.settingsPath, o.prompt],
  });
  return { api, sandbox, hooks, claude, sessionId };
}

// Waits for the `count`th payload of `event` and returns when it was seen (polled every 50 ms).
export async function hookArrival(r: ClaudeRig, event: HookEvent, ms: number, count = 1): Promise<number> {
  await r.claude.waitFor(() => r.hooks.payloads(event).length >= count, ms, `${count} ${event} hook(s)`);
  return Date.now();
}

// Types `line` at claude's idle prompt and submits it (the pause lets the paste settle before Enter).
export async function typeLine(claude: RunningClaude, line: string): Promise<void> {
  await claude.waitFor(async () => looksReady(await claude.screenText()), 20_000, 'the idle prompt');
  claude.pty.write(line);
  await sleep(300);
  claude.pty.write('\r');
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
