// The recorded 2.1.332 StopFailure payloads through the dialect: the core gets what the error means (the
// prompt does not fit, a usage limit, whether the session goes on by itself), never Claude Code's wording.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { toHookEvent } from '../../src/claude-code/run-hook.js';
import { claudeFixtures } from '../helpers/fixtures.js';

const payloads = readFileSync(claudeFixtures('2.1.332', 'sessions', 'walk-away', 'hook-payloads.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>)
  .filter((p) => p.hook_event_name === 'StopFailure');

t.test('a recorded rate limit and a recorded overflow', async (t) => {
  t.equal(payloads.length, 2, 'the fixture holds both failures');
  const [limit, overflow] = payloads.map((p) => toHookEvent('StopFailure', p));
  t.match(
    limit,
    { kind: 'stop-failure', error: 'rate_limit', overflow: false, usageLimit: { autoContinues: false } },
    'an API login says "API Error": nothing goes on by itself',
  );
  t.match(overflow, { kind: 'stop-failure', error: 'invalid_request', overflow: true, usageLimit: null });
});

t.test('the notifications the run decides on, by what they are about', async (t) => {
  for (const [type, about] of [
    ['idle_prompt', 'idle'],
    ['permission_prompt', 'permission'],
    ['quota_auto_resume_fired', 'resumed'],
    ['auth_success', 'other'],
  ] as const) {
    t.match(
      toHookEvent('Notification', { session_id: 's', notification_type: type, message: 'm' }),
      { kind: 'notification', about },
      type,
    );
  }
});

t.test("a subscription's limit continues by itself; any other error is neither", async (t) => {
  const hit = toHookEvent('StopFailure', {
    session_id: 's',
    error: 'rate_limit',
    last_assistant_message: "You've hit your limit · resets 3pm",
  });
  t.match(hit, { overflow: false, usageLimit: { autoContinues: true } });
  const other = toHookEvent('StopFailure', {
    session_id: 's',
    error: 'server_error',
    error_details: '500',
    last_assistant_message: 'API Error: 500',
  });
  t.match(other, { overflow: false, usageLimit: null });
  t.match(
    toHookEvent('StopFailure', {
      session_id: 's',
      error: 'invalid_request',
      last_assistant_message: 'input length and `max_tokens` exceed context limit',
    }),
    { overflow: true },
  );
});

// PostToolUseFailure as 2.1.332 sent it (test/fixtures/claude-code/2.1.332/scenarios/tool-boundaries/); PermissionDenied as its
// code builds it (auto mode's classifier, which the mock does not play, is the only caller).
t.test("a failed call's boundary and a call auto mode refused", async (t) => {
  const failed = toHookEvent('PostToolUseFailure', {
    session_id: 's',
    transcript_path: '/t.jsonl',
    cwd: '/p',
    hook_event_name: 'PostToolUseFailure',
    tool_name: 'Bash',
    tool_input: { command: 'ls /nope' },
    tool_use_id: 'toolu_1',
    error: 'Exit code 2',
    is_interrupt: false,
    duration_ms: 9,
  });
  t.match(failed, {
    kind: 'post-tool',
    sessionId: 's',
    subagent: false,
    tool: 'Bash',
    toolUseId: 'toolu_1',
    failed: true,
    where: { transcriptPath: '/t.jsonl', cwd: '/p' },
  });
  t.match(
    toHookEvent('PostToolUseFailure', {
      session_id: 's',
      agent_id: 'a1',
      tool_name: 'Bash',
      tool_use_id: 'toolu_2',
      error: 'x',
    }),
    { kind: 'post-tool', subagent: true, failed: true },
  );
  t.match(
    toHookEvent('PostToolUseFailure', {
      session_id: 's',
      tool_name: 'Bash',
      tool_use_id: 'toolu_5',
      error: 'Interrupted',
      is_interrupt: true,
    }),
    { kind: 'post-tool', failed: true, interrupted: true },
    'a call a person stopped',
  );
  t.notOk('interrupted' in failed, 'one that failed by itself is not');
  t.notOk(
    'failed' in toHookEvent('PostToolUse', { session_id: 's', tool_name: 'Bash', tool_use_id: 'toolu_3' }),
    'a call that worked is not marked',
  );
  const denied = toHookEvent('PermissionDenied', {
    session_id: 's',
    hook_event_name: 'PermissionDenied',
    tool_name: 'Bash',
    tool_input: { command: 'rm -rf /' },
    tool_use_id: 'toolu_4',
    reason: 'destructive',
  });
  t.match(denied, {
    kind: 'tool-denied',
    sessionId: 's',
    subagent: false,
    tool: 'Bash',
    toolUseId: 'toolu_4',
    reason: 'destructive',
  });
});
