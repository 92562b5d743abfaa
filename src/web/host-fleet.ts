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

import { mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { forwardSocket, FORWARD_LIFELINE } from '../adapters/ssh-host.js';
import { askHost } from '../server/host-ls.js';
import { forwardableSocket } from '../core/hosts/host-answer.js';
import { parseHostTarget } from '../core/hosts/host-name.js';
import { HOST_TUNABLES } from '../core/options/tunables.js';
import type { LiveRun } from '../server/run-registry.js';
import { followRuns, shownWith, type FollowedRun, type RunFollower } from './run-follower.js';

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

interface Tunnel {
  child: ChildProcess;
  local: string;
  /** pages that show the run */
  pages: number;
  linger: NodeJS.Timeout | null;
}

interface HostState {
  health: HostHealth;
  dir: string;
  /** the forwarded runs, followed through their forwards */
  follower: RunFollower;
  /** the runs of its last answer, by id, as rows */
  listed: Map<string, FollowedRun>;
  tunnels: Map<string, Tunnel>;
  timer: NodeJS.Timeout | null;
}

/** the file in the hosts folder that records each forward's ssh: `pid local-socket` a line */
const FORWARDS_FILE = 'forwards';

/**
 * Ends the forwards a web face before this one left (one SIGKILLed, whose ssh had not ended yet): each pid
 * recorded in `dir`'s forwards file that is still an ssh of that forward (its command line names the
 * socket, so a pid used again by something else is left alone). Linux reads /proc; elsewhere the ssh
 * processes end by themselves (their pipe's end). Returns the pids ended.
 */
export function sweepForwards(dir: string): number[] {
  let text = '';
  try {
    text = readFileSync(join(dir, FORWARDS_FILE), 'utf8');
  } catch {
    return [];
  }
  const ended: number[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+) (.+)$/.exec(line);
    if (!m) continue;
    const pid = Number(m[1]);
    let command = '';
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const args = command.split('\0');
    if (
      !/(^|\/)ssh$/.test(args[0] ?? '') ||
      !args.some((a) => a.startsWith(`${m[2]}:`)) ||
      !args.includes(FORWARD_LIFELINE)
    )
      continue;
    try {
      process.kill(pid, 'SIGTERM');
      ended.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return ended;
}

function rowOf(run: LiveRun, host: string, previous: FollowedRun | undefined, now: number): FollowedRun {
  const changed =
    !previous ||
    previous.phase !== run.phase ||
    (previous.status?.attention ?? null) !== (run.status?.attention ?? null);
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
    since: changed ? now : previous.since,
    socket: run.socket,
    ...(run.active !== undefined && Number.isFinite(Date.parse(run.active)) ? { active: Date.parse(run.active) } : {}),
    workbench: run.workbench,
    shown: shownWith(previous, run.status ?? null),
  };
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
  const emit = (before: FollowedRun | null, after: FollowedRun | null) => changes.forEach((l) => l(before, after));
  sweepForwards(dir);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const states: HostState[] = hosts.map((host, i) => {
    // a host's name is no file name: its folder is its place in the list
    const hostDir = join(dir, String(i));
    mkdirSync(hostDir, { recursive: true, mode: 0o700 });
    return {
      health: { host, problem: null, runs: 0, checked: null },
      dir: hostDir,
      follower: followRuns(hostDir),
      listed: new Map(),
      tunnels: new Map(),
      timer: null,
    };
  });
  const tag = (run: FollowedRun | undefined, host: string): FollowedRun | undefined =>
    run === undefined ? undefined : { ...run, host };
  const openCount = () => states.reduce((n, s) => n + s.tunnels.size, 0);

  const record = () => {
    const lines = states.flatMap((s) => [...s.tunnels.values()].map((t) => `${t.child.pid} ${t.local}`));
    const file = join(dir, FORWARDS_FILE);
    try {
      writeFileSync(`${file}.tmp`, lines.join('\n') + '\n', { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    } catch {
      // the folder went with close()
    }
  };
  const endTunnel = (state: HostState, id: string) => {
    const tunnel = state.tunnels.get(id);
    if (!tunnel) return;
    state.tunnels.delete(id);
    if (tunnel.linger) clearTimeout(tunnel.linger);
    tunnel.child.stdin?.destroy();
    tunnel.child.kill('SIGTERM');
    try {
      unlinkSync(tunnel.local);
    } catch {
      // ssh removed it, or never made it
    }
    record();
  };
  const startTunnel = (state: HostState, run: FollowedRun): Tunnel => {
    const localSocket = join(state.dir, `${run.id}.sock`);
    const child = forwardSocket(state.health.host, localSocket, run.socket, env);
    child.on('error', () => undefined);
    child.stdin?.on('error', () => undefined);
    const tunnel: Tunnel = { child, local: localSocket, pages: 0, linger: null };
    child.on('exit', () => {
      if (state.tunnels.get(run.id) === tunnel) {
        state.tunnels.delete(run.id);
        record();
      }
    });
    state.tunnels.set(run.id, tunnel);
    record();
    return tunnel;
  };

  const round = async (state: HostState) => {
    const answer = await askHost(state.health.host, env);
    if (closed) return;
    const now = Date.now();
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
        endTunnel(state, id);
        emit(row, null);
      }
      for (const [id, row] of after) {
        const old = before.get(id);
        if (!old || JSON.stringify(old) !== JSON.stringify(row)) emit(old ?? null, row);
      }
    }
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
      const { state, id } = remote;
      const run = state.listed.get(id);
      if (!run) return `no live run on ${state.health.host} has id ${id}`;
      let tunnel = state.tunnels.get(id);
      if (!tunnel) {
        // another machine's answer: only a path that is a run socket's shape is handed to ssh
        if (!forwardableSocket(run.socket))
          return `${state.health.host} named a socket for run ${id} that flower-pty does not forward`;
        if (state.tunnels.size >= HOST_TUNABLES.forwardsPerHost)
          return `${HOST_TUNABLES.forwardsPerHost} runs of ${state.health.host} are open in pages already (the most at once): close one of their pages first`;
        if (openCount() >= HOST_TUNABLES.forwardsInAll)
          return `${HOST_TUNABLES.forwardsInAll} remote runs are open in pages already (the most at once): close one of their pages first`;
        tunnel = startTunnel(state, run);
      }
      tunnel.pages += 1;
      if (tunnel.linger) clearTimeout(tunnel.linger);
      tunnel.linger = null;
      const deadline = Date.now() + HOST_TUNABLES.forwardReadyMs;
      while (!state.follower.feed(id) && Date.now() < deadline && state.tunnels.get(id) === tunnel)
        await new Promise((r) => setTimeout(r, 50));
      if (state.follower.feed(id)) return null;
      follower.release!(key);
      return `the forward of run ${id} on ${state.health.host} did not connect (ssh ${state.health.host} works?)`;
    },
    release(key) {
      const remote = stateOf(key);
      const tunnel = remote?.state.tunnels.get(remote.id);
      if (!remote || !tunnel) return;
      tunnel.pages = Math.max(0, tunnel.pages - 1);
      if (tunnel.pages > 0 || tunnel.linger) return;
      tunnel.linger = setTimeout(() => {
        tunnel.linger = null;
        if (tunnel.pages === 0) endTunnel(remote.state, remote.id);
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
      for (const state of states) for (const id of [...state.tunnels.keys()]) endTunnel(state, id);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
