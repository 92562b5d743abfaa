// What a remote flower-pty's answer means: ssh's exit status, its standard output and the last words
// of its standard error, read into the host's runs or one line that says what went wrong there
// (unreachable, no flower-pty, an older one, garbage). Pure: the adapter runs ssh and hands the reply in.

import { oneLine } from '../one-line.js';
import { type RunSummary } from '../server/run-list.js';
import { terminalText } from '../terminal-text.js';
import { RUN_ID_RE } from './host-name.js';

/** what `ssh HOST flower-pty ...` gave back */
export interface HostReply {
  /** ssh's exit status (255: ssh itself failed; else the remote command's), null when it was ended */
  code: number | null;
  stdout: string;
  stderr: string;
  /** ended by our own deadline: the host never answered */
  timedOut: boolean;
  /** seconds waited before ending it */
  waitedSeconds: number;
}

/** ssh's own failure: it could not connect, authenticate or start the command */
export const SSH_FAILED = 255;

/** the remote ls the hosts run: its answer carries the wire version, so an older flower-pty is told apart */
export const REMOTE_LS_ARGS = ['ls', '--json', '--wire-version'] as const;

export type HostAnswer<R> = { host: string; wire: number; runs: R[]; raw: Record<string, unknown> } | { host: string; problem: string };

/** the last non-empty line of ssh's or the remote's standard error, shown safely */
function lastWords(stderr: string): string {
  const lines = stderr.split('\n').map((l) => oneLine(l)).filter((l) => l !== '');
  return lines.length === 0 ? '' : terminalText(oneLine(lines.at(-1)!, 200));
}

/**
 * Why a command on `host` did not do its part, or null when ssh reached it and the remote command ran (its
 * own exit status is then the caller's to read). The cases every remote command shares.
 */
export function hostFailure(host: string, reply: HostReply): string | null {
  const name = terminalText(host);
  if (reply.timedOut) return `${name}: no answer within ${reply.waitedSeconds} s (the host or its network hangs); check it with ssh ${name}`;
  const words = lastWords(reply.stderr);
  if (reply.code === SSH_FAILED) return `${name}: unreachable over ssh${words === '' ? '' : ` (${words})`}; check it with ssh ${name}`;
  if (reply.code === 127 || /flower-pty: (command )?not found|flower-pty: No such file/i.test(reply.stderr)) {
    return `${name}: no flower-pty there (install it, and put it on the PATH a non-interactive ssh session gets)`;
  }
  if (reply.code === null) return `${name}: ssh was ended before it answered`;
  return null;
}

/** the one line for an older flower-pty, which does not know the flag the wire version is asked with */
function olderLine(host: string): string {
  return `${terminalText(host)}: its flower-pty is older (it does not know ls --wire-version); update it there to this one's version`;
}

/** a host's `ls --json --wire-version`, read: its runs, or one line */
export function readHostLs<R extends RunSummary = RunSummary>(host: string, reply: HostReply, ourWire: number): HostAnswer<R> {
  const failure = hostFailure(host, reply);
  if (failure !== null) return { host, problem: failure };
  const name = terminalText(host);
  if (reply.code !== 0) {
    if (/wire-version/.test(reply.stderr)) return { host, problem: olderLine(host) };
    const words = lastWords(reply.stderr);
    return { host, problem: `${name}: flower-pty ls failed there (exit ${reply.code})${words === '' ? '' : `: ${words}`}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(reply.stdout);
  } catch {
    data = undefined;
  }
  // an older flower-pty that ignored the flag prints its runs as a bare list
  if (Array.isArray(data)) return { host, problem: olderLine(host) };
  const garbage = `${name}: answered with something that is not flower-pty's list of runs ("${terminalText(oneLine(reply.stdout, 60))}")`;
  if (typeof data !== 'object' || data === null) return { host, problem: garbage };
  const raw = data as Record<string, unknown>;
  const wire = raw['wire'];
  const runs = raw['runs'];
  if (typeof wire !== 'number' || !Number.isSafeInteger(wire) || !Array.isArray(runs) || !runs.every(isRunSummary)) return { host, problem: garbage };
  if (wire !== ourWire) {
    const older = wire < ourWire ? 'there' : 'here';
    return { host, problem: `${name}: its flower-pty speaks wire version ${wire}, this one ${ourWire}: update the one ${older} so both are the same version` };
  }
  return { host, wire, runs: runs as R[], raw };
}

// The fields the table reads, each of its type: a remote's answer is another program's output.
function isRunSummary(value: unknown): value is RunSummary {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const num = (k: string) => typeof r[k] === 'number' && Number.isFinite(r[k]);
  const str = (k: string) => typeof r[k] === 'string';
  return str('id') && RUN_ID_RE.test(r['id'] as string) && num('pid') && str('cwd') && (r['workbench'] === null || str('workbench')) && str('phase') && num('generation') && num('context') && num('window') && num('clients') && str('started');
}

/** a run socket's path on a host that `ssh -L LOCAL:REMOTE` can be given as it is: absolute, a socket's name,
 * nothing ssh would split (a colon) and nothing a line would hide (a space, a control character) */
export function forwardableSocket(path: unknown): path is string {
  return typeof path === 'string' && /^\/[^:\s\u0000-\u001f\u007f]*\.sock$/.test(path) && !path.split('/').includes('..');
}
