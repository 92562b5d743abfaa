// Claude Code 2.1.332's session-scoped state as its transcript records it, turned into the core's
// release-neutral changes (core/document/session-scope.ts). Incremental and pure: one reader per transcript
// followed, fed every line; it remembers the tool calls still waiting for their result.
//
// What 2.1.332 writes (tool names, inputs and results as in sdk-tools.d.ts; rows recorded from the real
// binary in test/fixtures/claude-code/2.1.332/scenarios/session-scope/):
// - an assistant row with a `tool_use` block {id, name, input}, later a user row whose `tool_result` block
//   names it (`tool_use_id`, `is_error` on a refusal) and whose `toolUseResult` is the structured result;
// - TaskCreate → `{task: {id, subject, description}}`; TaskUpdate → `{success, taskId, updatedFields,
//   statusChange?}` (status "deleted" removes a task; a failed one says `success: false`);
// - ScheduleWakeup {delaySeconds, prompt, stop?} → `{scheduledFor, clampedDelaySeconds, stopped?}`; a
//   wake-up that fires writes a `system` row, subtype `scheduled_task_fire`, `taskKind: "loop"` (a cron's
//   firing names its `taskId`);
// - CronCreate {cron, prompt, recurring?, durable?} → `{id, humanSchedule, recurring, durable}` (a durable
//   one is on disk and outlives the session: not ours to carry); CronDelete {id} → `{id}`;
// - the goal: `/goal <condition>` (and ProposeGoal, whose approval 2.1.332 gates behind a server flag:
//   against the mock it answers "ProposeGoal is disabled for this session") writes an `attachment` row
//   `{type: "goal_status", met, condition}`: met false sets it, met true (achieved, or `/goal clear`) ends it;
// - Monitor → `{taskId, timeoutMs}`; Bash with run_in_background (or a command the person backgrounded)
//   → `{backgroundTaskId}`; each ends with a `<task-notification>` carrying `<task-id>` and `<status>`
//   (a user row, or a `queued_command` attachment while a turn runs), or a TaskStop → `{task_id}`.

import type { ScopeBackground, ScopeChange, TaskStatus } from '../core/document/session-scope.js';
import { isProgressRow, mayMoveMeter } from './transcript-rows.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

// The rows that can carry any of it are assistant, user and system rows, which the meter parses anyway
// (transcript-rows.ts, mayMoveMeter), and two kinds of attachment row: the goal's, and a queued command
// (a task notification written while a turn runs). Those are the only lines the reader needs parsed for
// itself: one cheap test, asked only of the lines the meter passes over (core/transcript-reader.ts).
const SCOPE_ATTACHMENT = /"type": ?"(?:goal_status|queued_command)"/;

export function mayBeScopeAttachment(line: string): boolean {
  return SCOPE_ATTACHMENT.test(line) && !isProgressRow(line);
}

export interface ScopeReader {
  /** one transcript line in, the changes it makes */
  line(text: string): ScopeChange[];
  /** one already-parsed row (any row: those it does not read change nothing), the changes it makes */
  row(value: unknown): ScopeChange[];
}

const TASK_STATUSES = new Set(['pending', 'in_progress', 'completed', 'deleted']);
const BACKGROUND_ENDED = /<task-id>([^<]+)<\/task-id>[\s\S]*?<status>([^<]+)<\/status>/g;

export function createScopeReader(): ScopeReader {
  // tool_use id → the call, until its result row comes
  const calls = new Map<string, { name: string; input: Obj }>();

  function onAssistant(content: unknown[]): void {
    for (const block of content) {
      if (!isObj(block) || block.type !== 'tool_use') continue;
      const id = str(block.id);
      const name = str(block.name);
      if (id && name) calls.set(id, { name, input: isObj(block.input) ? block.input : {} });
    }
  }

  function onResult(block: Obj, result: unknown, out: ScopeChange[]): void {
    const id = str(block.tool_use_id);
    const call = id ? calls.get(id) : undefined;
    if (!id || !call) return;
    calls.delete(id);
    if (block.is_error === true || !isObj(result)) return; // refused or failed: nothing changed
    out.push(...changesOfCall(call.name, call.input, result));
  }

  function notifications(text: string, out: ScopeChange[]): void {
    // Every user row's text comes here: matchAll copies its pattern, so ask a plain search first.
    if (!text.includes('<task-id>')) return;
    for (const m of text.matchAll(BACKGROUND_ENDED)) {
      if ((m[2] ?? '').trim() !== 'running') out.push({ kind: 'background-ended', id: (m[1] ?? '').trim() });
    }
  }

  function read(row: unknown): ScopeChange[] {
    if (!isObj(row) || row.isSidechain === true) return [];
    const out: ScopeChange[] = [];
    const message = isObj(row.message) ? row.message : {};
    const content = message.content;
    switch (row.type) {
      case 'assistant':
        if (Array.isArray(content)) onAssistant(content);
        break;
      case 'user':
        if (Array.isArray(content)) {
          for (const block of content) {
            if (isObj(block) && block.type === 'tool_result') onResult(block, row.toolUseResult, out);
            else if (isObj(block) && block.type === 'text' && typeof block.text === 'string')
              notifications(block.text, out);
          }
        } else if (typeof content === 'string') {
          notifications(content, out);
        }
        break;
      case 'attachment': {
        const a = isObj(row.attachment) ? row.attachment : {};
        if (a.type === 'goal_status') {
          const condition = str(a.condition);
          if (a.met === false && condition) out.push({ kind: 'goal-set', condition });
          else if (a.met === true) out.push({ kind: 'goal-cleared' });
        } else if (a.type === 'queued_command' && typeof a.prompt === 'string') {
          notifications(a.prompt, out);
        }
        break;
      }
      case 'system':
        if (row.subtype === 'scheduled_task_fire') {
          if (row.taskKind === 'loop') out.push({ kind: 'wakeup-cleared' });
          else if (typeof row.taskId === 'string') out.push({ kind: 'cron-fired', id: row.taskId });
        }
        break;
    }
    return out;
  }

  return {
    line(text) {
      if (!mayMoveMeter(text) && !mayBeScopeAttachment(text)) return [];
      try {
        return read(JSON.parse(text));
      } catch {
        return [];
      }
    },
    row: read,
  };
}

function changesOfCall(name: string, input: Obj, result: Obj): ScopeChange[] {
  switch (name) {
    case 'TaskCreate': {
      const task = isObj(result.task) ? result.task : {};
      const id = str(task.id);
      if (!id) return [];
      return [
        {
          kind: 'task-created',
          id,
          subject: str(task.subject) ?? str(input.subject) ?? '',
          description: str(task.description) ?? str(input.description) ?? '',
          activeForm: str(input.activeForm),
        },
      ];
    }
    case 'TaskUpdate': {
      const id = str(result.taskId) ?? str(input.taskId);
      if (result.success !== true || !id) return [];
      const status = str(input.status);
      const blocked = Array.isArray(input.addBlockedBy)
        ? input.addBlockedBy.filter((x): x is string => typeof x === 'string')
        : [];
      return [
        {
          kind: 'task-updated',
          id,
          ...(status && TASK_STATUSES.has(status) ? { status: status as TaskStatus | 'deleted' } : {}),
          ...(str(input.subject) !== null ? { subject: str(input.subject)! } : {}),
          ...(str(input.description) !== null ? { description: str(input.description)! } : {}),
          ...(str(input.activeForm) !== null ? { activeForm: str(input.activeForm)! } : {}),
          ...(blocked.length > 0 ? { addBlockedBy: blocked } : {}),
        },
      ];
    }
    case 'ScheduleWakeup': {
      if (input.stop === true || result.stopped === true) return [{ kind: 'wakeup-cleared' }];
      const prompt = str(input.prompt);
      const delay = num(result.clampedDelaySeconds) ?? num(input.delaySeconds);
      return prompt !== null && delay !== null ? [{ kind: 'wakeup-set', prompt, delaySeconds: delay }] : [];
    }
    case 'CronCreate': {
      const id = str(result.id);
      const cron = str(input.cron);
      const prompt = str(input.prompt);
      // durable: written to .claude/scheduled_tasks.json, it outlives the session by itself
      if (!id || cron === null || prompt === null || result.durable === true) return [];
      const recurring = typeof result.recurring === 'boolean' ? result.recurring : input.recurring !== false;
      return [{ kind: 'cron-created', cron: { id, cron, schedule: str(result.humanSchedule), prompt, recurring } }];
    }
    case 'CronDelete': {
      const id = str(result.id) ?? str(input.id);
      return id ? [{ kind: 'cron-gone', id }] : [];
    }
    case 'ProposeGoal':
    case 'SetGoal': {
      // asked first: the goal_status row says whether the person approved it
      const condition = str(result.condition) ?? str(input.condition);
      return result.askUser === false && condition ? [{ kind: 'goal-set', condition }] : [];
    }
    case 'Monitor': {
      const id = str(result.taskId);
      const ws = isObj(input.ws) ? str(input.ws.url) : null;
      const command = str(input.command) ?? ws;
      return id && command !== null
        ? [{ kind: 'monitor-started', monitor: background(id, command, str(input.description)) }]
        : [];
    }
    case 'Bash': {
      const id = str(result.backgroundTaskId);
      const command = str(input.command);
      return id && command !== null
        ? [{ kind: 'shell-started', shell: background(id, command, str(input.description)) }]
        : [];
    }
    case 'TaskStop':
    case 'KillShell': {
      const id = str(result.task_id) ?? str(input.task_id) ?? str(input.shell_id);
      return id ? [{ kind: 'background-ended', id }] : [];
    }
    default:
      return [];
  }
}

const background = (id: string, command: string, description: string | null): ScopeBackground => ({
  id,
  command,
  description,
});
