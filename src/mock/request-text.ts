// Reads a Messages API request body (unknown JSON) into the texts a test asserts on.
// Never throws: malformed bodies give empty strings and lists.

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

// Text of one content value: a string, or blocks whose text / tool_result content is collected.
function contentText(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((block): string[] => {
    if (!isRecord(block)) return [];
    if (block.type === 'text' && typeof block.text === 'string') return [block.text];
    if (block.type === 'tool_result') return contentText(block.content);
    return [];
  });
}

export function messagesOf(body: unknown): unknown[] {
  return isRecord(body) && Array.isArray(body.messages) ? body.messages : [];
}

export function messageText(message: unknown): string {
  return isRecord(message) ? contentText(message.content).join('\n') : '';
}

// The newest message with role 'user' (Claude Code merges hook feedback and tool results into it).
export function lastUserText(messages: unknown[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (isRecord(message) && message.role === 'user') return messageText(message);
  }
  return '';
}

export function allText(messages: unknown[]): string {
  return messages.map(messageText).join('\n');
}

export function modelOf(body: unknown): string {
  return isRecord(body) && typeof body.model === 'string' ? body.model : '';
}

// The conversation call offers tools; title generation and other side calls do not.
export function offersTools(body: unknown): boolean {
  return isRecord(body) && Array.isArray(body.tools) && body.tools.length > 0;
}

export function wantsStream(body: unknown): boolean {
  return isRecord(body) && body.stream === true;
}
