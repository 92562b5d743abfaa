// The run server's own look at the person's other runs, for the terminals it draws whose client does not
// look itself: the native attach client (its hello says no `chooser`). A Node client that can show the
// chooser counts them and tells the server (`elsewhere`); this one's count and alerts are the same watcher's
// (elsewhere-watch.ts), run here while at least one such terminal is attached: its count goes to each of
// their split views, each alert rings each of their terminals, as the Node client rings its own. Whether
// to ring is the person's `notify` as this server's environment and the user's config say it.

import type { Hello } from './wire.js';
import type { ClientLink } from './client-link.js';
import { personNotifies, watchElsewhere } from './elsewhere-watch.js';
import { notificationSequence } from '../core/screen/notification.js';

// how long a client's face may take to be made before it is given up on here
const FACE_WAIT_MS = 10_000;
const FACE_LOOK_MS = 50;

export interface ElsewhereFaces {
  /** a client said hello: counted here when the server draws its split view and it does not count itself */
  hello(link: ClientLink, hello: Hello): void;
  gone(link: ClientLink): void;
  dispose(): void;
}

/** whether the server looks at the other runs for this client: a split view it draws, a client that does not */
export function countedByServer(hello: Hello): boolean {
  return hello.role === 'attach' && !hello.watch && Boolean(hello.tty) && hello.face !== 'plain' && !hello.chooser;
}

export function createElsewhereFaces(o: {
  dir: string;
  selfId: string;
  env: Readonly<Record<string, string | undefined>>;
  everyMs?: number;
}): ElsewhereFaces {
  const links = new Set<ClientLink>();
  const waiting = new Map<ClientLink, NodeJS.Timeout>();
  let stop: (() => void) | null = null;
  // A fresh look for each terminal that joins: its count said at once, and what already waited not rung.
  const restart = () => {
    stop?.();
    stop = null;
    if (links.size === 0) return;
    const notify = personNotifies(o.env);
    stop = watchElsewhere({
      dir: o.dir,
      selfId: () => o.selfId,
      notify,
      onCount: (n) => {
        for (const link of links) link.face?.othersWaiting(n);
      },
      onAlert: (alert) => {
        const sequence = notificationSequence(alert.title, alert.body);
        for (const link of links) link.face?.alert(sequence);
      },
      ...(o.everyMs ? { everyMs: o.everyMs } : {}),
    });
  };
  const forget = (link: ClientLink) => {
    const timer = waiting.get(link);
    if (timer) clearTimeout(timer);
    waiting.delete(link);
  };
  return {
    hello(link, hello) {
      if (!countedByServer(hello)) return;
      const until = Date.now() + FACE_WAIT_MS;
      // its face is made after the hello (a terminal opened, a split view drawn): counted once it is there
      const look = () => {
        waiting.delete(link);
        if (link.face) {
          links.add(link);
          restart();
        } else if (Date.now() < until) {
          const timer = setTimeout(look, FACE_LOOK_MS);
          timer.unref();
          waiting.set(link, timer);
        }
      };
      look();
    },
    gone(link) {
      forget(link);
      if (links.delete(link)) restart();
    },
    dispose() {
      for (const link of [...waiting.keys()]) forget(link);
      links.clear();
      stop?.();
      stop = null;
    },
  };
}
