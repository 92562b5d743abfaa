// The runs of the person's other machines beside this one's, for the web face. Each configured host is
// asked for its runs over ssh every few seconds (server/host-ls.ts), and each of its runs gets an ssh
// forward of its run socket to a private socket here (ssh -N -L local.sock:remote.sock): a folder per host
// holds them, followed exactly as the local socket folder is (run-follower.ts), so a remote run's page,
// terminal and approvals go over the wire protocol as a local run's do. Nothing remote listens on any
// network: the forwards are unix sockets in a 0700 folder of this user, through the person's own ssh.

import { mkdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { forwardSocket } from '../adapters/ssh-host.js';
import { askHosts } from '../server/host-ls.js';
import { forwardableSocket } from '../core/hosts/host-answer.js';
import { followRuns, type FollowedRun, type RunFollower } from './run-follower.js';

/** how often each host is asked for its runs */
export const HOST_REFRESH_MS = 10_000;

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
  /** called after each round of asking */
  onHealth(listener: () => void): void;
  close(): void;
}

interface HostState {
  health: HostHealth;
  dir: string;
  follower: RunFollower;
  /** the forward of each remote run, by id */
  tunnels: Map<string, { child: ChildProcess; local: string }>;
}

export function followHosts(local: RunFollower, hosts: readonly string[], dir: string, env: Readonly<Record<string, string | undefined>>, everyMs = HOST_REFRESH_MS): HostFleet {
  let closed = false;
  const listeners = new Set<() => void>();
  const states: HostState[] = hosts.map((host, i) => {
    // a host's name is no file name: its folder is its place in the list
    const hostDir = join(dir, String(i));
    rmSync(hostDir, { recursive: true, force: true });
    mkdirSync(hostDir, { recursive: true, mode: 0o700 });
    return { health: { host, problem: null, runs: 0, checked: null }, dir: hostDir, follower: followRuns(hostDir), tunnels: new Map() };
  });
  const endTunnel = (state: HostState, id: string) => {
    const tunnel = state.tunnels.get(id);
    if (!tunnel) return;
    state.tunnels.delete(id);
    tunnel.child.kill('SIGTERM');
    try {
      unlinkSync(tunnel.local);
    } catch {
      // ssh removed it, or never made it
    }
  };
  const round = async () => {
    const answers = await askHosts(hosts, env);
    if (closed) return;
    answers.forEach((answer, i) => {
      const state = states[i]!;
      state.health = { host: answer.host, problem: 'problem' in answer ? answer.problem : null, runs: 'problem' in answer ? 0 : answer.runs.length, checked: Date.now() };
      // a host that failed keeps its forwards: its runs are still there if it comes back
      if ('problem' in answer) return;
      const listed = new Set(answer.runs.map((r) => r.id));
      for (const id of [...state.tunnels.keys()]) if (!listed.has(id)) endTunnel(state, id);
      for (const run of answer.runs) {
        // another machine's answer: only a path that is a run socket's shape is handed to ssh
        if (state.tunnels.has(run.id) || !forwardableSocket(run.socket)) continue;
        const localSocket = join(state.dir, `${run.id}.sock`);
        const child = forwardSocket(answer.host, localSocket, run.socket, env);
        child.on('error', () => undefined);
        child.on('exit', () => {
          if (state.tunnels.get(run.id)?.child === child) state.tunnels.delete(run.id);
        });
        state.tunnels.set(run.id, { child, local: localSocket });
      }
    });
    for (const l of listeners) l();
  };
  let timer: NodeJS.Timeout | null = null;
  const loop = () => {
    void round().finally(() => {
      if (!closed) timer = setTimeout(loop, everyMs);
    });
  };
  if (hosts.length > 0) loop();

  const all = (): Array<{ follower: RunFollower; host: string | undefined }> => [{ follower: local, host: undefined }, ...states.map((s) => ({ follower: s.follower, host: s.health.host }))];
  const tag = (run: FollowedRun | undefined, host: string | undefined): FollowedRun | undefined => (run === undefined || host === undefined ? run : { ...run, host });
  const follower: RunFollower = {
    runs: () => all().flatMap(({ follower: f, host }) => f.runs().map((r) => tag(r, host)!)),
    get(id) {
      for (const { follower: f, host } of all()) {
        const run = f.get(id);
        if (run) return tag(run, host);
      }
      return undefined;
    },
    feed(id) {
      for (const { follower: f } of all()) {
        const link = f.feed(id);
        if (link) return link;
      }
      return undefined;
    },
    onChange(listener) {
      const offs = all().map(({ follower: f, host }) => f.onChange((before, after) => listener(tag(before ?? undefined, host) ?? null, tag(after ?? undefined, host) ?? null)));
      return () => offs.forEach((off) => off());
    },
    refresh: () => all().reduce((n, { follower: f }) => n + f.refresh(), 0),
    close() {
      for (const { follower: f } of all()) f.close();
    },
  };
  return {
    follower,
    health: () => states.map((s) => s.health),
    onHealth: (listener) => void listeners.add(listener),
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      follower.close();
      for (const state of states) {
        for (const id of [...state.tunnels.keys()]) endTunnel(state, id);
        rmSync(state.dir, { recursive: true, force: true });
      }
    },
  };
}
