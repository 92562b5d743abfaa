// A run on another machine, named `HOST:ID`: what attach, kill and report do with one. Each is the remote
// flower-pty's own command run over ssh (adapters/ssh-host.ts), so its words and exit codes are the local
// command's; what only the connection can get wrong (unreachable, no flower-pty, an older one) is one line,
// exit 2 in every command (ls, attach, kill, report): the host named cannot be used as it is.

import { EXIT, FlowerError } from '../core/errors.js';
import { parseHostTarget, type HostTarget } from '../core/hosts/host-name.js';
import { hostFailure, SSH_FAILED, type HostReply } from '../core/hosts/host-answer.js';
import { sayErr } from '../adapters/terminal-lines.js';
import { ownCommandHere } from '../adapters/own-command-here.js';
import { terminalText } from '../core/terminal-text.js';
import type { LiveRun } from '../server/run-registry.js';

/** `HOST:ID` read, null for a local id; a bad host or id is a one-line error */
export function hostTarget(id: string | undefined): HostTarget | null {
  if (id === undefined) return null;
  const target = parseHostTarget(id);
  if (target !== null && 'problem' in target) throw new FlowerError(target.problem, EXIT.usage);
  return target;
}

/** the run `target` names, as its host lists it (after that host's own checks: reachable, same version) */
export async function hostRun(target: HostTarget, env: NodeJS.ProcessEnv): Promise<LiveRun> {
  const { askHosts } = await import('../server/host-ls.js');
  const [answer] = await askHosts([target.host], env);
  if (answer === undefined) throw new FlowerError(`${terminalText(target.host)}: no answer`, EXIT.internal);
  if ('problem' in answer) throw new FlowerError(answer.problem, EXIT.usage);
  const run = answer.runs.find((r) => r.id === target.id);
  if (run === undefined) {
    const list = answer.runs.map((r) => terminalText(r.id)).join(', ');
    throw new FlowerError(
      `no live run on ${terminalText(target.host)} has id ${terminalText(target.id)}${list === '' ? ': no run is live there' : `; live runs there: ${list}`} ` +
        `(${ownCommandHere(env, process.cwd())} ls --host ${terminalText(target.host)})`,
      EXIT.usage,
    );
  }
  return run;
}

/** the remote command's own output relayed, and its exit code; a failure of the connection is one line */
function relay(host: string, reply: HostReply, out: (line: string) => void): number {
  const failure = hostFailure(host, reply);
  if (failure !== null) throw new FlowerError(failure, EXIT.usage);
  for (const line of reply.stdout.split('\n')) if (line !== '') out(terminalText(line));
  // the remote's own error line ("flower-pty: ...") is its command's word: said again as it was
  for (const line of reply.stderr.split('\n')) if (line !== '') sayErr(line);
  return reply.code ?? EXIT.internal;
}

/** `kill HOST:ID`: the host's `flower-pty kill ID` */
export async function killOnHost(
  target: HostTarget,
  env: NodeJS.ProcessEnv,
  out: (line: string) => void,
): Promise<number> {
  const { runOnHost } = await import('../adapters/ssh-host.js');
  // a host that cannot be reached is the same code as in ls, attach and report, not "the run did not end"
  return relay(target.host, await runOnHost(target.host, ['kill', target.id], env), out);
}

/** `attach HOST:ID`: the host's `flower-pty attach ID` on this terminal through `ssh -t` */
export async function attachOnHost(
  target: HostTarget,
  o: { plain: boolean; detachKey: string | undefined },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { runOnHostInTerminal } = await import('../adapters/ssh-host.js');
  const args = [
    'attach',
    target.id,
    ...(o.plain ? ['--plain'] : []),
    ...(o.detachKey !== undefined ? ['--detach-key', o.detachKey] : []),
  ];
  const code = await runOnHostInTerminal(target.host, args, env);
  if (code === SSH_FAILED)
    throw new FlowerError(
      `${terminalText(target.host)}: unreachable over ssh (ssh said why above); check it with ssh ${terminalText(target.host)}`,
      EXIT.usage,
    );
  // no flower-pty there: the remote shell's 127
  if (code === 127)
    throw new FlowerError(
      `${terminalText(target.host)}: no flower-pty there (install it, and put it on the PATH a non-interactive ssh session gets)`,
      EXIT.usage,
    );
  return code;
}
