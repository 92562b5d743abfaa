// The dialect's reading of 2.1.332's session-scoped state, table-driven on transcript rows recorded from the
// real claude against the mock (test/fixtures/claude-code/2.1.332/scenarios/session-scope/, record.ts there), plus a few rows
// built from sdk-tools.d.ts where the mock cannot make the binary write them (an approved ProposeGoal).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScopeReader, mayBeScopeAttachment } from '../../src/claude-code/session-scope.js';
import { mayMoveMeter } from '../../src/claude-code/transcript-rows.js';
import { applyScopeChanges, EMPTY_SCOPE, openTasks, type SessionScope } from '../../src/core/document/session-scope.js';
import { claudeFixtures } from '../helpers/fixtures.js';

const dir = claudeFixtures('2.1.332', 'scenarios', 'session-scope');
const lines = (name: string): string[] =>
  readFileSync(join(dir, name), 'utf8')
    .split('\n')
    .filter((l) => l !== '');

function fold(rows: readonly string[]): SessionScope {
  const reader = createScopeReader();
  return rows.reduce((scope, row) => applyScopeChanges(scope, reader.line(row)), EMPTY_SCOPE);
}

// Rows up to (not including) the first one that matches.
const until = (rows: string[], re: RegExp): string[] =>
  rows.slice(
    0,
    Math.max(
      0,
      rows.findIndex((l) => re.test(l)),
    ),
  );
const row = (value: unknown): string => JSON.stringify(value);
const toolUse = (id: string, name: string, input: unknown) =>
  row({
    type: 'assistant',
    isSidechain: false,
    message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
  });
const toolResult = (id: string, result: unknown, isError = false) =>
  row({
    type: 'user',
    isSidechain: false,
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: 'x', ...(isError ? { is_error: true } : {}) }],
    },
    toolUseResult: result,
  });

const scope = lines('scope.jsonl');
const wakeup = lines('wakeup-fired.jsonl');
const shape = (s: SessionScope) => ({
  tasks: s.tasks.map((x) => [x.id, x.status, x.subject, x.blockedBy]),
  wakeup: s.wakeup,
  crons: s.crons.map((c) => [c.cron, c.prompt, c.recurring, c.schedule]),
  goal: s.goal,
  monitors: s.monitors.map((m) => [m.command, m.description]),
  shells: s.shells.map((m) => [m.command, m.description]),
});

const cases: Array<{ name: string; rows: string[]; want: Partial<ReturnType<typeof shape>> }> = [
  {
    name: 'the whole recorded session: open tasks, the wake-up, the session crons, the live monitor and shell; the goal cleared at its end',
    rows: scope,
    want: {
      tasks: [
        ['1', 'in_progress', 'Write the parser', []],
        ['2', 'pending', 'Test the parser well', ['1']],
        ['3', 'completed', 'Drop the old code', []],
      ],
      wakeup: { prompt: 'check the build', delaySeconds: 600 },
      // the durable weekly job is on disk (it outlives the session); the one-shot was deleted
      crons: [
        ['*/5 * * * *', 'look at the queue', true, 'Every 5 minutes'],
        ['0 * * * *', 'hourly look', true, 'Every hour'],
      ],
      goal: null,
      monitors: [['tail -f /dev/null', 'watch the log']],
      // "echo quick" finished (its task-notification), "sleep 500" was stopped (TaskStop)
      shells: [['sleep 600', 'Sleep for ten minutes']],
    },
  },
  {
    name: 'a /goal set and not yet cleared',
    rows: until(scope, /"goal_status","met":true/),
    want: { goal: { condition: 'all tests in test/core pass' } },
  },
  {
    name: 'a task is pending until updated',
    rows: until(scope, /"taskId":"1","status":"in_progress"/),
    want: {
      tasks: [
        ['1', 'pending', 'Write the parser', []],
        ['2', 'pending', 'Test the parser', []],
        ['3', 'pending', 'Drop the old code', []],
        ['4', 'pending', 'Throw away', []],
      ],
    },
  },
  {
    name: 'the one-shot cron before its CronDelete',
    rows: until(scope, /"name":"CronDelete"/),
    want: {
      crons: [
        ['*/5 * * * *', 'look at the queue', true, 'Every 5 minutes'],
        ['30 14 28 2 *', 'one shot reminder', false, '30 14 28 2 *'],
      ],
    },
  },
  {
    name: 'both shells before either ended',
    rows: until(scope, /"type":"queued_command"/),
    want: {
      shells: [
        ['sleep 600', 'Sleep for ten minutes'],
        ['echo quick', 'Print a word'],
      ],
    },
  },
  {
    name: 'a wake-up pending',
    rows: until(wakeup, /scheduled_task_fire/),
    want: { wakeup: { prompt: 'check the build', delaySeconds: 60 } },
  },
  {
    name: 'a wake-up that fired is no longer pending',
    rows: until(wakeup, /"delaySeconds":120/),
    want: { wakeup: null },
  },
  {
    name: 'the next one the fired turn set',
    rows: until(wakeup, /"stop":true/),
    want: { wakeup: { prompt: 'check the build', delaySeconds: 120 } },
  },
  { name: 'stop: true ends the loop', rows: wakeup, want: { wakeup: null } },
  {
    name: 'refusals change nothing: the disabled ProposeGoal, a failed TaskUpdate, an unknown CronDelete',
    rows: [
      ...scope.filter((l) => /"name":"ProposeGoal"|ProposeGoal is disabled/.test(l)),
      toolUse('a', 'TaskUpdate', { taskId: '99', status: 'completed' }),
      toolResult('a', { success: false, taskId: '99', updatedFields: [], error: 'Task not found' }),
      toolUse('b', 'CronDelete', { id: 'zz' }),
      toolResult('b', "Error: No scheduled job with id 'zz'", true),
    ],
    want: shape(EMPTY_SCOPE),
  },
  {
    // sdk-tools.d.ts: ProposeGoalOutput {condition, askUser}; asked first, only the goal_status row says it was approved
    name: 'an approved ProposeGoal (built from its declared result)',
    rows: [
      toolUse('g', 'ProposeGoal', { condition: 'the build is green', ask_user: false }),
      toolResult('g', { condition: 'the build is green', askUser: false }),
      toolUse('h', 'ProposeGoal', { condition: 'ask first', ask_user: true }),
      toolResult('h', { condition: 'ask first', askUser: true }),
    ],
    want: { goal: { condition: 'the build is green' } },
  },
  {
    name: "a subagent's rows and a request blob's copies of tool calls are not the session's",
    rows: [
      row({
        type: 'assistant',
        isSidechain: true,
        message: {
          content: [{ type: 'tool_use', id: 's', name: 'TaskCreate', input: { subject: 'x', description: 'y' } }],
        },
      }),
      row({
        type: 'user',
        isSidechain: true,
        message: { content: [{ type: 'tool_result', tool_use_id: 's', content: 'ok' }] },
        toolUseResult: { task: { id: '7', subject: 'x' } },
      }),
      row({
        type: 'api-request-blob',
        message: { content: [{ type: 'tool_use', id: 'r', name: 'TaskCreate', input: {} }] },
      }),
      toolResult('r', { task: { id: '8', subject: 'blob' } }),
    ],
    want: shape(EMPTY_SCOPE),
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const got = shape(fold(c.rows));
    for (const key of Object.keys(c.want) as Array<keyof typeof got>) t.same(got[key], c.want[key], key);
  });
}

t.test('folding is idempotent: a transcript read again from its start gives the same scope', async (t) => {
  t.same(fold([...scope, ...scope]), fold(scope));
  t.equal(openTasks(fold(scope)).length, 2);
});

t.test(
  'every row that carries scope is parsed: a row the meter reads, or one of the attachments the cheap test lets through',
  async (t) => {
    const reader = createScopeReader();
    const carrying = [...scope, ...wakeup].filter((l) => reader.line(l).length > 0);
    t.ok(carrying.length >= 10);
    for (const l of carrying) t.ok(mayMoveMeter(l) || mayBeScopeAttachment(l), l.slice(0, 80));
    t.ok(
      carrying.some((l) => !mayMoveMeter(l) && mayBeScopeAttachment(l)),
      'the goal attachment is one the meter passes over',
    );
    t.notOk(mayBeScopeAttachment('{"type":"api-request-blob","message":{"content":[{"type":"tool_use"}]}}'));
    t.notOk(
      mayBeScopeAttachment(
        '{"type":"progress","data":{"message":{"content":"<task-notification><task-id>b1</task-id><status>completed</status>"}}}',
      ),
    );
    t.notOk(
      mayBeScopeAttachment('{"type":"attachment","attachment":{"type":"skill_listing","content":"goal_status"}}'),
    );
  },
);

t.test(
  "through the transcript reader's tap: each row parsed once for both, the meter's signals unchanged",
  async (t) => {
    const { createTranscriptReader } = await import('../../src/core/meter/transcript-reader.js');
    const { TRANSCRIPT_ROWS } = await import('../../src/claude-code/transcript-rows.js');
    const bytes = readFileSync(join(dir, 'scope.jsonl'));
    const plain = createTranscriptReader(TRANSCRIPT_ROWS);
    const reader = createScopeReader();
    let tapped = EMPTY_SCOPE;
    const withTap = createTranscriptReader(TRANSCRIPT_ROWS, {
      taps: [
        {
          alsoWants: mayBeScopeAttachment,
          row: (value) => void (tapped = applyScopeChanges(tapped, reader.row(value))),
        },
      ],
    });
    const chunks = (r: ReturnType<typeof createTranscriptReader>) => [
      ...r.push(bytes.subarray(0, 7_777)),
      ...r.push(bytes.subarray(7_777)),
      ...r.end(),
    ];
    t.same(chunks(withTap), chunks(plain), 'the same signals');
    t.same(tapped, fold(scope), 'the same scope as line by line, attachment rows (the goal) included');
    t.ok(tapped.goal === null && tapped.tasks.length === 3);
  },
);
