// Proves the mock + sandbox against the REAL claude 2.1.332 in a pty: tool call, transcript usage,
// hook payloads, a Stop hook that blocks once, and a 400 prompt-too-long that fires StopFailure.
import t from 'tap';
import type { Test } from 'tap';
import { scripted, bash, text, usageFor, promptTooLong } from '../../src/mock/messages-api.js';
import type { MockReply, MockRequest } from '../../src/mock/messages-api.js';
import { looksReady, readJsonl, startClaudeRig } from '../helpers/real-claude.js';
import type { ClaudeRig, HookEvent, HookRecorder } from '../helpers/real-claude.js';

type Rig = ClaudeRig;

// Auto-compact off, as flower-pty runs claude: a 400 then ends the turn instead of compacting.
function rig(
  tt: Test,
  steps: MockReply[] | ((req: MockRequest, i: number) => MockReply),
  prompt: string,
  beforeStart?: (hooks: HookRecorder) => void,
): Promise<Rig> {
  return startClaudeRig(tt, { respond: scripted(steps), prompt, ...(beforeStart ? { beforeStart } : {}) });
}

const hookArrived =
  (r: Rig, event: HookEvent, count = 1) =>
  () =>
    r.hooks.payloads(event).length >= count;

t.test('a tool call then a text reply, end to end', async (tt) => {
  const r = await rig(
    tt,
    [bash('echo hello-from-tool', usageFor(12000)), text('done-MOCK-REPLY', usageFor(30000, 7))],
    'please run the tool',
  );
  await r.claude.waitFor(hookArrived(r, 'Stop'), 40000, 'the Stop hook');

  tt.equal(r.api.requests.length, 2, 'exactly the two main calls');
  tt.same(r.api.hits, ['POST /v1/messages', 'POST /v1/messages'], 'no side traffic (no /api/hello, no title call)');
  tt.ok(
    r.api.requests.every((req) => req.sessionId === r.sessionId && req.isMain),
    'every request carries our session id',
  );
  tt.match(r.api.requests[0]?.lastUserText, /please run the tool/, 'the positional prompt was sent');
  tt.match(r.api.requests[1]?.lastUserText, /hello-from-tool/, 'the tool result came back to the mock');

  const assistant = readJsonl(r.sandbox.transcriptPath(r.sessionId)).filter((rec) => rec.type === 'assistant');
  const last = assistant.at(-1) as { message?: { usage?: Record<string, number>; content?: unknown } } | undefined;
  tt.same(
    last?.message?.usage && {
      input: last.message.usage.input_tokens,
      cacheCreation: last.message.usage.cache_creation_input_tokens,
      cacheRead: last.message.usage.cache_read_input_tokens,
      output: last.message.usage.output_tokens,
    },
    usageFor(30000, 7),
    'the transcript records the usage the mock reported',
  );

  const post = r.hooks.payloads('PostToolUse')[0];
  tt.equal(post?.tool_name, 'Bash');
  tt.match(post?.tool_response, { stdout: 'hello-from-tool' }, 'PostToolUse saw the real tool output');
  const stop = r.hooks.payloads('Stop')[0];
  tt.equal(stop?.last_assistant_message, 'done-MOCK-REPLY');
  tt.equal(stop?.stop_hook_active, false);
  tt.equal(stop?.session_id, r.sessionId);
  tt.equal(r.hooks.payloads('SessionStart')[0]?.source, 'startup');

  const screen = await r.claude.waitForScreen('done-MOCK-REPLY', 10000);
  await r.claude.waitFor(async () => looksReady(await r.claude.screenText()), 10000, 'the idle prompt');
  tt.match(screen, /Sonnet 4\.5/, 'the sandbox model is in use');
  tt.match(screen, /bypass permissions on/, 'bypass mode is on');
  tt.notMatch(r.claude.output(), /WARNING|Do you want to use this API key|trust this folder/, 'no dialog was shown');
  await r.claude.waitFor(
    () =>
      r.hooks
        .payloads('StatusLine')
        .some(
          (p) => p.context_window && (p.context_window as { total_input_tokens?: number }).total_input_tokens === 30000,
        ),
    10000,
    'a status line with the reply usage',
  );
  tt.match(
    r.hooks.payloads('StatusLine').at(-1),
    { context_window: { context_window_size: 200000, total_input_tokens: 30000 } },
    'a 200k window',
  );

  r.claude.pty.write('/exit');
  await new Promise((resolve) => setTimeout(resolve, 200));
  r.claude.pty.write('\r');
  const exit = await r.claude.exited;
  tt.equal(exit.exitCode, 0, '/exit ends claude with code 0');
  tt.equal(r.hooks.payloads('SessionEnd')[0]?.reason, 'prompt_input_exit');
});

t.test('a Stop hook that blocks once makes claude ask the model again', async (tt) => {
  const r = await rig(
    tt,
    [text('first-answer', usageFor(5000)), text('the-doc-is-written', usageFor(6000))],
    'say something',
    (hooks) => hooks.replyOnce('Stop', { decision: 'block', reason: 'WRITE-THE-DOC' }),
  );
  await r.claude.waitFor(hookArrived(r, 'Stop', 2), 40000, 'the second Stop hook');

  tt.equal(r.api.requests.length, 2);
  tt.match(
    r.api.requests[1]?.lastUserText,
    /WRITE-THE-DOC/,
    'the block reason reaches the model as the newest user text',
  );
  tt.notMatch(r.api.requests[0]?.lastUserText, /WRITE-THE-DOC/);
  const [first, second] = r.hooks.payloads('Stop');
  tt.equal(first?.stop_hook_active, false);
  tt.equal(first?.last_assistant_message, 'first-answer');
  tt.equal(second?.stop_hook_active, true, 'the continuation is marked as caused by a Stop hook');
  tt.equal(second?.last_assistant_message, 'the-doc-is-written');
  await r.claude.waitForScreen('the-doc-is-written', 10000);
});

t.test('a 400 prompt-too-long reply fires StopFailure, not Stop', async (tt) => {
  const r = await rig(tt, [promptTooLong()], 'this one is too big');
  await r.claude.waitFor(hookArrived(r, 'StopFailure'), 40000, 'the StopFailure hook');

  const failure = r.hooks.payloads('StopFailure')[0];
  tt.equal(failure?.error, 'invalid_request');
  tt.match(failure?.error_details, /prompt is too long: 210000 tokens > 200000 maximum/);
  tt.equal(failure?.last_assistant_message, 'Prompt is too long');
  tt.equal(r.hooks.payloads('Stop').length, 0, 'no Stop hook for a failed turn');
  tt.equal(r.api.requests.length, 1, 'a 400 is not retried and, with auto-compact disabled, not compacted');
  const screen = await r.claude.waitForScreen('Context limit reached', 10000);
  tt.match(screen, /Once fixed, resend your message/, 'the prompt shows the error placeholder');
  await r.claude.waitFor(async () => looksReady(await r.claude.screenText()), 10000, 'the idle prompt after the error');
});
