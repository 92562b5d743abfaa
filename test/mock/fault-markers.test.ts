// The marker-driven mock without claude: which reply each marker gives, the usage limit's clock and headers
// over real HTTP, the permission tool call and its follow-up, the window's 400 and the compaction summary.
import t from 'tap';
import { startMockApi } from '../../src/mock/messages-api.js';
import type { MockReply, MockRequest } from '../../src/mock/messages-api.js';
import {
  MOCK_SUMMARY,
  MOCK_WINDOW_TOKENS,
  markerReplies,
  markerValue,
  usageLimitReply,
} from '../../src/mock/fault-markers.js';

// A main request whose newest user message is `content`, after `history`.
function request(content: unknown, history: unknown[] = []): MockRequest {
  const messages = [...history, { role: 'user', content }];
  const last =
    typeof content === 'string' ? content : (content as Array<{ text?: string }>).map((b) => b.text ?? '').join('\n');
  return {
    index: 0,
    method: 'POST',
    path: '/v1/messages',
    headers: {},
    sessionId: undefined,
    model: 'm',
    body: {},
    messages,
    lastUserText: last,
    allText: last,
    isMain: true,
    receivedAt: 0,
  };
}

const reply = async (respond: ReturnType<typeof markerReplies>, req: MockRequest): Promise<MockReply> => respond(req);

t.test('markerValue reads one word after the marker', async (tt) => {
  tt.equal(markerValue('go MOCK_USAGE=170000 now', 'MOCK_USAGE'), '170000');
  tt.equal(
    markerValue('MOCK_TOUCH=a.b-c_d; rm -rf /', 'MOCK_TOUCH'),
    'a.b-c_d',
    'no shell text gets into the tool call',
  );
  tt.equal(markerValue('nothing', 'MOCK_USAGE'), undefined);
});

t.test('a usage limit: every main call refused until the reset, then answered', async (tt) => {
  let now = 1_000_000_500;
  const respond = markerReplies({ now: () => now });
  const first = await reply(respond, request('work MOCK_RATE_LIMIT=10'));
  tt.same(first, usageLimitReply(1_000_011));
  now += 5_000;
  tt.same(
    await reply(respond, request('continue')),
    usageLimitReply(1_000_011),
    'a later prompt without the marker is refused too',
  );
  now = 1_000_011_000;
  tt.match(await reply(respond, request('Your claude.ai usage limit has reset.')), {
    kind: 'text',
    text: 'Mock reply 1 (ctx 5000).',
  });
  tt.match(
    await reply(respond, request('again MOCK_RATE_LIMIT=10')),
    { kind: 'text' },
    'one limit a mock: the marker does not re-arm it',
  );
});

t.test('the usage-limit reply goes out with the unified headers over HTTP', async (tt) => {
  const api = await startMockApi({ respond: () => usageLimitReply(1796094267) });
  tt.teardown(() => api.close());
  const res = await fetch(`${api.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"messages":[]}',
  });
  tt.equal(res.status, 429);
  tt.equal(res.headers.get('anthropic-ratelimit-unified-status'), 'rejected');
  tt.equal(res.headers.get('anthropic-ratelimit-unified-reset'), '1796094267');
  tt.equal(res.headers.get('anthropic-ratelimit-unified-representative-claim'), 'five_hour');
  tt.equal(res.headers.get('x-should-retry'), 'false');
  tt.match(res.headers.get('request-id'), /^req_mock_/, "the mock's own headers are kept");
  tt.same(await res.json(), {
    type: 'error',
    error: {
      type: 'rate_limit_error',
      message: "This request would exceed your account's rate limit. Please try again later.",
    },
  });
});

t.test('MOCK_TOUCH: a Bash touch, then a text once the tool result comes back', async (tt) => {
  const respond = markerReplies();
  const prompt = 'make it MOCK_TOUCH=x';
  tt.match(await reply(respond, request(prompt)), { kind: 'tool', name: 'Bash', input: { command: 'touch x' } });
  const toolResult = [{ type: 'tool_result', tool_use_id: 't1', content: '' }];
  tt.match(
    await reply(
      respond,
      request(toolResult, [
        { role: 'user', content: prompt },
        { role: 'assistant', content: [] },
      ]),
    ),
    { kind: 'text' },
  );
});

t.test(
  'the window: a context past it gets the 400; the compaction request gets a summary and shrinks it',
  async (tt) => {
    const respond = markerReplies();
    tt.match(await reply(respond, request('fill MOCK_USAGE=199990')), {
      kind: 'text',
      usage: { input: 100, cacheRead: 199890 },
    });
    tt.match(await reply(respond, request('and one more line of text here, long enough to pass the last few tokens')), {
      kind: 'error',
      status: 400,
      message: /^prompt is too long: \d+ tokens > 200000 maximum$/,
    });
    tt.equal(MOCK_WINDOW_TOKENS, 200_000);
    const compaction = await reply(
      respond,
      request(
        'CRITICAL: Respond with TEXT ONLY.\n\nYour task is to create a detailed summary of the conversation so far',
      ),
    );
    tt.match(compaction, { kind: 'text', text: MOCK_SUMMARY });
    tt.match(
      await reply(respond, request('and one more line of text here, long enough to pass the last few tokens')),
      { kind: 'text' },
      'after the compaction the prompt fits',
    );
    const side = await respond({ ...request('title please'), isMain: false });
    tt.match(side, { kind: 'text', text: 'Mock side reply' });
  },
);
