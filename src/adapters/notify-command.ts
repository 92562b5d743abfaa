// Runs the person's --notify-command for each event core/run/notify-policy.ts lets through (it decides the rate
// limit, the cap on commands still running and the time limit; this file only spawns and counts). The
// command text is given to /bin/sh -c exactly as written; the event reaches it only through FLOWER_PTY_*
// variables, so a message holding `$(…)`, quotes or newlines is data, never code. It never blocks the run:
// the command gets its own process group (detached) so the whole group can be killed at the time limit,
// and its output goes to the log (bounded).

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { EXIT, FlowerError } from '../core/errors.js';
import {
  decideNotify,
  notifyEnv,
  DEFAULT_NOTIFY_MAX_RUNNING,
  DEFAULT_NOTIFY_TIMEOUT_MS,
  INITIAL_NOTIFY_STATE,
  NOTIFY_ENV_KEYS,
} from '../core/run/notify-policy.js';
import type { NotifyEvent, NotifyRun, NotifyState } from '../core/run/notify-policy.js';
// Per stream: enough for an error message from curl, never a flood into the log.
export const NOTIFY_OUTPUT_LIMIT = 2_000;

export interface NotifierOptions extends NotifyRun {
  command: string;
  log: (line: string) => void;
  /** the environment the command starts from (the FLOWER_PTY_* variables are added on top) */
  env: Record<string, string | undefined>;
  timeoutMs?: number;
  maxRunning?: number;
  windowMs?: number;
}

export interface Notifier {
  /** decide (core/run/notify-policy.ts, at `now` on the run's clock) and, if due, start the command; returns at
   * once. True when a command was started. */
  notify(event: NotifyEvent, now: number): boolean;
  /** how many commands are still running */
  running(): number;
  /** resolves when every running command has ended (or was killed), or after `ms` */
  drain(ms: number): Promise<void>;
}

// A blank command would run `sh -c ''` for every event and tell nobody anything: refuse it up front.
export function checkNotifyCommand(command: string, source = '--notify-command'): string {
  if (command.trim() === '')
    throw new FlowerError(
      `${source} expects a shell command, e.g. 'notify-send flower-pty "$FLOWER_PTY_MESSAGE"'`,
      EXIT.usage,
    );
  return command;
}

// Collects at most NOTIFY_OUTPUT_LIMIT characters of a stream, noting how much was cut.
function boundedCollector(): { add(chunk: Buffer): void; text(): string } {
  let kept = '';
  let dropped = 0;
  return {
    add(chunk) {
      const s = chunk.toString('utf8');
      const room = NOTIFY_OUTPUT_LIMIT - kept.length;
      if (room > 0) kept += s.slice(0, room);
      dropped += Math.max(0, s.length - Math.max(0, room));
    },
    text: () => (dropped > 0 ? `${kept}… (${dropped} more characters dropped)` : kept),
  };
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

export function createNotifier(opts: NotifierOptions): Notifier {
  const command = checkNotifyCommand(opts.command);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_NOTIFY_TIMEOUT_MS;
  const maxRunning = opts.maxRunning ?? DEFAULT_NOTIFY_MAX_RUNNING;
  let state: NotifyState = INITIAL_NOTIFY_STATE;
  const live = new Set<Promise<void>>();
  const baseEnv = Object.fromEntries(
    Object.entries(opts.env).filter(([key]) => !(NOTIFY_ENV_KEYS as readonly string[]).includes(key)),
  );

  function start(env: Record<string, string>, event: string): void {
    let child: ChildProcess;
    try {
      // Detached: its own process group, so the time limit takes down whatever the command started too.
      child = spawn('/bin/sh', ['-c', command], {
        cwd: opts.cwd,
        env: { ...baseEnv, ...env },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      opts.log(`notify-command (${event}): could not start: ${String(error)}`);
      return;
    }
    const out = boundedCollector();
    const err = boundedCollector();
    child.stdout?.on('data', out.add);
    child.stderr?.on('data', err.add);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    const done = new Promise<void>((resolve) => {
      const finish = (code: number | null, signal: NodeJS.Signals | null, failure?: Error): void => {
        clearTimeout(timer);
        const status = failure
          ? `failed: ${failure.message}`
          : timedOut
            ? `killed after ${timeoutMs} ms`
            : signal
              ? `ended by ${signal}`
              : `exit ${code ?? '?'}`;
        opts.log(`notify-command (${event}): ${status}`);
        for (const [name, text] of [
          ['stdout', out.text()],
          ['stderr', err.text()],
        ] as const) {
          if (text.trim() !== '') opts.log(`notify-command (${event}) ${name}: ${text.trimEnd()}`);
        }
        resolve();
      };
      // 'close' waits for the output pipes, which a leftover child of the command could hold open; the
      // time limit kills the whole group, so this always comes.
      child.once('close', (code, signal) => finish(code, signal));
      child.once('error', (error) => finish(null, null, error));
    });
    // The run never waits on a notification: nothing here keeps the event loop alive.
    // (the pipes are sockets: unref'd too, else flower-pty would wait for them at exit; use drain()).
    child.unref();
    (child.stdout as { unref?: () => void } | null)?.unref?.();
    (child.stderr as { unref?: () => void } | null)?.unref?.();
    timer.unref();
    const tracked = done.then(() => {
      live.delete(tracked);
    });
    live.add(tracked);
  }

  return {
    notify(event, now) {
      const decision = decideNotify(state, event, now, opts.windowMs, { running: live.size, maxRunning });
      state = decision.state;
      if (decision.dropped !== undefined) opts.log(`notify-command (${event.name}): ${decision.dropped}`);
      if (!decision.send) return false;
      start(notifyEnv(decision.send, opts), event.name);
      return true;
    },
    running: () => live.size,
    async drain(ms) {
      let timer: NodeJS.Timeout | undefined;
      // A ref'd timer: a caller awaiting drain() keeps the process alive until it resolves.
      const limit = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      });
      await Promise.race([Promise.all([...live]), limit]);
      clearTimeout(timer);
    },
  };
}
