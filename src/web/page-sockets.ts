// Every page's socket the web server holds, and what goes to them all: the dashboards' rows (pushed once
// for a burst of changes), a run's notification to every page, the older runs asked while a dashboard
// looks. Closing ends every socket and every timer.

import type { WebSocket } from 'ws';
import { dashboardOrder, notificationFor, stateText, urgency } from '../core/web/web-dashboard.js';
import { runKey, type FollowedRun, type RunFollower } from './run-follower.js';
import type { HostFleet } from './host-fleet.js';

/** one dashboard row: what the page shows, nothing it would have to work out */
export function dashboardRow(r: FollowedRun) {
  return {
    id: r.id,
    host: r.host ?? null,
    /** how the run's page names it: its id here, HOST:ID on another machine (two hosts' ids may be the same) */
    key: runKey(r),
    cwd: r.cwd,
    step: r.step,
    generation: r.generation,
    maxGenerations: r.status?.maxGenerations ?? null,
    phase: r.phase,
    state: stateText(r),
    urgency: urgency(r),
    context: r.context,
    window: r.window,
    at: r.status?.at ?? null,
    warnAt: r.status?.warnAt ?? null,
    clients: r.clients,
    since: r.since,
    started: r.started,
  };
}

export interface PageSockets {
  /** the dashboard's rows as the API and the socket send them */
  rows(): ReturnType<typeof dashboardRow>[];
  hostRows(): ReturnType<HostFleet['health']>;
  /** a page's socket, dashboard or run page: told of notifications, ended on close */
  addPage(ws: WebSocket): void;
  /** a dashboard's socket: its first rows, then every change */
  addDashboard(ws: WebSocket, allowInput: boolean): void;
  /** every socket ended, every timer cleared */
  close(): void;
}

export function holdPageSockets(o: {
  follower: RunFollower;
  hosts?: Pick<HostFleet, 'health' | 'onHealth'>;
}): PageSockets {
  const dashboards = new Set<WebSocket>();
  const pages = new Set<WebSocket>();
  const rows = () => dashboardOrder(o.follower.runs()).map(dashboardRow);
  const hostRows = () => o.hosts?.health() ?? [];
  o.hosts?.onHealth(() => {
    if (dashboards.size > 0 && !pending) pending = setTimeout(pushRows, 100);
  });
  let pending: NodeJS.Timeout | null = null;
  const pushRows = () => {
    pending = null;
    const message = JSON.stringify({ t: 'runs', runs: rows(), hosts: hostRows() });
    for (const ws of dashboards) ws.send(message);
  };
  o.follower.onChange((before, after) => {
    // A burst of status frames (the meter while claude writes) is one update of the rows.
    if (dashboards.size > 0 && !pending) pending = setTimeout(pushRows, 100);
    const text = notificationFor(before, after);
    const changed = after ?? before;
    const id = changed ? runKey(changed) : undefined;
    if (text && id) {
      const message = JSON.stringify({ t: 'notify', id, text, cwd: (after ?? before)!.cwd });
      for (const ws of pages) ws.send(message);
    }
  });
  // A run tells the web server when a terminal attaches or goes; one served by an older flower-pty does
  // not, and is asked every few seconds while someone looks at the dashboard. Nothing ticks otherwise:
  // an idle web server with its pages open wakes for nothing.
  let refresher: NodeJS.Timeout | null = null;
  const refreshOlder = () => {
    if (dashboards.size > 0 && o.follower.refresh() > 0) {
      refresher ??= setInterval(refreshOlder, 5_000);
      refresher.unref();
    } else if (refresher) {
      if (refresher) clearInterval(refresher);
      refresher = null;
    }
  };
  return {
    rows,
    hostRows,
    addPage(ws) {
      pages.add(ws);
      ws.on('close', () => {
        pages.delete(ws);
        dashboards.delete(ws);
      });
      ws.on('error', () => undefined);
    },
    addDashboard(ws, allowInput) {
      dashboards.add(ws);
      ws.send(JSON.stringify({ t: 'runs', runs: rows(), hosts: hostRows(), allowInput }));
      refreshOlder();
      // the dashboard says nothing: anything it sends is refused
      ws.on('message', () => ws.close(1003, 'the dashboard socket takes no messages'));
    },
    close() {
      if (refresher) clearInterval(refresher);
      if (pending) clearTimeout(pending);
      for (const ws of pages) ws.terminate();
    },
  };
}
