// What a page of the web face may do to a run, decided here and enforced by the web server (a button
// hidden in the page is no protection). Watching needs a login; everything that changes a run needs
// --allow-input too, and a few things need the run to be in the state they act on.

import type { StatusView } from '../screen/status.js';

export type WebAction =
  | { kind: 'input' }
  | { kind: 'approve' }
  | { kind: 'deny' }
  | { kind: 'force-handoff' }
  | { kind: 'hold' }
  | { kind: 'release' }
  | { kind: 'end' }
  | { kind: 'save-document' };

export type Verdict = { ok: true } | { ok: false; problem: string };

const READ_ONLY =
  'this web face is read-only: start it with flower-pty web --allow-input to type, approve, edit or end a run';

/** what needs a person's permission right now, from the status ("Bash touch x"), or null */
export function permissionWaiting(view: StatusView | null): string | null {
  const a = view?.attention ?? null;
  const prefix = 'waiting for your permission: ';
  return a?.startsWith(prefix) ? a.slice(prefix.length) : null;
}

export function mayAct(action: WebAction, o: { allowInput: boolean; view: StatusView | null }): Verdict {
  if (!o.allowInput) return { ok: false, problem: READ_ONLY };
  const phase = o.view?.phase ?? 'starting';
  switch (action.kind) {
    case 'approve':
    case 'deny':
      return permissionWaiting(o.view) !== null
        ? { ok: true }
        : { ok: false, problem: 'nothing is waiting for a permission now' };
    case 'save-document':
      return phase === 'review'
        ? { ok: true }
        : {
            ok: false,
            problem: `the document is editable here only during its review (the run is ${phase}); edit the file itself at any time`,
          };
    case 'hold':
    case 'release':
      return phase === 'review'
        ? { ok: true }
        : { ok: false, problem: `there is no review to ${action.kind} (the run is ${phase})` };
    case 'force-handoff':
      return phase === 'working' || phase === 'near'
        ? { ok: true }
        : { ok: false, problem: `a handoff cannot start now (the run is ${phase})` };
    case 'input':
    case 'end':
      return phase === 'stopped' ? { ok: false, problem: 'the run has stopped' } : { ok: true };
  }
}

// The keys each named key of the page's key bar sends to claude.
export const KEY_BAR: Readonly<Record<string, string>> = {
  esc: '\u001b',
  tab: '\t',
  'shift-tab': '\u001b[Z',
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  'ctrl-c': '\u0003',
  enter: '\r',
};

// What approving and refusing type into claude's permission prompt: "1" picks "Yes" (the first
// choice, whatever else is offered); Esc refuses, as it does in claude's own prompt.
export const APPROVE_KEYS = '1';
export const DENY_KEYS = '\u001b';

/** the keys of a key-bar name a page sent, looked up as the table's own (a name like `constructor` is none) */
export function keyBarKeys(name: string): string | undefined {
  return Object.hasOwn(KEY_BAR, name) ? KEY_BAR[name] : undefined;
}

// The compose box's text as one bracketed paste, then Enter: claude takes it as typed text whatever
// it holds (a newline in it does not send it early). The paste's markers are taken out of it until none
// is left: taking one out of `\e[20\e[201~1~` joins the halves into another.
const PASTE_MARKER = /\u001b\[20[01]~/g;
export function composeKeys(text: string): string {
  let clean = text;
  for (let next = clean.replace(PASTE_MARKER, ''); next !== clean; next = clean.replace(PASTE_MARKER, '')) clean = next;
  return `\u001b[200~${clean}\u001b[201~\r`;
}
