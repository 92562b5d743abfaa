// The wire form of a mock reply: the Messages API's server-sent event sequence for `stream: true`,
// and the equivalent single JSON message otherwise. No I/O here; the server writes what this returns.
import type { MockReply, MockUsage } from './mock-reply.js';

export type AnswerReply = Extract<MockReply, { kind: 'text' | 'tool' }>;

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface MessageIds {
  messageId: string;
  toolUseId: string;
  model: string;
}

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

// Roughly four characters a token, so the default usage moves with the size of the text.
const estimateTokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

function contentOf(reply: AnswerReply, ids: MessageIds): ContentBlock[] {
  if (reply.kind === 'text') return [{ type: 'text', text: reply.text }];
  const blocks: ContentBlock[] = [];
  if (reply.text !== undefined && reply.text !== '') blocks.push({ type: 'text', text: reply.text });
  blocks.push({ type: 'tool_use', id: ids.toolUseId, name: reply.name, input: reply.input });
  (reply.also ?? []).forEach((call, k) =>
    blocks.push({
      type: 'tool_use',
      id: `${ids.toolUseId}${String.fromCharCode(97 + k)}`,
      name: call.name,
      input: call.input,
    }),
  );
  return blocks;
}

// The usage object in the API's field names; `output` falls back to an estimate from the content.
export function wireUsage(usage: MockUsage | undefined, outputChars: number): Record<string, unknown> {
  return {
    input_tokens: usage?.input ?? 100,
    cache_creation_input_tokens: usage?.cacheCreation ?? 0,
    cache_read_input_tokens: usage?.cacheRead ?? 0,
    output_tokens: usage?.output ?? estimateTokens(outputChars),
    service_tier: 'standard',
  };
}

function stopReason(reply: AnswerReply): string {
  return reply.kind === 'tool' ? 'tool_use' : 'end_turn';
}

function contentChars(blocks: ContentBlock[]): number {
  return blocks.reduce((n, b) => n + (b.type === 'text' ? b.text.length : JSON.stringify(b.input).length), 0);
}

// The non-streaming answer: one complete message object.
export function messageJson(reply: AnswerReply, ids: MessageIds): Record<string, unknown> {
  const content = contentOf(reply, ids);
  return {
    id: ids.messageId,
    type: 'message',
    role: 'assistant',
    model: ids.model,
    content,
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: wireUsage(reply.usage, contentChars(content)),
  };
}

// Split text into a few deltas, as the real API streams it in pieces.
function chunks(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts.length > 0 ? parts : [''];
}

function blockEvents(block: ContentBlock, index: number): SseEvent[] {
  const start: SseEvent = {
    event: 'content_block_start',
    data: {
      type: 'content_block_start',
      index,
      content_block: block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} },
    },
  };
  const deltas =
    block.type === 'text'
      ? chunks(block.text, 16).map((text) => ({ type: 'text_delta', text }))
      : chunks(JSON.stringify(block.input), 24).map((partial_json) => ({ type: 'input_json_delta', partial_json }));
  return [
    start,
    ...deltas.map((delta) => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } })),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
  ];
}

function messageStart(ids: MessageIds, usage: Record<string, unknown>): SseEvent {
  return {
    event: 'message_start',
    data: {
      type: 'message_start',
      message: {
        id: ids.messageId,
        type: 'message',
        role: 'assistant',
        model: ids.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // message_start reports the input side and one output token, like the real API.
        usage: { ...usage, output_tokens: 1 },
      },
    },
  };
}

// The full event sequence of a streamed answer.
export function messageEvents(reply: AnswerReply, ids: MessageIds): SseEvent[] {
  const content = contentOf(reply, ids);
  const usage = wireUsage(reply.usage, contentChars(content));
  return [
    messageStart(ids, usage),
    ...content.flatMap((block, index) => blockEvents(block, index)),
    {
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ];
}

// The events sent before a 'cut' reply loses its connection: the start and the first half of the text.
export function cutEvents(afterText: string, ids: MessageIds): SseEvent[] {
  const half = afterText.slice(0, Math.ceil(afterText.length / 2));
  const events = blockEvents({ type: 'text', text: half }, 0).slice(0, -1);
  return [messageStart(ids, wireUsage(undefined, half.length)), ...events];
}

export function formatSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
