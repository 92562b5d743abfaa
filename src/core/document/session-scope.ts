// What a Claude Code session holds that dies with it: its task list, a pending /loop wake-up, its
// session-only crons, its goal, its monitors and background shells. A value of this release-neutral
// shape is folded from the changes the dialect reads off the transcript (claude-code/session-scope.ts),
// and at a handoff it becomes lines of the document's facts (seen by a person during review) and the
// successor's instructions: what to set up again, and what ended and cannot be carried. Pure.

import { oneLine } from '../one-line.js';

export type TaskStatus = 'pending' | 'in_progress' | 'completed';

export interface ScopeTask {
  id: string;
  subject: string;
  description: string;
  status: TaskStatus;
  activeForm: string | null;
  blockedBy: string[];
}

export interface ScopeWakeup {
  prompt: string;
  delaySeconds: number;
}

export interface ScopeCron {
  id: string;
  /** the 5-field cron expression */
  cron: string;
  /** Claude Code's own reading of it ("Every 5 minutes"), when it said */
  schedule: string | null;
  prompt: string;
  recurring: boolean;
}

/** a monitor or a background shell: something running in the old session's process */
export interface ScopeBackground {
  id: string;
  /** the command (or the watched URL) */
  command: string;
  description: string | null;
}

export interface SessionScope {
  /** in the order they were created */
  tasks: ScopeTask[];
  wakeup: ScopeWakeup | null;
  crons: ScopeCron[];
  goal: { condition: string } | null;
  monitors: ScopeBackground[];
  shells: ScopeBackground[];
}

// Each change is idempotent: a transcript read again from its start (a reset, a moved file) folds to the same value.
export type ScopeChange =
  | { kind: 'task-created'; id: string; subject: string; description: string; activeForm: string | null }
  | {
      kind: 'task-updated';
      id: string;
      status?: TaskStatus | 'deleted';
      subject?: string;
      description?: string;
      activeForm?: string;
      addBlockedBy?: string[];
    }
  | { kind: 'wakeup-set'; prompt: string; delaySeconds: number }
  /** a `stop`, or the wake-up fired (the turn it started may set the next one) */
  | { kind: 'wakeup-cleared' }
  | { kind: 'cron-created'; cron: ScopeCron }
  | { kind: 'cron-gone'; id: string }
  /** a one-shot deletes itself when it fires; a recurring one stays */
  | { kind: 'cron-fired'; id: string }
  | { kind: 'goal-set'; condition: string }
  | { kind: 'goal-cleared' }
  | { kind: 'monitor-started'; monitor: ScopeBackground }
  | { kind: 'shell-started'; shell: ScopeBackground }
  /** a monitor or shell finished, failed, timed out or was stopped */
  | { kind: 'background-ended'; id: string };

export const EMPTY_SCOPE: SessionScope = { tasks: [], wakeup: null, crons: [], goal: null, monitors: [], shells: [] };

const upsert = <T extends { id: string }>(list: T[], item: T): T[] =>
  list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [...list, item];

export function applyScopeChange(scope: SessionScope, change: ScopeChange): SessionScope {
  switch (change.kind) {
    case 'task-created': {
      const { kind: _kind, ...fields } = change;
      const old = scope.tasks.find((t) => t.id === change.id);
      return {
        ...scope,
        tasks: upsert(scope.tasks, old ? { ...old, ...fields } : { ...fields, status: 'pending', blockedBy: [] }),
      };
    }
    case 'task-updated': {
      const old = scope.tasks.find((t) => t.id === change.id);
      if (!old) return scope;
      if (change.status === 'deleted') return { ...scope, tasks: scope.tasks.filter((t) => t.id !== change.id) };
      const blockedBy = [...old.blockedBy, ...(change.addBlockedBy ?? []).filter((id) => !old.blockedBy.includes(id))];
      return {
        ...scope,
        tasks: upsert(scope.tasks, {
          ...old,
          ...(change.status ? { status: change.status } : {}),
          ...(change.subject !== undefined ? { subject: change.subject } : {}),
          ...(change.description !== undefined ? { description: change.description } : {}),
          ...(change.activeForm !== undefined ? { activeForm: change.activeForm } : {}),
          blockedBy,
        }),
      };
    }
    case 'wakeup-set':
      return { ...scope, wakeup: { prompt: change.prompt, delaySeconds: change.delaySeconds } };
    case 'wakeup-cleared':
      return { ...scope, wakeup: null };
    case 'cron-created':
      return { ...scope, crons: upsert(scope.crons, change.cron) };
    case 'cron-gone':
      return { ...scope, crons: scope.crons.filter((c) => c.id !== change.id) };
    case 'cron-fired':
      return { ...scope, crons: scope.crons.filter((c) => c.id !== change.id || c.recurring) };
    case 'goal-set':
      return { ...scope, goal: { condition: change.condition } };
    case 'goal-cleared':
      return { ...scope, goal: null };
    case 'monitor-started':
      return { ...scope, monitors: upsert(scope.monitors, change.monitor) };
    case 'shell-started':
      return { ...scope, shells: upsert(scope.shells, change.shell) };
    case 'background-ended':
      return {
        ...scope,
        monitors: scope.monitors.filter((m) => m.id !== change.id),
        shells: scope.shells.filter((s) => s.id !== change.id),
      };
  }
}

// /clear starts a new conversation in the same process: its task list starts empty, while crons, a pending
// wake-up and background shells live on (as Claude Code was seen to do: TaskList "No tasks found", CronList unchanged).
export const afterClear = (scope: SessionScope): SessionScope => ({ ...scope, tasks: [] });

export const applyScopeChanges = (scope: SessionScope, changes: readonly ScopeChange[]): SessionScope =>
  changes.reduce(applyScopeChange, scope);

export const openTasks = (scope: SessionScope): ScopeTask[] => scope.tasks.filter((t) => t.status !== 'completed');

export function isEmptyScope(scope: SessionScope): boolean {
  return (
    openTasks(scope).length === 0 &&
    scope.wakeup === null &&
    scope.crons.length === 0 &&
    scope.goal === null &&
    scope.monitors.length === 0 &&
    scope.shells.length === 0
  );
}

// Each value shown on one line, cut short: a runaway prompt must not swamp the document.
const TEXT_CHARS = 300;
const MAX_ITEMS = 30;
const q = (text: string): string => `"${oneLine(text, TEXT_CHARS).replace(/"/g, "'")}"`;
const STATUS_WORDS: Record<TaskStatus, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
};

function capped<T>(items: readonly T[], line: (item: T) => string, more: (n: number) => string): string[] {
  const lines = items.slice(0, MAX_ITEMS).map(line);
  return items.length > MAX_ITEMS ? [...lines, more(items.length - MAX_ITEMS)] : lines;
}

const taskText = (t: ScopeTask): string =>
  `task #${oneLine(t.id, 40)} (${STATUS_WORDS[t.status]}): ` +
  `${q(t.subject)}${t.blockedBy.length > 0 ? `, blocked by ${t.blockedBy.map((id) => `#${oneLine(id, 40)}`).join(', ')}` : ''}`;
const cronText = (c: ScopeCron): string =>
  `session cron ${oneLine(c.cron, 60)}${c.schedule ? ` (${oneLine(c.schedule, 80)})` : ''}, ${c.recurring ? 'recurring' : 'once'}, prompt ${q(c.prompt)}`;
const wakeupText = (w: ScopeWakeup): string => `pending /loop wake-up in ${w.delaySeconds} s, prompt ${q(w.prompt)}`;
const backgroundText = (what: string, b: ScopeBackground): string =>
  `${what} ${q(b.command)}${b.description ? ` (${oneLine(b.description, 120)})` : ''}`;

// The facts block's lines (core/document/scene-facts.ts adds the "- "): what the previous session had, and its fate.
export function scopeFactLines(scope: SessionScope): string[] {
  return [
    ...(scope.goal ? [`goal (the successor sets it again): ${q(scope.goal.condition)}`] : []),
    ...capped(
      openTasks(scope),
      (t) => `open ${taskText(t)}; the successor creates it again`,
      (n) => `and ${n} more open tasks`,
    ),
    ...(scope.wakeup ? [`${wakeupText(scope.wakeup)}; the successor schedules it again`] : []),
    ...capped(
      scope.crons,
      (c) => `${cronText(c)}; the successor creates it again`,
      (n) => `and ${n} more session crons`,
    ),
    ...capped(
      scope.monitors,
      (m) => `ended with the previous session, not carried: ${backgroundText('monitor', m)}`,
      (n) => `and ${n} more monitors ended`,
    ),
    ...capped(
      scope.shells,
      (s) => `ended with the previous session, not carried: ${backgroundText('background shell', s)}`,
      (n) => `and ${n} more background shells ended`,
    ),
  ];
}

// The successor's instructions, or null when the previous session left nothing session-scoped behind.
export function rearmInstructions(scope: SessionScope): string | null {
  if (isEmptyScope(scope)) return null;
  const steps: string[] = [];
  if (scope.goal)
    steps.push(
      `- Set the goal again with the condition ${q(scope.goal.condition)} (with your goal tool, ` +
        `without asking again; if you have none, ask the person to set it: /goal followed by the condition).`,
    );
  const tasks = openTasks(scope);
  if (tasks.length > 0) {
    steps.push(
      `- Create these tasks again in your task list, with the same subject and status, in this order (the numbers are the old session's; yours may differ):`,
    );
    steps.push(
      ...capped(
        tasks,
        (t) =>
          `  - ${taskText(t)}${t.description && t.description !== t.subject ? `: ${oneLine(t.description, TEXT_CHARS)}` : ''}`,
        (n) => `  - and ${n} more: see the handoff document's facts`,
      ),
    );
  }
  if (scope.wakeup)
    steps.push(
      `- Schedule the /loop wake-up again with exactly the prompt ${q(scope.wakeup.prompt)} and a delay of ${scope.wakeup.delaySeconds} seconds.`,
    );
  if (scope.crons.length > 0) {
    steps.push('- Create these session-only crons again (not durable), with the same schedule and prompt:');
    steps.push(
      ...capped(
        scope.crons,
        (c) => `  - ${cronText(c)}`,
        (n) => `  - and ${n} more: see the handoff document's facts`,
      ),
    );
  }
  const ended = [
    ...scope.monitors.map((m) => backgroundText('monitor', m)),
    ...scope.shells.map((s) => backgroundText('background shell', s)),
  ];
  if (ended.length > 0) {
    steps.push(
      '- These ended with the previous session and cannot be carried over (their process is gone); start them again only if the work still needs them:',
    );
    steps.push(
      ...capped(
        ended,
        (e) => `  - ${e}`,
        (n) => `  - and ${n} more`,
      ),
    );
  }
  return `The previous session had set these up in its own session, and they ended with it. Before you go on with the work:\n${steps.join('\n')}`;
}
