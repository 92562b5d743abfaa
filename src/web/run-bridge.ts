// One run page's WebSocket, bridged to its run's feed (run-feed.ts: the one watcher connection the web
// server holds to that run, shared by every page): the page is painted from the feed's screen at once,
// then streamed; what the page asks (keys, an approval, a command, a saved document) is decided by
// core/web/web-access.ts here, never in the page.

import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { RawData, WebSocket } from 'ws';
import type { ClientMessage } from '../server/wire.js';
import type { StatusView } from '../core/screen/status.js';
import { APPROVE_KEYS, composeKeys, DENY_KEYS, keyBarKeys, mayAct, type WebAction } from '../core/web/web-access.js';
import { writeFileAtomic } from '../adapters/atomic-file.js';
import type { FeedMessage, RunFeed } from './run-feed.js';
import { parsePageMessage, type PageMessage, type PageShow } from './page-messages.js';
import { isRunShow, NOTHING_SHOWN, reduceShown, type Shown } from '../core/picture/run-show.js';

/** a document's version: what the page saw, so a save made against an older text is refused */
export const documentVersion = (text: string | null): string =>
  createHash('sha256')
    .update(text ?? '', 'utf8')
    .digest('hex')
    .slice(0, 32);

// A page too far behind (a phone that went to sleep) is dropped rather than buffered without end.
const MAX_PAGE_BACKLOG = 16 * 1024 * 1024;

// One encoding of a message for every page that watches (a busy run's output goes to each of them):
// claude's output as a binary frame of its bytes (the page writes them to xterm.js as they are, no
// JSON on either side), everything else as JSON.
/** a message as a page takes it: a document with its version */
export const pageMessage = (m: FeedMessage): PageShow =>
  m.t === 'document' ? { ...m, version: documentVersion(m.text) } : m;

const encoded = new WeakMap<object, string | Buffer>();
function pageFrame(m: FeedMessage): string | Buffer {
  let frame = encoded.get(m);
  if (frame === undefined) {
    frame = m.t === 'output' ? Buffer.from(m.data, 'utf8') : JSON.stringify(pageMessage(m));
    encoded.set(m, frame);
  }
  return frame;
}

const bytesOf = (data: RawData): Buffer =>
  Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);

export interface BridgeOptions {
  feed: RunFeed;
  /** to the run, on the feed's one connection */
  send(message: ClientMessage): void;
  /** the run's latest status, for what a page may do now */
  view(): StatusView | null;
  /** the screen count the page's HTML was painted at, if it was */
  seq: number | null;
  allowInput: boolean;
  log: (line: string) => void;
}

export function bridgeRun(ws: WebSocket, o: BridgeOptions): void {
  const toPage = (message: object | string | Buffer) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_PAGE_BACKLOG) return ws.terminate();
    ws.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message));
  };
  toPage({ t: 'hello', allowInput: o.allowInput, status: o.view() });
  // what the run shows, as this page was told it: a save goes to the document it saw
  let shown: Shown = NOTHING_SHOWN;
  const unwatch = o.feed.watch(
    {
      show(m) {
        if (isRunShow(m)) shown = reduceShown(shown, m);
        toPage(pageFrame(m));
      },
      ended(last) {
        toPage({ t: 'ended', ...last });
        if (ws.readyState === ws.OPEN) ws.close(1000, 'the run ended');
      },
    },
    o.seq,
  );

  const answer = (of: string, verdict: { ok: true } | { ok: false; problem: string }, extra: object = {}) =>
    toPage({ t: 'result', of, ...verdict, ...extra });
  const allowed = (of: string, action: WebAction): boolean => {
    const verdict = mayAct(action, { allowInput: o.allowInput, view: o.view() });
    if (!verdict.ok) answer(of, verdict);
    return verdict.ok;
  };

  async function save(m: Extract<PageMessage, { t: 'save' }>): Promise<void> {
    if (!allowed('save', { kind: 'save-document' })) return;
    const { document } = shown;
    if (!document) return answer('save', { ok: false, problem: 'the run has not said where its document is' });
    let onDisk: string | null;
    try {
      onDisk = await readFile(document.path, 'utf8');
    } catch {
      onDisk = null;
    }
    const current = documentVersion(onDisk);
    // Someone (the run, an editor, another page) changed it since this page read it: nothing is
    // written, and the page is shown the newer text; its own edit stays in its box.
    if (current !== m.version)
      return answer(
        'save',
        {
          ok: false,
          problem: 'the document changed since you opened it: the newer text is shown; your edit was not saved',
        },
        { text: onDisk, version: current },
      );
    await writeFileAtomic(document.path, m.text);
    o.log(`a page saved the document ${document.path} (${m.text.length} characters)`);
    answer('save', { ok: true }, { version: documentVersion(m.text) });
  }

  ws.on('message', (data, isBinary) => {
    // a binary frame is keys, as they are (the page's terminal sends them so: no JSON on the echo's way)
    const m = isBinary
      ? { t: 'input' as const, data: bytesOf(data).toString('utf8') }
      : parsePageMessage(bytesOf(data).toString('utf8'));
    if (!m) return ws.close(1003, 'a message this server does not take');
    switch (m.t) {
      case 'input':
        if (allowed('input', { kind: 'input' })) o.send({ t: 'input', data: m.data });
        return;
      case 'key': {
        const keys = keyBarKeys(m.key);
        if (keys === undefined) return answer('key', { ok: false, problem: `no key named ${m.key.slice(0, 16)}` });
        if (allowed('key', { kind: 'input' })) o.send({ t: 'input', data: keys });
        return;
      }
      case 'compose':
        if (allowed('compose', { kind: 'input' })) o.send({ t: 'input', data: composeKeys(m.text) });
        return;
      case 'approve':
      case 'deny':
        if (allowed(m.t, { kind: m.t })) {
          o.send({ t: 'input', data: m.t === 'approve' ? APPROVE_KEYS : DENY_KEYS });
          answer(m.t, { ok: true });
        }
        return;
      case 'command':
        if (allowed(m.command, { kind: m.command })) {
          o.send({ t: 'command', command: m.command });
          answer(m.command, { ok: true });
        }
        return;
      case 'end':
        if (allowed('end', { kind: 'end' })) {
          o.send({ t: 'kill' });
          answer('end', { ok: true });
        }
        return;
      case 'save':
        save(m).catch((error: unknown) =>
          answer('save', {
            ok: false,
            problem: `the document could not be written: ${error instanceof Error ? error.message : String(error)}`,
          }),
        );
        return;
    }
  });
  ws.on('close', unwatch);
  ws.on('error', unwatch);
}
