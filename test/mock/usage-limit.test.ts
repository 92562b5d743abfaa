// A usage limit from the mock (MOCK_RATE_LIMIT, src/mock/fault-markers.ts) against the REAL claude 2.1.332
// in a pty, in both logins (docs/claude-code.md §10). Subscription: parked, then Claude Code continues by
// itself with an isMeta turn, 30-90 s after the reset (a random delay of its own: this test waits up to
// 150 s). API token: parked with no auto-continue; a prompt typed after the reset goes through. Measured
// timings go to the TAP output as comments.
import t from 'tap';
import type { Test } from 'tap';
import { markerReplies } from '../../src/mock/fault-markers.js';
import {
  hookArrival,
  readJsonl,
  seconds as secs,
  startClaudeRig,
  typeLine,
  WALK_AWAY_EVENTS,
} from '../helpers/real-claude.js';
import type { ClaudeRig, ClaudeRigOptions } from '../helpers/real-claude.js';

// A claude on the marker-driven mock with every walk-away hook recorded.
function rig(
  tt: Test,
  prompt: string,
  o: Omit<ClaudeRigOptions, 'respond' | 'prompt' | 'events'> = {},
): Promise<ClaudeRig> {
  return startClaudeRig(tt, { respond: markerReplies(), prompt, events: WALK_AWAY_EVENTS, ...o });
}

const transcript = (r: ClaudeRig) => readJsonl(r.sandbox.transcriptPath(r.sessionId));

t.test('subscription login: a usage limit parks the session, then Claude Code continues by itself', async (tt) => {
  const r = await rig(tt, 'keep working MOCK_RATE_LIMIT=5', { login: 'oauth' });
  const failedAt = await hookArrival(r, 'StopFailure', 60_000);
  const failure = r.hooks.payloads('StopFailure')[0];
  tt.equal(failure?.error, 'rate_limit', 'StopFailure says rate_limit');
  tt.match(failure?.last_assistant_message, /^You've hit your 5-hour limit · resets /);
  tt.equal(r.hooks.payloads('Stop').length, 0, 'no Stop: the turn did not end normally');
  const screen = await r.claude.waitForScreen(/set to continue automatically at/, 20_000);
  // On the hour Claude Code leaves the minutes out ("resets 2pm"): a run a moment before 14:00 saw that.
  tt.match(screen, /You've hit your 5-hour limit · resets \d+(:\d\d)?[ap]m/);

  await r.claude
    .waitFor(() => transcript(r).some((row) => row.apiError === 'usage_limit_reached'), 10_000, 'the usage-limit row')
    .catch(() => undefined);
  const limited = transcript(r).find((row) => row.apiError === 'usage_limit_reached') as
    | {
        apiErrorStatus?: number;
        error?: string;
        apiErrorParams?: { rate_limit_info?: { resetsAt?: number; rateLimitType?: string; status?: string } };
        message?: { model?: string };
      }
    | undefined;
  tt.equal(limited?.apiErrorStatus, 429);
  tt.equal(limited?.error, 'rate_limit');
  tt.equal(limited?.message?.model, '<synthetic>');
  tt.match(limited?.apiErrorParams?.rate_limit_info, { status: 'rejected', rateLimitType: 'five_hour' });
  const resetsAt = limited?.apiErrorParams?.rate_limit_info?.resetsAt ?? 0;
  tt.ok(Math.abs(resetsAt * 1000 - (failedAt + 5000)) < 5000, "the reset time is the mock's, about 5 s ahead");

  // Claude Code waits 30-90 s past the reset (a random jitter), then continues: a long but bounded wait.
  // (An idle_prompt notification may come first on a slow run: wait for this one by its type.)
  const fired = () => r.hooks.payloads('Notification').find((n) => n.notification_type === 'quota_auto_resume_fired');
  await r.claude.waitFor(() => fired() !== undefined, 150_000, 'the quota_auto_resume_fired notification');
  const firedAt = Date.now();
  tt.match(fired(), { message: 'Usage limit reset — Claude is continuing your task' });
  await r.claude.waitFor(() => transcript(r).some((row) => row.isMeta === true), 20_000, 'the auto-continuation row');
  const meta = transcript(r).find((row) => row.isMeta === true) as
    | { type?: string; origin?: { kind?: string }; message?: { content?: unknown } }
    | undefined;
  tt.equal(meta?.type, 'user');
  tt.equal(meta?.origin?.kind, 'auto-continuation', 'the continuation is marked as not typed by a person');
  tt.match(meta?.message?.content, /^Your claude\.ai usage limit has reset\. Continue the task you were working on/);
  await hookArrival(r, 'Stop', 30_000);
  tt.match(
    r.hooks.payloads('Stop')[0]?.last_assistant_message,
    /^Mock reply 1 /,
    'the continued turn reached the mock and ended',
  );
  tt.equal(r.api.requests.length, 2, 'one refused request, one after the reset');
  tt.comment(
    `measured: StopFailure ${secs(failedAt - r.claude.startedAt)} after spawn; auto-continue fired ${secs(firedAt - resetsAt * 1000)} after the reset`,
  );
});

for (const login of ['token', 'api-key'] as const) {
  t.test(
    `${login} login: a usage limit parks the session with no auto-continue; a prompt after the reset goes through`,
    async (tt) => {
      const r = await rig(tt, 'keep working MOCK_RATE_LIMIT=3', { login });
      await hookArrival(r, 'StopFailure', 60_000);
      tt.equal(r.hooks.payloads('StopFailure')[0]?.error, 'rate_limit');
      const screen = await r.claude.waitForScreen(/API Error: Request rejected \(429\)/, 20_000);
      tt.match(screen, /API Usage Billing/, 'an API login, not a subscription');
      tt.notMatch(screen, /continue automatically|Continuing shortly/, 'nothing is armed to continue by itself');
      // The row can land a moment after the hook and the screen (docs/claude-code.md §10: the transcript
      // trails the hooks): wait for it rather than read once (a CI run read it too early).
      const limitRow = () => transcript(r).find((x) => x.apiErrorStatus === 429);
      await r.claude.waitFor(() => limitRow() !== undefined, 10_000, 'the synthetic 429 row').catch(() => undefined);
      const row = limitRow();
      tt.ok(row, 'the synthetic 429 row');
      tt.notOk(row && 'apiError' in row, 'without apiError (that is the subscription row)');
      const resetAt = Date.now() + 4_000;
      await r.claude.waitFor(() => Date.now() > resetAt, 10_000, 'the reset');
      tt.equal(r.api.requests.length, 1, 'claude did not retry by itself');
      await typeLine(r.claude, 'continue');
      await hookArrival(r, 'Stop', 40_000);
      tt.match(
        r.hooks.payloads('Stop')[0]?.last_assistant_message,
        /^Mock reply 1 /,
        'the typed continue got an answer',
      );
      tt.notOk(
        transcript(r).some(
          (x) => x.isMeta === true && (x.origin as { kind?: string } | undefined)?.kind === 'auto-continuation',
        ),
        'no auto-continuation row',
      );
    },
  );
}
