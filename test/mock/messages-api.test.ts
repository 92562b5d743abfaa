// The mock Messages API over real HTTP: SSE and JSON answers, errors, cut and hung streams, side
// endpoints, request recording and the scripting helpers.
import t from 'tap';
import type { Test } from 'tap';
import { startMockApi, scripted, text, bash, usageFor, promptTooLong } from '../../src/mock/messages-api.js';
import type { MockApi, MockReply, Respond } from '../../src/mock/messages-api.js';

async function mock(tt: Test, respond: Respond): Promise<MockApi> {
  const api = await startMockApi({ respond });
  tt.teardown(() => api.close());
  return api;
}

const userTurn = (content: unknown) => ({ role: 'user', content });
const body = (extra: Record<string, unknown> = {}) => ({
  model: 'claude-sonnet-4-5',
  stream: true,
  tools: [{ name: 'Bash' }],
  messages: [userTurn([{ type: 'text', text: 'hello mock' }])],
  ...extra,
});

function post(api: MockApi, payload: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${api.url}/v1/messages?beta=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

interface Parsed {
  events: { event: string; data: Record<string, unknown> }[];
  names: string[];
}

function parseSse(raw: string): Parsed {
  const events = raw
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(chunk)?.[1] ?? 'null') as Record<string, unknown>;
      return { event, data };
    });
  return { events, names: events.map((e) => e.event) };
}

// Rebuild the content blocks from the deltas, the way an SDK client does.
function assemble(parsed: Parsed): { blocks: Record<string, unknown>[]; json: Record<number, string> } {
  const blocks: Record<string, unknown>[] = [];
  const json: Record<number, string> = {};
  for (const { data } of parsed.events) {
    const index = data.index as number;
    if (data.type === 'content_block_start') blocks[index] = { ...(data.content_block as Record<string, unknown>) };
    if (data.type === 'content_block_delta') {
      const delta = data.delta as Record<string, string>;
      const block = blocks[index] as Record<string, unknown>;
      if (delta.type === 'text_delta') block.text = `${String(block.text)}${delta.text}`;
      if (delta.type === 'input_json_delta') json[index] = (json[index] ?? '') + delta.partial_json;
    }
  }
  return { blocks, json };
}

t.test('a streamed text reply is a complete, well-ordered SSE message', async (tt) => {
  const api = await mock(tt, () => text('Hello from the mock, streamed in several pieces.', usageFor(30000, 9)));
  const res = await post(api, body(), { 'x-claude-code-session-id': 'sess-1' });
  tt.equal(res.status, 200);
  tt.match(res.headers.get('content-type'), /text\/event-stream/);
  tt.match(res.headers.get('request-id'), /^req_mock_/);
  const parsed = parseSse(await res.text());
  tt.equal(parsed.names[0], 'message_start');
  tt.same(parsed.names.slice(-2), ['message_delta', 'message_stop']);
  tt.ok(parsed.names.filter((n) => n === 'content_block_delta').length > 1, 'text arrives in several deltas');
  tt.same(assemble(parsed).blocks, [{ type: 'text', text: 'Hello from the mock, streamed in several pieces.' }]);
  const start = parsed.events[0]?.data.message as { usage: Record<string, number> };
  tt.match(start.usage, {
    input_tokens: 100,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 29900,
    output_tokens: 1,
  });
  const delta = parsed.events.at(-2)?.data as { delta: Record<string, unknown>; usage: Record<string, number> };
  tt.equal(delta.delta.stop_reason, 'end_turn');
  tt.equal(delta.usage.output_tokens, 9);

  const [req] = api.requests;
  tt.equal(req?.sessionId, 'sess-1');
  tt.equal(req?.model, 'claude-sonnet-4-5');
  tt.equal(req?.path, '/v1/messages');
  tt.equal(req?.isMain, true);
  tt.equal(req?.lastUserText, 'hello mock');
});

t.test('a streamed tool call carries its input as input_json_delta and stops with tool_use', async (tt) => {
  const api = await mock(tt, () => ({
    kind: 'tool',
    name: 'Bash',
    input: { command: 'echo hello-from-tool && echo a-longer-tail' },
    text: 'Let me run it.',
  }));
  const parsed = parseSse(await (await post(api, body())).text());
  const { blocks, json } = assemble(parsed);
  tt.same(blocks[0], { type: 'text', text: 'Let me run it.' });
  tt.match(blocks[1], { type: 'tool_use', name: 'Bash', id: /^toolu_mock_/, input: {} });
  tt.same(JSON.parse(json[1] ?? ''), { command: 'echo hello-from-tool && echo a-longer-tail' });
  tt.ok(parsed.names.filter((n) => n === 'content_block_delta').length > 2, 'the JSON arrives in several pieces');
  const delta = parsed.events.at(-2)?.data as { delta: Record<string, unknown> };
  tt.equal(delta.delta.stop_reason, 'tool_use');
});

t.test('a non-streaming request gets the equivalent JSON message', async (tt) => {
  const api = await mock(tt, () => bash('ls', usageFor(500, 3)));
  const res = await post(api, body({ stream: false }));
  tt.equal(res.status, 200);
  const message = (await res.json()) as Record<string, unknown>;
  tt.match(message, {
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    stop_reason: 'tool_use',
    content: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls' } }],
    usage: { input_tokens: 100, cache_read_input_tokens: 400, output_tokens: 3 },
  });
});

t.test('parallel tool calls: one response, one tool_use block a call, each with its own id', async (tt) => {
  const api = await mock(tt, () => ({
    kind: 'tool',
    name: 'Bash',
    input: { command: 'ls a' },
    also: [{ name: 'Bash', input: { command: 'ls b' } }],
  }));
  const message = (await (await post(api, body({ stream: false }))).json()) as {
    content: Array<{ id: string; input: unknown }>;
  };
  tt.match(message.content, [
    { type: 'tool_use', input: { command: 'ls a' } },
    { type: 'tool_use', input: { command: 'ls b' } },
  ]);
  tt.equal(message.content.length, 2);
  tt.not(message.content[0]!.id, message.content[1]!.id);
});

t.test('an error reply has the API error shape, status and retry header', async (tt) => {
  const replies: MockReply[] = [
    promptTooLong(),
    { kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded', retry: false },
  ];
  const api = await mock(tt, () => replies.shift() ?? text('unused'));
  const tooLong = await post(api, body());
  tt.equal(tooLong.status, 400);
  tt.same(await tooLong.json(), {
    type: 'error',
    error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' },
  });
  tt.equal(tooLong.headers.get('x-should-retry'), null, 'retry left to the client by default');
  const overloaded = await post(api, body());
  tt.equal(overloaded.status, 529);
  tt.equal(overloaded.headers.get('x-should-retry'), 'false');
});

t.test('a cut reply starts a stream and then loses the connection', async (tt) => {
  const api = await mock(tt, () => ({ kind: 'cut', afterText: 'This sentence never finishes' }));
  const res = await post(api, body());
  tt.equal(res.status, 200);
  let received = '';
  let failed = false;
  try {
    const reader = res.body?.getReader();
    for (;;) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      received += Buffer.from(chunk.value).toString('utf8');
    }
  } catch {
    failed = true;
  }
  tt.ok(failed, 'reading the body fails mid-stream');
  tt.match(received, /message_start/);
  tt.match(received, /This sentence/);
  tt.notMatch(received, /message_stop|never finishes/);
});

t.test('a hung reply stays open until close()', async (tt) => {
  const api = await startMockApi({ respond: () => ({ kind: 'hang' }) });
  const pending = post(api, body()).then(
    () => 'answered',
    () => 'failed',
  );
  await api.waitForRequest(() => true, 5000);
  const raced = await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve('still open'), 200))]);
  tt.equal(raced, 'still open');
  await api.close();
  tt.equal(await pending, 'failed', 'close() ends the hung request');
});

t.test('side endpoints: /api/hello, count_tokens, unknown paths', async (tt) => {
  const api = await mock(tt, () => text('unused'));
  tt.equal((await fetch(`${api.url}/api/hello`, { method: 'HEAD' })).status, 200);
  const count = await fetch(`${api.url}/v1/messages/count_tokens?beta=true`, {
    method: 'POST',
    body: JSON.stringify(body()),
  });
  tt.equal(count.status, 200);
  const counted = (await count.json()) as { input_tokens: number };
  tt.ok(counted.input_tokens > 0, 'a positive estimate');
  const missing = await fetch(`${api.url}/v1/models`);
  tt.equal(missing.status, 404);
  tt.match(await missing.json(), { type: 'error', error: { type: 'not_found_error', message: /GET \/v1\/models/ } });
  tt.equal(api.requests.length, 0, 'only /v1/messages calls are recorded');
  tt.same(api.hits, ['HEAD /api/hello', 'POST /v1/messages/count_tokens', 'GET /v1/models'], 'every hit is listed');
  tt.match(api.url, /^http:\/\/127\.0\.0\.1:\d+$/, 'loopback only');
});

t.test('request texts: newest user message, tool results and reminders, all messages', async (tt) => {
  const api = await mock(tt, () => text('ok'));
  await post(
    api,
    body({
      messages: [
        userTurn('an old question'),
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'an old answer' },
            { type: 'tool_use', id: 'x', name: 'Bash', input: {} },
          ],
        },
        userTurn([
          { type: 'tool_result', tool_use_id: 'x', content: 'tool said hi' },
          { type: 'tool_result', tool_use_id: 'y', content: [{ type: 'text', text: 'nested result' }] },
          { type: 'text', text: '<system-reminder>\nStop hook feedback: WRITE-THE-DOC\n</system-reminder>' },
          { type: 'image', source: {} },
        ]),
      ],
    }),
  );
  const [req] = api.requests;
  tt.equal(
    req?.lastUserText,
    'tool said hi\nnested result\n<system-reminder>\nStop hook feedback: WRITE-THE-DOC\n</system-reminder>',
  );
  tt.match(req?.allText, /an old question\nan old answer\ntool said hi/);
  tt.equal(req?.messages.length, 3);
});

t.test('a malformed body is recorded, answered and never crashes the mock', async (tt) => {
  const api = await mock(tt, () => text('still here'));
  const res = await post(api, '{not json');
  tt.equal(res.status, 200);
  tt.same((await res.json()) as unknown, {
    id: 'msg_mock_000001',
    type: 'message',
    role: 'assistant',
    model: '',
    content: [{ type: 'text', text: 'still here' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: 100,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 3,
      service_tier: 'standard',
    },
  });
  tt.match(api.requests[0], { model: '', messages: [], lastUserText: '', isMain: false, body: undefined });
});

t.test('a respond function that throws becomes a 500 naming the cause', async (tt) => {
  const api = await mock(tt, () => {
    throw new Error('script bug');
  });
  const res = await post(api, body());
  tt.equal(res.status, 500);
  tt.equal(res.headers.get('x-should-retry'), 'false');
  tt.match(await res.json(), { error: { type: 'api_error', message: /script bug/ } });
});

t.test('delayMs holds the answer back but still answers', async (tt) => {
  let answered = false;
  const api = await mock(tt, () => ({ kind: 'text', text: 'late', delayMs: 300 }));
  const pending = post(api, body()).then(async (res) => {
    answered = true;
    return res.text();
  });
  await api.waitForRequest(() => true, 5000);
  tt.equal(answered, false, 'not answered as soon as the request arrives');
  tt.match(await pending, /late/);
});

t.test('waitForRequest sees past and future requests and times out with a message', async (tt) => {
  const api = await mock(tt, () => text('ok'));
  await post(api, body({ model: 'first' }));
  tt.equal((await api.waitForRequest((r) => r.model === 'first', 1000)).index, 0);
  const later = api.waitForRequest((r) => r.model === 'second', 5000);
  await post(api, body({ model: 'second' }));
  tt.equal((await later).index, 1);
  await tt.rejects(
    api.waitForRequest((r) => r.model === 'never', 50),
    /no matching request within 50 ms \(saw 2\)/,
  );
});

t.test('scripted plays steps for main calls only, then falls back', async (tt) => {
  const respond = scripted([text('one'), bash('two')], { fallback: text('spent'), others: () => text('title') });
  const fake = (isMain: boolean) => ({ isMain }) as Parameters<Respond>[0];
  tt.same(await respond(fake(true)), text('one'));
  tt.same(await respond(fake(false)), text('title'), 'a side call does not consume a step');
  tt.same(await respond(fake(true)), bash('two'));
  tt.same(await respond(fake(true)), text('spent'));
  tt.same(await scripted([])(fake(false)), text('Mock side reply'));
  tt.same(await scripted([])(fake(true)), text('mock: script exhausted'));

  const seen: number[] = [];
  const byFunction = scripted((_req, i) => {
    seen.push(i);
    return text(`step ${i}`);
  });
  await byFunction(fake(true));
  await byFunction(fake(false));
  tt.same(await byFunction(fake(true)), text('step 1'));
  tt.same(seen, [0, 1]);
});

t.test('usageFor splits a context size into input and cache reads', async (tt) => {
  tt.same(usageFor(30000), { input: 100, cacheCreation: 0, cacheRead: 29900, output: 20 });
  tt.same(usageFor(42, 5), { input: 42, cacheCreation: 0, cacheRead: 0, output: 5 });
  tt.same(usageFor(-3), { input: 0, cacheCreation: 0, cacheRead: 0, output: 20 });
  const u = usageFor(167001.7);
  tt.equal(u.input + (u.cacheCreation ?? 0) + (u.cacheRead ?? 0), 167001);
});
