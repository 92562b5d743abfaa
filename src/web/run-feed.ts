// One run's live feed in the web face, fed by the follower's one watcher connection to that run:
// however many pages watch it, the run server sees one watcher. The web server keeps no emulator: a
// page is painted from the run server's own screen (its one parse of claude's output), asked for on
// that connection (`repaint`) when the screen the feed last had is stale. The answer comes in the
// stream's order, so what arrived before it is in it and what arrives after it follows it: a page
// waiting for a paint drops the output before the answer and is streamed everything after it.

import type { ServerMessage } from '../server/wire.js';
import {
  isRunShow,
  NOTHING_SHOWN,
  reduceShown,
  RUN_SHOW_KINDS,
  shownChild,
  shownLatest,
  type RunShow,
  type Shown,
} from '../core/picture/run-show.js';

/** what a page is streamed of its run: claude's screen and what the run shows (the rest of the wire is the follower's) */
export type FeedMessage = Extract<ServerMessage, { t: 'screen' | 'output' | 'size' }> | RunShow;

export interface FeedPage {
  show(message: FeedMessage): void;
  /** the run is gone: how it ended (the run's bye), or why the connection to it went */
  ended(last: { reason: string; message?: string }): void;
}

export interface Snapshot {
  /** how many screen changes the feed has seen: a page painted at this count that connects while it is unchanged needs no repaint */
  seq: number;
  /** the latest child state, the screen, then the latest title, status and document */
  messages: FeedMessage[];
}

export interface RunFeed {
  readonly seq: number;
  /** a message from the run, as the watcher connection read it */
  push(message: ServerMessage): void;
  /** the run as it is now (the run server's screen: asked for when the feed's is stale) */
  snapshot(): Promise<Snapshot>;
  /** a page's first paint, then its stream; `seq`: the count its HTML was painted at. Returns the unwatch. */
  watch(page: FeedPage, seq: number | null): () => void;
  readonly watchers: number;
  /** the run ended: every page is told, and the screen is let go */
  end(last: { reason: string; message?: string }): void;
}

const FEED = new Set<string>(['screen', 'output', 'size', ...RUN_SHOW_KINDS] satisfies Array<FeedMessage['t']>);
const SCREEN_CHANGES = new Set<string>(['output', 'size', 'child'] satisfies Array<FeedMessage['t']>);

/** `ask`: sends `repaint` on the watcher connection; the run's next `screen` answers it */
export function createRunFeed(ask: () => void): RunFeed {
  let seq = 0;
  /** what the run shows now: a page that comes late is told it around its screen */
  let shown: Shown = NOTHING_SHOWN;
  /** the run server's latest screen and the count it stands at: current while nothing changed since */
  let shot: { seq: number; screen: FeedMessage } | null = null;
  // The first paint's screen comes unasked; after it, one question at a time (its answer serves everyone waiting).
  let firstDue = true;
  let asked = false;
  const live = new Set<FeedPage>();
  /** pages waiting for a screen: the run's messages (not its screen changes, which the screen holds) are kept for them */
  const painting = new Map<FeedPage, FeedMessage[]>();
  const waiting: Array<{ resolve: (s: Snapshot) => void; reject: (e: Error) => void }> = [];
  let over = false;

  const child = (): FeedMessage[] => {
    const m = shownChild(shown);
    return m ? [m] : [];
  };
  const paint = (screen: FeedMessage): FeedMessage[] => [...child(), screen, ...shownLatest(shown)];
  const current = (): Snapshot | null => (shot && shot.seq === seq ? { seq, messages: paint(shot.screen) } : null);
  const need = (): void => {
    if (firstDue || asked || over) return;
    asked = true;
    ask();
  };

  return {
    get seq() {
      return seq;
    },
    get watchers() {
      return live.size + painting.size;
    },
    push(m) {
      if (!FEED.has(m.t) || over) return;
      const fm = m as FeedMessage;
      if (fm.t === 'screen') {
        // The first paint or an answer: everything before it is in it; everyone waiting is painted from it.
        firstDue = false;
        asked = false;
        shot = { seq, screen: fm };
        const shotNow = { seq, messages: paint(fm) };
        for (const w of waiting.splice(0)) w.resolve(shotNow);
        for (const [page, held] of [...painting]) {
          painting.delete(page);
          for (const out of [...shotNow.messages, ...held]) page.show(out);
          live.add(page);
        }
        return;
      }
      // The pages first: a key's echo waits on nothing here.
      for (const page of live) page.show(fm);
      if (fm.t === 'message') for (const held of painting.values()) held.push(fm);
      if (SCREEN_CHANGES.has(fm.t)) {
        seq++;
        shot = null; // stale: let it go rather than keep a screen nobody will be shown
      }
      if (isRunShow(fm)) shown = reduceShown(shown, fm);
    },
    snapshot() {
      if (over) return Promise.reject(new Error('the run has ended'));
      // The same screen for every page that opens while nothing changes (a reload, several phones).
      const now = current();
      if (now) return Promise.resolve(now);
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        need();
      });
    },
    watch(page, pageSeq) {
      if (pageSeq === seq) {
        // Painted by its HTML and nothing changed since: only the latest words, then the stream.
        for (const m of [...child(), ...shownLatest(shown)]) page.show(m);
        live.add(page);
      } else {
        const now = current();
        if (now) {
          for (const m of now.messages) page.show(m);
          live.add(page);
        } else {
          painting.set(page, []);
          need();
        }
      }
      return () => {
        painting.delete(page);
        live.delete(page);
      };
    },
    end(last) {
      if (over) return;
      over = true;
      const pages = [...live, ...painting.keys()];
      live.clear();
      painting.clear();
      shot = null;
      for (const w of waiting.splice(0)) w.reject(new Error('the run has ended'));
      for (const page of pages) page.ended(last);
    },
  };
}
