// One run page's WebSocket, bridged to the run server by a watcher connection of its own: the page
// is painted from the server's screen model at once, then streamed; what the page asks (keys, an
// approval, a command, a saved document) is decided by core/web-access.ts here, never in the page.

import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { ServerMessage } from '../server/wire.js';
import type { StatusView } from '../core/status-view.js';
import { APPROVE_KEYS, composeKeys, DENY_KEYS, KEY_BAR, mayAct, type WebAction } from '../core/web-access.js';
import { writeFileAtomic } from '../adapters/atomic-file.js';
import { watchRun } from './run-watch.js';
import { parsePageMessage, type PageMessage } from './page-messages.js';

/** a document's version: what the page saw, so a save made against an older text is refused */
export const documentVersion = (text: string | null): string => createHash('sha256').update(text ?? '', 'utf8').digest('hex').slice(0, 32);

// A page too far behind (a phone that went to sleep) is dropped rather than buffered without end.
const MAX_PAGE_BACKLOG = 16 * 1024 * 1024;

export function bridgeRun(ws: WebSocket, o: { socket: string; allowInput: boolean; log: (line: string) => void }): void {
  let view: StatusView | null = null;
  let document: { path: string; text: string | null } | null = null;
  const toPage = (message: object) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_PAGE_BACKLOG) return ws.terminate();
    ws.send(JSON.stringify(message));
  };
  const run = watchRun(o.socket, {
    message(m: ServerMessage) {
      switch (m.t) {
        case 'welcome':
          view = m.run.status;
          return toPage({ t: 'hello', run: m.run, allowInput: o.allowInput });
        case 'screen':
        case 'output':
        case 'size':
        case 'title':
        case 'child':
        case 'message':
          return toPage(m);
        case 'status':
          view = m.view;
          return toPage(m);
        case 'document':
          document = { path: m.path, text: m.text };
          return toPage({ ...m, version: documentVersion(m.text) });
        case 'bye':
          toPage({ t: 'ended', reason: m.reason, ...(m.message ? { message: m.message } : {}) });
          return ws.close(1000, 'the run ended');
        case 'refused':
          toPage({ t: 'ended', reason: 'refused', message: m.reason });
          return ws.close(1011, 'refused by the run');
        default:
          return;
      }
    },
    closed() {
      if (ws.readyState === ws.OPEN) ws.close(1000, 'the run is gone');
    },
  });

  const answer = (of: string, verdict: { ok: true } | { ok: false; problem: string }, extra: object = {}) => toPage({ t: 'result', of, ...verdict, ...extra });
  const allowed = (of: string, action: WebAction): boolean => {
    const verdict = mayAct(action, { allowInput: o.allowInput, view });
    if (!verdict.ok) answer(of, verdict);
    return verdict.ok;
  };

  async function save(m: Extract<PageMessage, { t: 'save' }>): Promise<void> {
    if (!allowed('save', { kind: 'save-document' })) return;
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
    if (current !== m.version) return answer('save', { ok: false, problem: 'the document changed since you opened it: the newer text is shown; your edit was not saved' }, { text: onDisk, version: current });
    await writeFileAtomic(document.path, m.text);
    o.log(`a page saved the document ${document.path} (${m.text.length} characters)`);
    answer('save', { ok: true }, { version: documentVersion(m.text) });
  }

  ws.on('message', (data, isBinary) => {
    const m = isBinary ? null : parsePageMessage(data.toString());
    if (!m) return ws.close(1003, 'a message this server does not take');
    switch (m.t) {
      case 'input':
        if (allowed('input', { kind: 'input' })) run.send({ t: 'input', data: m.data });
        return;
      case 'key': {
        const keys = KEY_BAR[m.key];
        if (keys === undefined) return answer('key', { ok: false, problem: `no key named ${m.key.slice(0, 16)}` });
        if (allowed('key', { kind: 'input' })) run.send({ t: 'input', data: keys });
        return;
      }
      case 'compose':
        if (allowed('compose', { kind: 'input' })) run.send({ t: 'input', data: composeKeys(m.text) });
        return;
      case 'approve':
      case 'deny':
        if (allowed(m.t, { kind: m.t })) {
          run.send({ t: 'input', data: m.t === 'approve' ? APPROVE_KEYS : DENY_KEYS });
          answer(m.t, { ok: true });
        }
        return;
      case 'command':
        if (allowed(m.command, { kind: m.command })) {
          run.send({ t: 'command', command: m.command });
          answer(m.command, { ok: true });
        }
        return;
      case 'end':
        if (allowed('end', { kind: 'end' })) {
          run.send({ t: 'kill' });
          answer('end', { ok: true });
        }
        return;
      case 'save':
        save(m).catch((error: unknown) => answer('save', { ok: false, problem: `the document could not be written: ${error instanceof Error ? error.message : String(error)}` }));
        return;
    }
  });
  ws.on('close', () => run.close());
  ws.on('error', () => run.close());
}
