// The run servers a test started: each test's flower-pty gets its own socket folder
// (XDG_RUNTIME_DIR under the test's root), so `ls`/`attach` see only that test's runs, and every
// server left at teardown is ended (TERM, then KILL): a detached server outlives its pty otherwise.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listRuns, type LiveRun } from '../../src/server/run-registry.js';
import type { Teardown } from './real-claude.js';
import { sleep } from './poll.js';

/** the XDG_RUNTIME_DIR for a test root (made 0700, as a real one is) */
export function runtimeDir(root: string): string {
  const dir = join(root, 'run');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** pids of `flower-pty __serve` processes whose XDG_RUNTIME_DIR is `runtime` */
export function serverPids(runtime: string): number[] {
  const pids: number[] = [];
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (!cmdline.includes('\u0000__serve\u0000')) continue;
      const environ = readFileSync(`/proc/${name}/environ`, 'utf8').split('\u0000');
      if (!environ.includes(`XDG_RUNTIME_DIR=${runtime}`)) continue;
      pids.push(Number(name));
      parents.set(Number(name), Number(/^\d+ \(.*\) \S (\d+)/.exec(readFileSync(`/proc/${name}/stat`, 'utf8'))?.[1]));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  // A server's child between fork and exec (git, claude, the notify command) still shows the server's
  // command line for a moment: it is not a second server.
  return pids.filter((pid) => !pids.includes(parents.get(pid) ?? -1));
}

function gone(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** ends every server of this runtime dir: TERM (claude ended cleanly), KILL after 8 s */
export async function endServers(runtime: string): Promise<void> {
  const pids = serverPids(runtime);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = performance.now() + 8_000;
  while (pids.some((p) => !gone(p)) && performance.now() < deadline) await sleep(50);
  for (const pid of pids.filter((p) => !gone(p))) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export function endServersAtTeardown(t: Teardown, runtime: string): void {
  t.teardown(() => endServers(runtime));
}

/** the live runs of this runtime dir, as `flower-pty ls` sees them */
export async function liveRuns(runtime: string): Promise<LiveRun[]> {
  return (await listRuns(join(runtime, 'flower-pty'))).runs;
}

/** the one live run, once there is one */
export async function oneRun(runtime: string, ms = 20_000): Promise<LiveRun> {
  const deadline = performance.now() + ms;
  for (;;) {
    const runs = await liveRuns(runtime);
    if (runs.length === 1) return runs[0]!;
    if (performance.now() > deadline) throw new Error(`expected one live run, found ${runs.length}`);
    await sleep(100);
  }
}
