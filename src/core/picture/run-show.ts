// What a run shows, in one vocabulary: the run loop says it (its `show` effect), the face shows it, the
// wire carries it as it is (these are the wire's own server messages: a native attach client and the web
// page read the same JSON), and everything that keeps a run's current picture for someone who comes late
// (the run server's face, the web's feed, bridge and follower) keeps one `Shown`, changed only by
// `reduceShown`. A new thing to show is one member of `RunShow`, one case of the reducer, and its views.
// Pure.

import type { StatusView } from '../screen/status.js';

export type RunShow =
  /** claude's own terminal title (the title filter took it out of claude's output) */
  | { t: 'title'; title: string }
  /** the run's latest full view: phase, meter, what it waits for (the list picture reads it too) */
  | { t: 'status'; view: StatusView }
  /** the document changed on disk, or a new one was frozen (`text` null: there is no file) */
  | { t: 'document'; path: string; text: string | null }
  /** a line for the person between generations (never drawn over a running claude) */
  | { t: 'message'; text: string }
  /** a child is about to start or has ended */
  | { t: 'child'; state: 'started' | 'ended' };

export type RunShowKind = RunShow['t'];

/** every kind, for a reader that tells a shown thing from the rest of a stream (the wire, the web's feed) */
export const RUN_SHOW_KINDS: readonly RunShowKind[] = ['title', 'status', 'document', 'message', 'child'];

/** a run's current picture: the latest of each kind it has said (null: never said) */
export interface Shown {
  readonly title: string | null;
  readonly view: StatusView | null;
  readonly document: { readonly path: string; readonly text: string | null } | null;
  readonly message: string | null;
  readonly child: 'started' | 'ended' | null;
}

export const NOTHING_SHOWN: Shown = { title: null, view: null, document: null, message: null, child: null };

export function isRunShow<M extends { t: string }>(message: M): message is Extract<M, RunShow> {
  return (RUN_SHOW_KINDS as readonly string[]).includes(message.t);
}

export function reduceShown(shown: Shown, show: RunShow): Shown {
  switch (show.t) {
    case 'title':
      return { ...shown, title: show.title };
    case 'status':
      return { ...shown, view: show.view };
    case 'document':
      return { ...shown, document: { path: show.path, text: show.text } };
    case 'message':
      return { ...shown, message: show.text };
    case 'child':
      return { ...shown, child: show.state };
  }
}

/** the run's state changed for a person (its phase or what it waits for): when "since" starts again */
export function stateChanged(before: Shown, after: Shown): boolean {
  return before.view?.phase !== after.view?.phase || before.view?.attention !== after.view?.attention;
}

/** what a face that comes late is told after claude's screen: the latest title, status and document (a
 * message was for its moment, and the child's state goes before the screen: `shownChild`) */
export function shownLatest(shown: Shown): RunShow[] {
  const out: RunShow[] = [];
  if (shown.title !== null) out.push({ t: 'title', title: shown.title });
  if (shown.view !== null) out.push({ t: 'status', view: shown.view });
  if (shown.document !== null) out.push({ t: 'document', path: shown.document.path, text: shown.document.text });
  return out;
}

/** the child's latest state as the message a late face is told first (before the screen it drew) */
export function shownChild(shown: Shown): RunShow | null {
  return shown.child === null ? null : { t: 'child', state: shown.child };
}
