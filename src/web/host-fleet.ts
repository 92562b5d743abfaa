// The runs of the person's other machines beside this one's, for the web face. Each configured host is
// asked for its runs over ssh on its own clock (server/host-ls.ts): a host that hangs holds back no other
// host's rows, health or forwards. The dashboard's rows of a host come from its answer. A remote run's page
// needs its stream, so while a page shows it (and a little after, HOST_TUNABLES.forwardLingerMs) that run
// gets an ssh forward of its run socket to a private socket here (adapters/ssh-host.ts forwardSocket): a
// folder per host holds them, followed exactly as the local socket folder is (run-follower.ts), so a remote
// run's page, terminal and approvals go over the wire protocol as a local run's do. The forwards are bounded,
// per host and in all (HOST_TUNABLES): a host that lists a thousand runs costs no more ssh processes than
// that. Each forward's ssh ends with this process, even one SIGKILLed; their pids are recorded in the web
// face's private folder, and the next web face ends any that are left (sweepForwards). Nothing remote
// listens on any network: the forwards are unix sockets in a 0700 folder of this user, through the
// person's own ssh.

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateDir, type PrivateDirPolicy } from '../adapters/private-dir.js';
import { askHost } from '../server/host-ls.js';
import { parseHostTarget } from '../core/hosts/host-name.js';
import { listedStateChanged } from '../core/picture/run-picture.js';
import { HOST_TUNABLES } from '../core/options/tunables.js';
import type { LiveRun } from '../server/run-registry.js';
import { followRuns, shownWith, type FollowedRun, type RunFollower } from './run-follower.js';
import { hostForwards, sweepForwards, type ForwardingHost, type HostForwards } from './host-forwards.js';

/** how often each host is asked for its runs */
export const HOST_REFRESH_MS = HOST_TUNABLES.askEveryMs;

export interface HostHealth {
  host: string;
  /** null: it answered; else why not, in one line */
  problem: string | null;
  runs: number;
  /** when it last answered or failed, ms; null before the first answer */
  checked: number | null;
}

export interface HostFleet {
  /** this machine's runs and every host's, as one follower (a host's runs carry `host`) */
  follower: RunFollower;
  health(): HostHealth[];
  /** called after each host's answer */
  onHealth(listener: () => void): void;
  /** the ssh forwards open now, per host (for the tests and the log) */
  forwards(): Record<string, number>;
  close(): void;
}

interface HostState extends ForwardingHost {
  health: HostHealth;
  /** the forwarded runs, followed through their forwards */
  follower: RunFollower;
  /** the runs of its last answer, by id, as rows */
  listed: Map<string, FollowedRun>;
  timer: NodeJS.Timeout | null;
}

function rowOf(run: LiveRun, host: string, previous: FollowedRun | undefined, now: number): FollowedRun {
  const changed = listedStateChanged(previous, run);
  return {
    id: run.id,
    host,
    cwd: run.cwd,
    step: run.step ?? '',
    started: run.started,
    clients: run.clients,
    generation: run.generation,
    phase: run.phase,
    context: run.context,
    window: run.window,
    status: run.status ?? null,
    since: changed || !previous ? now : previous.since,
    socket: run.socket,
    ...(run.active !== undefined && Number.isFinite(Date.parse(run.active)) ? { active: Date.parse(run.active) } : {}),
    workbench: run.workbench,
    shown: shownWith(previous, run.status ?? null),
  };
}

// The forwarded sockets' folders, inside the web face's own folder: made afresh, a real folder of ours, closed
// to every other user as the socket folder is (a forwarded socket is a way into a run).
const FORWARDS_DIR: PrivateDirPolicy = { parents: true, onlyAFolder: true, guarded: 0o077, whenOpen: 'refuse' };

function hostState(host: string, dir: string, i: number): HostState {
  // a host's name is no file name: its folder is its place in the list
  const hostDir = join(dir, String(i));
  makePrivateDir(hostDir, FORWARDS_DIR);
  return {
    health: { host, problem: null, runs: 0, checked: null },
    dir: hostDir,
    follower: followRuns(hostDir),
    listed: new Map(),
    tunnels: new Map(),
    timer: null,
  };
}

type Emit = (before: FollowedRun | null, after: FollowedRun | null) => void;

// A host's answer taken in: its health, and its rows (a run no longer listed ends its forward), each change said.
function takeAnswer(
  state: HostState,
  answer: Awaited<ReturnType<typeof askHost>>,
  now: number,
  o: { ended: (id: string) => void; emit: Emit },
): void {
  const { emit } = o;
  state.health = {
    host: state.health.host,
    problem: 'problem' in answer ? answer.problem : null,
    runs: 'problem' in answer ? 0 : answer.runs.length,
    checked: now,
  };
  // a host that failed keeps its rows and forwards: its runs are still there if it comes back
  if (!('problem' in answer)) {
    const before = state.listed;
    const after = new Map(answer.runs.map((r) => [r.id, rowOf(r, state.health.host, before.get(r.id), now)]));
    state.listed = after;
    for (const [id, row] of before) {
      if (after.has(id)) continue;
      o.ended(id);
      emit(row, null);
    }
    for (const [id, row] of after) {
      const old = before.get(id);
      if (!old || JSON.stringify(old) !== JSON.stringify(row)) emit(old ?? null, row);
    }
  }
}

// A page will show a remote run: its forward started (or one more page on it), then waited for until the
// run's socket answers through it; null, or why not in one line (`release`: this page let go again).
async function openForward(
  state: HostState,
  id: string,
  forwards: HostForwards,
  release: () => void,
): Promise<string | null> {
  const run = state.listed.get(id);
  if (!run) return `no live run on ${state.health.host} has id ${id}`;
  let tunnel = state.tunnels.get(id);
  if (!tunnel) {
    const started = forwards.start(state, run);
    if (typeof started === 'string') return started;
    tunnel = started;
  }
  tunnel.pages += 1;
  if (tunnel.linger) clearTimeout(tunnel.linger);
  tunnel.linger = null;
  const deadline = Date.now() + HOST_TUNABLES.forwardReadyMs;
  while (!state.follower.feed(id) && Date.now() < deadline && state.tunnels.get(id) === tunnel)
    await new Promise((r) => setTimeout(r, 50));
  if (state.follower.feed(id)) return null;
  release();
  return `the forward of run ${id} on ${state.health.host} did not connect (ssh ${state.health.host} works?)`;
}

export function followHosts(
  local: RunFollower,
  hosts: readonly string[],
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
  everyMs = HOST_REFRESH_MS,
): HostFleet {
  let closed = false;
  const listeners = new Set<() => void>();
  const changes = new Set<(before: FollowedRun | null, after: FollowedRun | null) => void>();
  const emit: Emit = (before, after) => changes.forEach((l) => l(before, after));
  sweepForwards(dir);
  rmSync(dir, { recursive: true, force: true });
  makePrivateDir(dir, FORWARDS_DIR);
  const states = hosts.map((host, i) => hostState(host, dir, i));
  const tag = (run: FollowedRun | undefined, host: string): FollowedRun | undefined =>
    run === undefined ? undefined : { ...run, host };
  const forwards = hostForwards(dir, env, states);

  const round = async (state: HostState) => {
    const answer = await askHost(state.health.host, env);
    if (closed) return;
    takeAnswer(state, answer, Date.now(), { ended: (id) => forwards.end(state, id), emit });
    for (const l of listeners) l();
  };
  // each host on its own clock: its next ask is set when its own answer came
  const loop = (state: HostState) => {
    void round(state).finally(() => {
      if (!closed) state.timer = setTimeout(() => loop(state), everyMs);
    });
  };
  for (const state of states) loop(state);

  const stateOf = (key: string): { state: HostState; id: string } | null => {
    const target = parseHostTarget(key);
    if (target === null || 'problem' in target) return null;
    const state = states.find((s) => s.health.host === target.host);
    return state ? { state, id: target.id } : null;
  };
  const rowIn = (state: HostState, id: string): FollowedRun | undefined =>
    tag(state.follower.get(id), state.health.host) ?? state.listed.get(id);

  const follower: RunFollower = {
    runs: () => [...local.runs(), ...states.flatMap((s) => [...s.listed.keys()].map((id) => rowIn(s, id)!))],
    get(key) {
      const remote = stateOf(key);
      if (remote === null) return local.get(key);
      return remote.state.listed.has(remote.id) ? rowIn(remote.state, remote.id) : undefined;
    },
    feed(key) {
      const remote = stateOf(key);
      return remote === null ? local.feed(key) : remote.state.follower.feed(remote.id);
    },
    async open(key) {
      const remote = stateOf(key);
      if (remote === null) return null;
      return openForward(remote.state, remote.id, forwards, () => follower.release!(key));
    },
    release(key) {
      const remote = stateOf(key);
      const tunnel = remote?.state.tunnels.get(remote.id);
      if (!remote || !tunnel) return;
      tunnel.pages = Math.max(0, tunnel.pages - 1);
      if (tunnel.pages > 0 || tunnel.linger) return;
      tunnel.linger = setTimeout(() => {
        tunnel.linger = null;
        if (tunnel.pages === 0) forwards.end(remote.state, remote.id);
      }, HOST_TUNABLES.forwardLingerMs);
      tunnel.linger.unref();
    },
    onChange(listener) {
      changes.add(listener);
      const offs = [
        local.onChange(listener),
        // a forwarded run's changes, as its row; its forward closing is not the run ending while it is listed
        ...states.map((s) =>
          s.follower.onChange((before, after) => {
            const host = s.health.host;
            const id = (after ?? before)!.id;
            listener(tag(before ?? undefined, host) ?? null, tag(after ?? undefined, host) ?? s.listed.get(id) ?? null);
          }),
        ),
      ];
      return () => {
        changes.delete(listener);
        offs.forEach((off) => off());
      };
    },
    refresh: () => local.refresh() + states.reduce((n, s) => n + s.follower.refresh(), 0),
    close() {
      local.close();
      for (const s of states) s.follower.close();
    },
  };
  return {
    follower,
    health: () => states.map((s) => s.health),
    onHealth: (listener) => void listeners.add(listener),
    forwards: () => Object.fromEntries(states.map((s) => [s.health.host, s.tunnels.size])),
    close() {
      closed = true;
      for (const state of states) if (state.timer) clearTimeout(state.timer);
      follower.close();
      for (const state of states) for (const id of [...state.tunnels.keys()]) forwards.end(state, id);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
