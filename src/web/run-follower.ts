// Every live run of this user, followed while the web face is up: the socket folder is watched for
// runs that start or end (as `ls` finds them), and each run is held by one watcher connection whose
// status frames keep its row current and whose stream feeds every page that watches it (run-feed.ts):
// one connection per run however many pages. Nothing here polls: a run that does nothing costs nothing.

import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { readdir } from 'node:fs/promises';
import { socketId } from '../server/socket-dir.js';
import type { ClientMessage, RunInfo, ServerMessage } from '../server/wire.js';
import type { StatusView } from '../core/screen/status.js';
import type { DashboardRun } from '../core/web/web-dashboard.js';
import { watchRun, type RunWatch } from './run-watch.js';
import { createRunFeed, type RunFeed } from './run-feed.js';
import { listedStateChanged } from '../core/picture/run-picture.js';
import { isRunShow, NOTHING_SHOWN, reduceShown, type Shown } from '../core/picture/run-show.js';

export interface FollowedRun extends DashboardRun {
  /** the machine it runs on, reached over ssh (web/host-fleet.ts); absent: this one */
  host?: string;
  socket: string;
  workbench: string | null;
  /** what the run shows now, as its stream said it (core/picture/run-show.ts) */
  shown: Shown;
}

/** how a page names a run: its id on this machine, `HOST:ID` on another (two hosts' ids may be the same) */
export function runKey(run: { id: string; host?: string | undefined }): string {
  return run.host === undefined ? run.id : `${run.host}:${run.id}`;
}

export interface RunFollower {
  runs(): FollowedRun[];
  /** the run a key (runKey) names */
  get(key: string): FollowedRun | undefined;
  /** the run's feed (its screen and stream, for pages) and its connection, while it is followed */
  feed(key: string): { feed: RunFeed; send(message: ClientMessage): void } | undefined;
  /** a page will show the run: what it needs to be fed is made ready (a remote run's forward); null, or why
   * not in one line. Each open that returned null is matched by one release. Absent: always ready. */
  open?(key: string): Promise<string | null>;
  /** a page that showed the run is gone */
  release?(key: string): void;
  /** called after any run changed, started or ended (`before` null: it started; `after` null: it ended) */
  onChange(listener: (before: FollowedRun | null, after: FollowedRun | null) => void): () => void;
  /** asks the runs that do not say when a terminal attaches or goes (older servers) for their latest
   * info: answered through onChange. Returns how many were asked. */
  refresh(): number;
  close(): void;
}

const RESCAN_DEBOUNCE_MS = 50;

/** what a run shows once its info said its status (an info without one leaves the picture as it was) */
export function shownWith(previous: Pick<FollowedRun, 'shown'> | undefined, status: StatusView | null): Shown {
  const shown = previous?.shown ?? NOTHING_SHOWN;
  return status ? reduceShown(shown, { t: 'status', view: status }) : shown;
}

/** a run's row from its server's info: `since` and `active` kept from the row before where the info is silent */
function fromInfo(info: RunInfo, socket: string, previous: FollowedRun | undefined, now: () => number): FollowedRun {
  const changed = listedStateChanged(previous, info);
  return {
    id: info.id,
    cwd: info.cwd,
    step: info.step,
    started: info.started,
    clients: info.clients,
    generation: info.generation,
    phase: info.phase,
    context: info.context,
    window: info.window,
    status: info.status,
    // the server's own word on when its state began (a page opened late still sees how long), else when this follower saw it change
    since:
      info.since !== undefined && Number.isFinite(Date.parse(info.since))
        ? Date.parse(info.since)
        : changed || !previous
          ? now()
          : previous.since,
    // when claude last drew (the server's word, kept from its last info between them): the order within a group
    ...(info.active !== undefined && Number.isFinite(Date.parse(info.active))
      ? { active: Date.parse(info.active) }
      : previous?.active !== undefined
        ? { active: previous.active }
        : {}),
    socket,
    workbench: info.workbench,
    shown: shownWith(previous, info.status),
  };
}

/** a run's row after one message from its server: null when the message leaves it as it was; `tell`
 * says whether listeners hear of it (a picture change is kept silently until its document) */
function rowAfter(
  before: FollowedRun | null,
  m: ServerMessage,
  socket: string,
  now: () => number,
): { after: FollowedRun; tell: boolean } | null {
  if (m.t === 'welcome' || m.t === 'info') {
    return { after: fromInfo(m.run, socket, before ?? undefined, now), tell: true };
  }
  if (m.t === 'status' && before) {
    const { since: _followedSince, active: _followedActive, ...known } = before;
    const after = fromInfo(
      {
        ...known,
        pid: 0,
        status: m.view,
        phase: m.view.phase,
        generation: m.view.generation,
        context: m.view.context,
        window: m.view.window,
      },
      socket,
      before,
      now,
    );
    return { after, tell: true };
  }
  if (isRunShow(m) && before) {
    // the rest of what it shows is kept too; the rows change (and are told) only with its document
    return { after: { ...before, shown: reduceShown(before.shown, m) }, tell: m.t === 'document' };
  }
  return null;
}

export function followRuns(socketDir: string, now: () => number = Date.now): RunFollower {
  const runs = new Map<string, FollowedRun>();
  const links = new Map<string, RunWatch>();
  const feeds = new Map<string, RunFeed>();
  /** the runs served by a flower-pty that answers `repaint` and tells its watchers of terminals */
  const current = new Set<string>();
  const listeners = new Set<(before: FollowedRun | null, after: FollowedRun | null) => void>();
  const emit = (before: FollowedRun | null, after: FollowedRun | null) => listeners.forEach((l) => l(before, after));
  let closed = false;

  const follow = (id: string, socket: string) => {
    if (links.has(id) || closed) return;
    // The run's screen is the run server's: asked for on this connection when a page needs a paint. A
    // run served by an older flower-pty (no `repaint` in its welcome) cannot be asked: its pages start
    // from a cleared screen of claude's size and are streamed from there.
    let repaints = false;
    let size = { cols: 80, rows: 24 };
    const feed = createRunFeed(() => {
      if (repaints) return link.send({ t: 'repaint' });
      feed.push({
        t: 'message',
        text: 'this run was started by an older flower-pty: its screen shows only what claude draws from now on',
      });
      feed.push({ t: 'screen', data: '', ...size });
    });
    feeds.set(id, feed);
    let last: { reason: string; message?: string } = { reason: 'gone', message: 'the connection to the run was lost' };
    const link = watchRun(socket, {
      message: (m: ServerMessage) => {
        if (m.t === 'welcome') {
          repaints = m.repaint === true;
          if (repaints) current.add(id);
        }
        if (m.t === 'screen' || m.t === 'size') size = { cols: m.cols, rows: m.rows };
        feed.push(m);
        if (m.t === 'bye') last = { reason: m.reason, ...(m.message ? { message: m.message } : {}) };
        if (m.t === 'refused') last = { reason: 'refused', message: m.reason };
        const before = runs.get(id) ?? null;
        const next = rowAfter(before, m, socket, now);
        if (next) {
          runs.set(id, next.after);
          if (next.tell) emit(before, next.after);
        }
      },
      closed: () => {
        links.delete(id);
        current.delete(id);
        feeds.delete(id);
        feed.end(last);
        const before = runs.get(id) ?? null;
        runs.delete(id);
        if (before) emit(before, null);
      },
    });
    links.set(id, link);
  };

  let timer: NodeJS.Timeout | null = null;
  const rescan = async () => {
    timer = null;
    let names: string[] = [];
    try {
      names = await readdir(socketDir);
    } catch {
      return;
    }
    for (const name of names) {
      const id = socketId(name);
      if (id !== null) follow(id, join(socketDir, name));
    }
  };
  const soon = () => {
    if (!timer && !closed) timer = setTimeout(() => void rescan(), RESCAN_DEBOUNCE_MS);
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(socketDir, soon);
    watcher.on('error', () => undefined);
  } catch {
    // no watch (a folder that vanished): the first scan is all there is
  }
  void rescan();

  return {
    runs: () => [...runs.values()],
    get: (id) => runs.get(id),
    feed(id) {
      const feed = feeds.get(id);
      const link = links.get(id);
      return feed && link && runs.has(id) ? { feed, send: (m) => link.send(m) } : undefined;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh() {
      let asked = 0;
      for (const [id, link] of links) {
        if (current.has(id)) continue;
        link.send({ t: 'info' });
        asked++;
      }
      return asked;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher?.close();
      for (const link of links.values()) link.close();
    },
  };
}
