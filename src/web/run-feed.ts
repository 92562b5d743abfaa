// One run's live feed in the web face, fed by the follower's one watcher connection to that run:
// however many pages watch it, the run server sees one watcher. Claude's screen is kept here too, in
// an emulator of the web server's own (the run server's screen model, server/screen-model.ts), so a
// page is painted at once from memory, with no round trip to the run, and a run page's first HTML can
// carry the screen itself. Each page is painted, then streamed what came after its paint, in order.

import { createScreenModel, type ScreenModel } from '../server/screen-model.js';
import type { ServerMessage } from '../server/wire.js';

/** what a page is streamed of its run (the rest of the wire is the follower's) */
export type FeedMessage = Extract<ServerMessage, { t: 'screen' | 'output' | 'size' | 'title' | 'child' | 'status' | 'document' | 'message' }>;

export interface FeedPage {
  show(message: FeedMessage): void;
  /** the run is gone: how it ended (the run's bye), or why the connection to it went */
  ended(last: { reason: string; message?: string }): void;
}

export interface Snapshot {
  /** how many screen changes the feed has seen: a page painted at this count that connects while it is unchanged needs no repaint */
  seq: number;
  /** the screen, then the latest child state, title, status and document */
  messages: FeedMessage[];
}

export interface RunFeed {
  readonly seq: number;
  /** a message from the run, as the watcher connection read it */
  push(message: ServerMessage): void;
  /** the run as it is now */
  snapshot(): Promise<Snapshot>;
  /** a page's first paint, then its stream; `seq`: the count its HTML was painted at. Returns the unwatch. */
  watch(page: FeedPage, seq: number | null): () => void;
  readonly watchers: number;
  /** the run ended: every page is told, and the screen is let go */
  end(last: { reason: string; message?: string }): void;
}

const FEED = new Set<string>(['screen', 'output', 'size', 'title', 'child', 'status', 'document', 'message'] satisfies Array<FeedMessage['t']>);
const SCREEN_CHANGES = new Set<string>(['screen', 'output', 'size', 'child'] satisfies Array<FeedMessage['t']>);

export function createRunFeed(): RunFeed {
  const model: ScreenModel = createScreenModel({ cols: 80, rows: 24 });
  let seq = 0;
  let child: FeedMessage | null = null;
  let childEnded = false;
  let title: FeedMessage | null = null;
  let status: FeedMessage | null = null;
  let document: FeedMessage | null = null;
  const live = new Set<FeedPage>();
  /** pages whose paint is being taken: what comes meanwhile is held for them, in order */
  const painting = new Map<FeedPage, FeedMessage[]>();

  const latest = (): FeedMessage[] => [child, title, status, document].filter((m): m is FeedMessage => m !== null);
  let over = false;
  let screen: { seq: number; message: Promise<FeedMessage> } | null = null;
  const snapshot = async (): Promise<Snapshot> => {
    if (over) throw new Error('the run has ended');
    // The same screen for every page that opens while nothing changes (a reload, several phones).
    if (!screen || screen.seq !== seq) {
      const at = seq;
      const cols = model.cols;
      const rows = model.rows;
      screen = { seq: at, message: model.repaint().then((data) => ({ t: 'screen', data, cols, rows })) }; // everything pushed before this call, nothing after
    }
    const taken = screen;
    return { seq: taken.seq, messages: [await taken.message, ...latest()] };
  };

  return {
    get seq() {
      return seq;
    },
    get watchers() {
      return live.size + painting.size;
    },
    push(m) {
      if (!FEED.has(m.t)) return;
      const fm = m as FeedMessage;
      // The pages first: a key's echo does not wait on this emulator.
      for (const held of painting.values()) held.push(fm);
      for (const page of live) page.show(fm);
      if (SCREEN_CHANGES.has(fm.t)) seq++;
      switch (fm.t) {
        case 'screen':
          model.reset();
          model.resize(fm.cols, fm.rows);
          model.write(fm.data);
          return;
        case 'output':
          return model.write(fm.data);
        case 'size':
          return model.resize(fm.cols, fm.rows);
        case 'child':
          // a successor's screen starts clean, as the page's own terminal does
          if (fm.state === 'started' && childEnded) model.reset();
          childEnded = fm.state === 'ended';
          child = fm;
          return;
        case 'title':
          title = fm;
          return;
        case 'status':
          status = fm;
          return;
        case 'document':
          document = fm;
          return;
        case 'message':
          return;
      }
    },
    snapshot,
    watch(page, pageSeq) {
      if (pageSeq === seq) {
        // Painted by its HTML and nothing changed since: only the latest words, then the stream.
        for (const m of latest()) page.show(m);
        live.add(page);
      } else {
        painting.set(page, []);
        void snapshot().then((shot) => {
          const held = painting.get(page);
          if (!held) return; // it left meanwhile
          painting.delete(page);
          for (const m of [...shot.messages, ...held]) page.show(m);
          live.add(page);
        });
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
      for (const page of pages) page.ended(last);
      model.dispose();
    },
  };
}
