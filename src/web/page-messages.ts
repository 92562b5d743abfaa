// What a page of the web face may send over its WebSocket, checked field by field: anything else is
// refused (and the socket closed), as the run server's wire refuses a malformed frame; and what it is
// streamed of its run, in the run's own vocabulary.
import { jsonObject } from '../core/json-object.js';
import type { RunShow } from '../core/picture/run-show.js';
import type { FeedMessage } from './run-feed.js';

/** what a page is streamed of its run: claude's screen and what the run shows (core/picture/run-show.ts) as
 * the wire said it, a document with its version (a save made against an older text is refused) */
export type PageShow =
  | Exclude<FeedMessage, { t: 'document' }>
  | (Extract<RunShow, { t: 'document' }> & { version: string });

export type PageMessage =
  | { t: 'input'; data: string }
  | { t: 'key'; key: string }
  | { t: 'compose'; text: string }
  | { t: 'approve' }
  | { t: 'deny' }
  | { t: 'command'; command: 'force-handoff' | 'hold' | 'release' }
  | { t: 'end' }
  | { t: 'save'; text: string; version: string };

const COMMANDS = ['force-handoff', 'hold', 'release'] as const;

export function parsePageMessage(raw: string): PageMessage | null {
  const m = jsonObject(raw);
  if (!m) return null;
  const str = (x: unknown): x is string => typeof x === 'string';
  switch (m.t) {
    case 'input':
      return str(m.data) ? { t: 'input', data: m.data } : null;
    case 'key':
      return str(m.key) && m.key.length <= 16 ? { t: 'key', key: m.key } : null;
    case 'compose':
      return str(m.text) ? { t: 'compose', text: m.text } : null;
    case 'approve':
    case 'deny':
    case 'end':
      return { t: m.t };
    case 'command':
      return COMMANDS.includes(m.command as (typeof COMMANDS)[number])
        ? { t: 'command', command: m.command as (typeof COMMANDS)[number] }
        : null;
    case 'save':
      return str(m.text) && str(m.version) && m.version.length <= 64
        ? { t: 'save', text: m.text, version: m.version }
        : null;
    default:
      return null;
  }
}
