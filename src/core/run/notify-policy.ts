// Which run events are worth a person's attention through --notify-command, the one-line message of each,
// the environment the command gets them in, the rate limit that keeps one stuck state from paging a
// phone every few seconds, and the cap on commands still running. Pure: the clock comes in as `now` (ms)
// and the count of running commands as a number; the adapter (adapters/notify-command.ts) only spawns.

import { oneLine } from '../one-line.js';
import { formatClock } from '../screen/clock-text.js';
import type { RunEventOf } from './run-events.js';
import { EXIT } from '../exit-code.js';

export const NOTIFY_EVENTS = [
  'needs-permission',
  'question',
  'idle',
  'parked',
  'resumed',
  'review',
  'degraded',
  'brake',
  'crash-stop',
  'ended',
] as const;
export type NotifyEventName = (typeof NOTIFY_EVENTS)[number];

export type NotifyEvent =
  /** claude waits for a person to approve a tool call; `tool` is what it asks for, e.g. "Bash touch x" */
  | { name: 'needs-permission'; tool: string }
  /** claude asks its person a question; `text` is it with its choices, "Which parser? (A / B)" */
  | { name: 'question'; text: string }
  /** claude sits at its prompt waiting for its person */
  | { name: 'idle' }
  /** a usage limit parked the session; `resetsAtMs` is when it lifts (null: unknown) */
  | { name: 'parked'; resetsAtMs: number | null }
  | { name: 'resumed' }
  /** a frozen handoff document waits for a person to read or edit it */
  | { name: 'review'; document: string; generation?: number }
  /** the session did not write its document: a mechanical one was used */
  | { name: 'degraded'; reason: string; document: string | null; generation?: number }
  | { name: 'brake'; reason: string }
  | { name: 'crash-stop'; reason: string }
  | { name: 'ended'; reason: string };

/** one command run: the values the environment carries */
export interface NotifySend {
  event: NotifyEventName;
  message: string;
  document: string | null;
}

export interface NotifyState {
  /** when each key (event + message) was last sent, in ms */
  readonly lastSent: Readonly<Record<string, number>>;
}

export const INITIAL_NOTIFY_STATE: NotifyState = { lastSent: {} };

/** a repeat of the same event with the same message inside this window is not sent again */
export const DEFAULT_NOTIFY_WINDOW_MS = 5 * 60_000;

/** a command still running this long after it started is killed (with its process group) */
export const DEFAULT_NOTIFY_TIMEOUT_MS = 15_000;

/** with this many commands still running, a new one is dropped: a hung command must not pile up processes */
export const DEFAULT_NOTIFY_MAX_RUNNING = 3;

// What ends a run is said every time: it happens once, and a person must never miss it.
const NEVER_SUPPRESSED: ReadonlySet<NotifyEventName> = new Set(['brake', 'crash-stop', 'ended']);

const MAX_DETAIL = 300;

// Text from a transcript or a tool call may hold control characters or escapes; a notification shows
// them raw (a terminal, a phone), so they become spaces, and a runaway command line is cut short.
export function cleanNotifyText(text: string): string {
  return oneLine(text, MAX_DETAIL);
}

// A run event (core/run/run-events.ts) as a notification, or null when it is not worth a person's attention.
// Exit 3 is the brake, 4 a crash stop (core/errors.ts).
export function notifyEventOf(e: RunEventOf): NotifyEvent | null {
  switch (e.event) {
    case 'needs-permission':
      return { name: e.event, tool: e.what || e.tool || 'a tool' };
    case 'question':
      return { name: e.event, text: e.question || 'a question' };
    case 'idle':
    case 'resumed':
      return { name: e.event };
    case 'parked':
      return { name: e.event, resetsAtMs: e.untilMs ?? null };
    case 'review':
      return { name: e.event, document: e.path || '(kept in memory: no workbench)', generation: e.generation };
    case 'degraded':
      return { name: e.event, reason: e.reason ?? '', document: e.path || null, generation: e.generation };
    case 'ended': {
      const reason = e.message || (e.exitCode === EXIT.ok ? 'claude was quit' : `exit ${e.exitCode}`);
      if (e.exitCode === EXIT.brake) return { name: 'brake', reason };
      if (e.exitCode === EXIT.crashLoop) return { name: 'crash-stop', reason };
      return { name: 'ended', reason };
    }
    default:
      return null;
  }
}

export function notifyMessage(event: NotifyEvent): string {
  switch (event.name) {
    case 'needs-permission':
      return `waiting for your permission: ${cleanNotifyText(event.tool)}`;
    case 'question':
      return `claude asks: ${cleanNotifyText(event.text)}`;
    case 'idle':
      return 'claude is idle, waiting for you';
    case 'parked':
      return event.resetsAtMs === null
        ? 'parked on a usage limit'
        : `parked on a usage limit until ${formatClock(event.resetsAtMs)}`;
    case 'resumed':
      return 'the usage limit has lifted: the session goes on';
    case 'review':
      // Each generation's document is news of its own: the generation keeps the rate limit from eating it.
      return (
        `${event.generation !== undefined ? `generation ${event.generation}'s` : 'a'} handoff document waits for your review: ` +
        `${cleanNotifyText(event.document)}`
      );
    case 'degraded':
      return (
        `degraded handoff${event.generation !== undefined ? ` of generation ${event.generation}` : ''} ` +
        `(the session did not write its document): ${cleanNotifyText(event.reason)}`
      );
    case 'brake':
      return `stopped by the brake: ${cleanNotifyText(event.reason)}`;
    case 'crash-stop':
      return `stopped after claude crashed: ${cleanNotifyText(event.reason)}`;
    case 'ended':
      return `the run ended: ${cleanNotifyText(event.reason)}`;
  }
}

function documentOf(event: NotifyEvent): string | null {
  if (event.name === 'review') return event.document;
  if (event.name === 'degraded') return event.document;
  return null;
}

/** the commands still running when an event comes, and how many may run at once */
export interface NotifyLoad {
  running: number;
  maxRunning?: number;
}

// Whether to run the command for `event` now, and the state after. A repeat (same event, same message)
// within `windowMs` of the last one sent is dropped quietly; the end of a run never is. One that is due
// while `load.maxRunning` commands still run is dropped with a line for the log (`dropped`), and counts as
// sent for the rate limit: its repeats would find the same commands hung.
export function decideNotify(
  state: NotifyState,
  event: NotifyEvent,
  now: number,
  windowMs: number = DEFAULT_NOTIFY_WINDOW_MS,
  load: NotifyLoad = { running: 0 },
): { state: NotifyState; send?: NotifySend; dropped?: string } {
  const message = notifyMessage(event);
  const key = `${event.name}\u0000${message}`;
  const last = state.lastSent[key];
  if (!NEVER_SUPPRESSED.has(event.name) && last !== undefined && now - last < windowMs) return { state };
  const next = { lastSent: { ...state.lastSent, [key]: now } };
  if (load.running >= (load.maxRunning ?? DEFAULT_NOTIFY_MAX_RUNNING)) {
    return { state: next, dropped: `dropped, ${load.running} earlier commands are still running` };
  }
  return { state: next, send: { event: event.name, message, document: documentOf(event) } };
}

/** what identifies the run to the command: a label (e.g. the step and generation) and the folder */
export interface NotifyRun {
  run: string;
  cwd: string;
}

// Every variable notifyEnv may set: the command's base environment is cleared of them first, so an event
// without a document never shows one inherited from elsewhere (a flower-pty inside a notify command).
export const NOTIFY_ENV_KEYS = [
  'FLOWER_PTY_EVENT',
  'FLOWER_PTY_MESSAGE',
  'FLOWER_PTY_RUN',
  'FLOWER_PTY_CWD',
  'FLOWER_PTY_DOCUMENT',
] as const;

// The only channel from flower-pty to the command: nothing is ever spliced into the command text.
export function notifyEnv(send: NotifySend, run: NotifyRun): Record<string, string> {
  const env: Record<string, string> = {
    FLOWER_PTY_EVENT: send.event,
    FLOWER_PTY_MESSAGE: `flower-pty (${cleanNotifyText(run.run)}): ${send.message}`,
    FLOWER_PTY_RUN: run.run,
    FLOWER_PTY_CWD: run.cwd,
  };
  if (send.document !== null) env.FLOWER_PTY_DOCUMENT = send.document;
  return env;
}
