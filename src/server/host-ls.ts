// Every host's live runs, asked at once over ssh (each host's own `flower-pty ls`), read against this
// flower-pty's wire version: `ls --host` and the web face's hosts both ask this way.

import { LS_REPLY_LIMIT, readHostLs, REMOTE_LS_ARGS, type HostAnswer } from '../core/hosts/host-answer.js';
import { REMOTE_COMMAND_S, runOnHost } from '../adapters/ssh-host.js';
import { WIRE_VERSION } from './wire.js';
import type { LiveRun } from './run-registry.js';

/** one host's answer: its runs, each rebuilt from the fields flower-pty reads, or one line */
export async function askHost(
  host: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<HostAnswer<LiveRun>> {
  return readHostLs<LiveRun>(
    host,
    await runOnHost(host, REMOTE_LS_ARGS, env, REMOTE_COMMAND_S, LS_REPLY_LIMIT),
    WIRE_VERSION,
  );
}

/** each host's answer, in the order named; a host that hangs holds back none but itself */
export function askHosts(
  hosts: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<Array<HostAnswer<LiveRun>>> {
  return Promise.all(hosts.map((host) => askHost(host, env)));
}
