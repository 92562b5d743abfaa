// The ssh forwards of remote runs' sockets for the web face's pages (web/host-fleet.ts): each started
// within its bounds (HOST_TUNABLES: per host and in all), recorded with its ssh's pid in the hosts folder
// as it starts and ends, and ended with its local socket. A web face SIGKILLed before it could end them
// leaves the record, and the next one ends what is left (sweepForwards).

import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { forwardSocket, FORWARD_LIFELINE } from '../adapters/ssh-host.js';
import { forwardableSocket } from '../core/hosts/host-answer.js';
import { HOST_TUNABLES } from '../core/options/tunables.js';
import type { FollowedRun } from './run-follower.js';

export interface Tunnel {
  child: ChildProcess;
  local: string;
  /** pages that show the run */
  pages: number;
  linger: NodeJS.Timeout | null;
}

/** what the forwards need of a host: its name, its folder of forwarded sockets, its forwards by run id */
export interface ForwardingHost {
  readonly health: { readonly host: string };
  readonly dir: string;
  readonly tunnels: Map<string, Tunnel>;
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

export interface HostForwards {
  /** a forward of `run`'s socket started, or why not in one line (a socket not of a run's shape, a bound) */
  start(state: ForwardingHost, run: FollowedRun): Tunnel | string;
  /** the forward of run `id` ended, its socket removed */
  end(state: ForwardingHost, id: string): void;
}

export function hostForwards(
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
  states: readonly ForwardingHost[],
): HostForwards {
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
  const endTunnel = (state: ForwardingHost, id: string) => {
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
  const startTunnel = (state: ForwardingHost, run: FollowedRun): Tunnel => {
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
  return {
    start(state, run) {
      // another machine's answer: only a path that is a run socket's shape is handed to ssh
      if (!forwardableSocket(run.socket))
        return `${state.health.host} named a socket for run ${run.id} that flower-pty does not forward`;
      if (state.tunnels.size >= HOST_TUNABLES.forwardsPerHost)
        return `${HOST_TUNABLES.forwardsPerHost} runs of ${state.health.host} are open in pages already (the most at once): close one of their pages first`;
      if (openCount() >= HOST_TUNABLES.forwardsInAll)
        return `${HOST_TUNABLES.forwardsInAll} remote runs are open in pages already (the most at once): close one of their pages first`;
      return startTunnel(state, run);
    },
    end: endTunnel,
  };
}
