// End to end against the REAL claude 2.1.332: a session that sets a goal (/goal: 2.1.332 keeps ProposeGoal
// disabled against the mock), creates tasks, schedules a /loop wake-up and a session cron, starts a
// background shell, then hands off. The document's facts name all of it, and the successor's first
// request, as the mock received it, tells it what to set up again and what ended.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { text, usageFor, type MockReply } from '../../src/mock/messages-api.js';
import { startFlower, handoffDoc, bySession, HANDOFF_ASK, TAKING_OVER } from '../helpers/flower-run.js';

const tool = (name: string, input: Record<string, unknown>, context: number): MockReply => ({
  kind: 'tool',
  name,
  input,
  usage: usageFor(context),
});

t.test(
  'tasks, a /loop wake-up, a session cron and a goal reach the facts and the successor; a background shell is said to have ended',
  async (t) => {
    const steps: MockReply[] = [
      tool(
        'TaskCreate',
        { subject: 'Write the parser', description: 'parse the rows', activeForm: 'Writing the parser' },
        10_000,
      ),
      tool('TaskCreate', { subject: 'Test the parser', description: 'table tests' }, 12_000),
      tool('TaskUpdate', { taskId: '1', status: 'in_progress' }, 14_000),
      tool(
        'ScheduleWakeup',
        { delaySeconds: 900, reason: 'check the build later', prompt: 'check the build', noop: false },
        16_000,
      ),
      tool('CronCreate', { cron: '*/10 * * * *', prompt: 'look at the queue', recurring: true }, 18_000),
      tool('Bash', { command: 'sleep 900', description: 'Wait in the background', run_in_background: true }, 20_000),
      text('all set up', usageFor(55_000)),
    ];
    const respond = bySession((req, i) => {
      if (HANDOFF_ASK.test(req.lastUserText)) return text(handoffDoc('SCOPE'), usageFor(57_000));
      return steps[i] ?? text('more', usageFor(56_000));
    });
    const f = await startFlower({
      t,
      respond,
      prompt: '/goal all tests in test/core pass',
      flowerArgs: ['--window', '100k', '--review', '0'],
    });
    const done = await f.waitForEvent('done', 120_000);
    t.equal(done.degraded, false);
    const doc = readFileSync(f.documentPath, 'utf8');
    const facts = doc.slice(doc.indexOf('[flower-pty facts · written by flower-pty, not by the model]'));
    t.match(facts, /\n- goal \(the successor sets it again\): "all tests in test\/core pass"\n/);
    t.match(facts, /\n- open task #1 \(in progress\): "Write the parser"; the successor creates it again\n/);
    t.match(facts, /\n- open task #2 \(pending\): "Test the parser"; the successor creates it again\n/);
    t.match(facts, /\n- pending \/loop wake-up in 900 s, prompt "check the build"; the successor schedules it again\n/);
    t.match(
      facts,
      /\n- session cron \*\/10 \* \* \* \* \(Every 10 minutes\), recurring, prompt "look at the queue"; the successor creates it again\n/,
    );
    t.match(
      facts,
      /\n- ended with the previous session, not carried: background shell "sleep 900" \(Wait in the background\)/,
    );

    const start2 = await f.waitForEvent('generation-start', 60_000, (e) => e.generation === 2);
    const first = await f.api.waitForRequest((r) => r.isMain && r.sessionId === start2.session_id, 60_000);
    const told = first.lastUserText;
    t.match(told, TAKING_OVER);
    t.match(told, /- Set the goal again with the condition "all tests in test\/core pass"/);
    t.match(
      told,
      /- Create these tasks again in your task list[^\n]*\n {2}- task #1 \(in progress\): "Write the parser": parse the rows\n {2}- task #2 \(pending\): "Test the parser": table tests/,
    );
    t.match(
      told,
      /- Schedule the \/loop wake-up again with exactly the prompt "check the build" and a delay of 900 seconds\./,
    );
    t.match(
      told,
      /- Create these session-only crons again[^\n]*\n {2}- session cron \*\/10 \* \* \* \*[^\n]*"look at the queue"/,
    );
    t.match(told, /cannot be carried over[^\n]*\n {2}- background shell "sleep 900" \(Wait in the background\)/);
    t.match(told, /SCOPE/, 'and the document itself');
  },
);
