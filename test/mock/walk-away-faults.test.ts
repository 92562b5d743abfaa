// The walk-away faults of the mock (src/mock/fault-markers.ts) against the REAL claude 2.1.332 in a pty, every
// hook recorded: each marker must produce what docs/claude-code.md §10 says the real service makes claude do.
// Here a permission wait that an approval ends (and one a refusal ends), and an automatic compaction announced by PreCompact (and held
// off when PreCompact blocks it); usage limits are in usage-limit.test.ts. Measured timings go to the TAP
// output as comments.
import t from 'tap';
import type { Test } from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK_SUMMARY, isCompactionRequest, markerReplies } from '../../src/mock/fault-markers.js';
import { refusedToolUseId } from '../../src/claude-code/permission-wait.js';
import {
  hookArrival,
  looksReady,
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

t.test('a tool call that needs permission: PermissionRequest at once, approval runs the tool', async (tt) => {
  const r = await rig(tt, 'make a file MOCK_TOUCH=x', { claudeArgs: ['--permission-mode', 'default'] });
  const preAt = await hookArrival(r, 'PreToolUse', 60_000);
  const askedAt = await hookArrival(r, 'PermissionRequest', 20_000);
  tt.match(r.hooks.payloads('PermissionRequest')[0], {
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command: 'touch x' },
  });
  await r.claude.waitForScreen(/Do you want to proceed\?/, 20_000);
  tt.notOk(existsSync(join(r.sandbox.projectDir, 'x')), 'the tool waits for the person');
  tt.equal(r.hooks.payloads('PostToolUse').length, 0);
  // The notification about the same wait comes seconds later: PermissionRequest is the one to act on.
  const notifiedAt = await hookArrival(r, 'Notification', 30_000);
  tt.match(r.hooks.payloads('Notification')[0], {
    notification_type: 'permission_prompt',
    message: 'Claude needs your permission',
  });
  tt.ok(notifiedAt - askedAt > 1_000, 'the notification lags the PermissionRequest by seconds');
  // Option 1 ("Yes") is selected: Enter approves.
  r.claude.pty.write('\r');
  await hookArrival(r, 'PostToolUse', 30_000);
  tt.ok(existsSync(join(r.sandbox.projectDir, 'x')), 'approved, the tool ran');
  await hookArrival(r, 'Stop', 30_000);
  tt.match(r.hooks.payloads('Stop')[0]?.last_assistant_message, /^Mock reply 1 /);
  tt.comment(
    `measured: PermissionRequest ${secs(askedAt - preAt)} after PreToolUse, permission_prompt ${secs(notifiedAt - askedAt)} after PermissionRequest (hook recorder arrival, polled every 50 ms)`,
  );
});

t.test('a refused permission: no hook at all, only the transcript row of the refusal', async (tt) => {
  const r = await rig(tt, 'make a file MOCK_TOUCH=x', { claudeArgs: ['--permission-mode', 'default'] });
  await hookArrival(r, 'PermissionRequest', 60_000);
  await r.claude.waitForScreen(/3\. No/, 20_000);
  r.claude.pty.write('3');
  await r.claude.waitFor(() => transcript(r).some((row) => refusedToolUseId(row) !== null), 20_000, 'the refusal row');
  const toolUse = r.hooks.payloads('PreToolUse')[0]?.tool_use_id;
  tt.equal(
    transcript(r)
      .map(refusedToolUseId)
      .find((id) => id !== null),
    toolUse,
    'the row names the refused call',
  );
  await r.claude.waitFor(async () => looksReady(await r.claude.screenText()), 20_000, 'the idle prompt');
  tt.notOk(existsSync(join(r.sandbox.projectDir, 'x')), 'the tool did not run');
  for (const event of ['PostToolUse', 'Stop', 'StopFailure'] as const)
    tt.equal(r.hooks.payloads(event).length, 0, `no ${event}`);
});

// Auto-compact left on (no DISABLE_AUTO_COMPACT). 199990 tokens is past the mock's 200000 window once the next
// prompt is added: the API's 400 is what makes 2.1.332 compact (docs/claude-code.md §2.3: its automatic compaction goes
// through the reactive path), announced by PreCompact with trigger auto.
const AUTO_COMPACT_ON = {};
const NEAR_FULL = 'fill it up MOCK_USAGE=199990';

t.test(
  "a context past the window with auto-compact on: PreCompact auto, then the mock's summary compacts",
  async (tt) => {
    const r = await rig(tt, NEAR_FULL, { env: AUTO_COMPACT_ON });
    await hookArrival(r, 'Stop', 60_000);
    await typeLine(r.claude, 'and one more');
    const compactAt = await hookArrival(r, 'PreCompact', 60_000);
    tt.match(r.hooks.payloads('PreCompact')[0], { trigger: 'auto', custom_instructions: null });
    await hookArrival(r, 'PostCompact', 60_000);
    tt.match(r.hooks.payloads('PostCompact')[0], { trigger: 'auto' });
    tt.match(
      r.hooks.payloads('PostCompact')[0]?.compact_summary,
      /MOCK-SUMMARY/,
      'the mock answered the compaction request',
    );
    tt.ok(r.api.requests.some(isCompactionRequest), 'the mock saw the compaction request');
    tt.match(
      r.hooks.payloads('SessionStart').map((p) => p.source),
      ['startup', 'compact'],
    );
    await hookArrival(r, 'Stop', 60_000, 2);
    const file = String(r.hooks.payloads('PostCompact')[0]?.transcript_path);
    await r.claude.waitFor(
      () => readJsonl(file).some((row) => row.subtype === 'compact_boundary'),
      20_000,
      `a compact_boundary row in ${file}`,
    );
    tt.match(
      r.hooks.payloads('Stop')[1]?.last_assistant_message,
      /^Mock reply 2 /,
      'the prompt was sent again after the compaction and answered',
    );
    tt.ok(MOCK_SUMMARY.includes('<summary>'));
    tt.comment(`measured: PreCompact ${secs(compactAt - r.claude.startedAt)} after spawn`);
  },
);

t.test('PreCompact answering block holds the automatic compaction off', async (tt) => {
  const r = await rig(tt, NEAR_FULL, {
    env: AUTO_COMPACT_ON,
    beforeStart: (hooks) =>
      hooks.replyOnce('PreCompact', { decision: 'block', reason: 'flower-pty hands off instead' }),
  });
  await hookArrival(r, 'Stop', 60_000);
  await typeLine(r.claude, 'and one more');
  await hookArrival(r, 'PreCompact', 60_000);
  await r.claude.waitFor(
    async () => r.hooks.payloads('StopFailure').length > 0 || r.hooks.payloads('Stop').length > 1,
    60_000,
    'the turn to end',
  );
  tt.equal(r.hooks.payloads('PostCompact').length, 0, 'no compaction happened');
  tt.notOk(r.api.requests.some(isCompactionRequest), 'no compaction request reached the mock');
  tt.notOk(transcript(r).some((row) => row.subtype === 'compact_boundary'));
  tt.equal(
    r.hooks.payloads('StopFailure')[0]?.error,
    'invalid_request',
    "the turn fails on the API's prompt-too-long instead",
  );
  tt.comment(
    `observed after a blocked compaction: StopFailure ${JSON.stringify(r.hooks.payloads('StopFailure')[0]?.error)}, Stop count ${r.hooks.payloads('Stop').length}, screen: ${JSON.stringify((await r.claude.screenText()).split('\n').filter((l) => /limit|long|block/i.test(l)))}`,
  );
});
