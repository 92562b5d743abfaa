// Which session a Messages API request belongs to, as the mock (and anything on the wire) can tell:
// the X-Claude-Code-Session-Id header from 2.1.86; before it, only metadata.user_id carries the id, as a
// JSON string `{"device_id":…,"session_id":…}` (seen on 2.1.78) or `user_…_session_<uuid>` text. Pure.

export const SESSION_ID_HEADER = 'x-claude-code-session-id';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

export function requestSessionId(headers: Readonly<Record<string, string>>, body: unknown): string | undefined {
  const header = headers[SESSION_ID_HEADER];
  if (header) return header;
  const metadata = typeof body === 'object' && body !== null ? (body as { metadata?: unknown }).metadata : undefined;
  const userId =
    typeof metadata === 'object' && metadata !== null ? (metadata as { user_id?: unknown }).user_id : undefined;
  if (typeof userId !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(userId);
    const id =
      typeof parsed === 'object' && parsed !== null ? (parsed as { session_id?: unknown }).session_id : undefined;
    if (typeof id === 'string' && id !== '') return id;
  } catch {
    // not JSON: the older `user_<hash>_account_<uuid>_session_<uuid>` text
  }
  return new RegExp(`session_(${UUID.source})`, 'i').exec(userId)?.[1];
}
