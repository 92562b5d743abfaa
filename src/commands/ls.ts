// `flower-pty ls [--json]`: this user's live runs on this machine, as a table or one JSON array.
// Asking lists them and sweeps the sockets whose server is gone. With `--host NAME` (or `--all-hosts`) the
// runs of other machines too, each asked over ssh at once, in one table with a HOST column; a host that
// cannot answer is one line under it and holds back none of the others.

import { LOCAL_HOST, runTable } from '../core/server/run-list.js';
import { EXIT, FlowerError } from '../core/errors.js';
import { chooseHosts } from '../core/hosts/host-name.js';
import { terminalText } from '../core/terminal-text.js';
import { listRuns } from '../server/run-registry.js';
import { openSocketDir } from '../server/socket-dir.js';
import { WIRE_VERSION } from '../server/wire.js';

export interface LsOptions {
  json: boolean;
  /** --wire-version: with --json, one object {wire, runs} (what a host is asked) */
  wireVersion?: boolean;
  /** --host, each given */
  hosts?: readonly string[];
  /** --all-hosts: this machine and every host of the user's config */
  allHosts?: boolean;
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
}

export async function runLs(opts: LsOptions): Promise<number> {
  if ((opts.hosts?.length ?? 0) > 0 || opts.allHosts) return runLsHosts(opts);
  const { runs, silent } = await listRuns(await openSocketDir(opts.env));
  if (opts.json) {
    opts.out(JSON.stringify(opts.wireVersion ? { wire: WIRE_VERSION, runs } : runs));
    return 0;
  }
  if (runs.length === 0) opts.out('no live runs');
  else for (const line of runTable(runs)) opts.out(line);
  for (const s of silent) opts.out(`(not listed: ${terminalText(s.socket)}: ${terminalText(s.reason)})`);
  return 0;
}

async function runLsHosts(opts: LsOptions): Promise<number> {
  const { configuredHosts } = await import('../adapters/config-file.js');
  const chosen = chooseHosts(opts.hosts ?? [], opts.allHosts ? configuredHosts(opts.env) : [], opts.allHosts ?? false);
  if ('problem' in chosen) throw new FlowerError(chosen.problem, EXIT.usage);
  const { askHosts } = await import('../server/host-ls.js');
  // the hosts first: ssh's start is the long part, this machine's listing is read meanwhile
  const asked = askHosts(chosen.hosts, opts.env);
  const local = opts.allHosts ? await listRuns(await openSocketDir(opts.env)) : null;
  const remote = await asked;
  if (opts.json) {
    const objects: object[] = [
      ...(local === null ? [] : [{ host: null, wire: WIRE_VERSION, runs: local.runs }]),
      // only what was read of each host (its wire and its runs, rebuilt field by field): nothing a host added
      ...remote.map((a) =>
        'problem' in a ? { host: a.host, error: a.problem } : { host: a.host, wire: a.wire, runs: a.runs },
      ),
    ];
    opts.out(JSON.stringify(objects));
    return unreachable(remote);
  }
  const rows = [
    ...(local?.runs ?? []).map((r) => ({ ...r, host: LOCAL_HOST })),
    ...remote.flatMap((a) => ('problem' in a ? [] : a.runs.map((r) => ({ ...r, host: a.host })))),
  ];
  if (rows.length === 0) opts.out('no live runs');
  else for (const line of runTable(rows, true)) opts.out(line);
  for (const s of local?.silent ?? []) opts.out(`(not listed: ${terminalText(s.socket)}: ${terminalText(s.reason)})`);
  for (const a of remote) if ('problem' in a) opts.out(`(${a.problem})`);
  return unreachable(remote);
}

/** a host that could not answer: exit 2 after the others are listed, as attach, kill and report exit */
function unreachable(remote: ReadonlyArray<object>): number {
  return remote.some((a) => 'problem' in a) ? EXIT.usage : EXIT.ok;
}
