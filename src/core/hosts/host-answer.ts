// What a remote flower-pty's answer means: ssh's exit status, its standard output and the last words
// of its standard error, read into the host's runs or one line that says what went wrong there
// (unreachable, no flower-pty, an older one, garbage). Pure: the adapter runs ssh and hands the reply in.

import { oneLine } from '../one-line.js';
import type { RunSummary } from '../server/run-list.js';
import { terminalText } from '../terminal-text.js';
import { RUN_ID_RE } from './host-name.js';
import {
  count,
  finite,
  flag,
  listOf,
  matching,
  oneOf,
  optional,
  orNull,
  readRemote,
  record,
  text,
  type Shape,
} from './remote-value.js';
import type { StatusView } from '../screen/status.js';

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
  /** ended because it said more than this many bytes (absent: it did not) */
  overLimit?: number;
}

/** the most bytes a host's `ls` answer may hold: MAX_HOST_RUNS runs of a few hundred bytes, and room */
export const LS_REPLY_LIMIT = 16 * 1024 * 1024;

/** the most runs one host's answer may list: more is not a person's machine, and each would cost a row */
export const MAX_HOST_RUNS = 10_000;

/** ssh's own failure: it could not connect, authenticate or start the command */
export const SSH_FAILED = 255;

/** the remote ls the hosts run: its answer carries the wire version, so an older flower-pty is told apart */
export const REMOTE_LS_ARGS = ['ls', '--json', '--wire-version'] as const;

export type HostAnswer<R> =
  | { host: string; wire: number; runs: R[]; raw: Record<string, unknown> }
  | { host: string; problem: string };

/** the last non-empty line of ssh's or the remote's standard error, shown safely */
function lastWords(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => oneLine(l))
    .filter((l) => l !== '');
  return lines.length === 0 ? '' : terminalText(oneLine(lines.at(-1)!, 200));
}

/**
 * Why a command on `host` did not do its part, or null when ssh reached it and the remote command ran (its
 * own exit status is then the caller's to read). The cases every remote command shares.
 */
export function hostFailure(host: string, reply: HostReply): string | null {
  const name = terminalText(host);
  if (reply.overLimit !== undefined)
    return `${name}: answered with more than ${Math.round(reply.overLimit / 1048576)} MB, more than flower-pty sends; not read`;
  if (reply.timedOut)
    return `${name}: no answer within ${reply.waitedSeconds} s (the host or its network hangs); check it with ssh ${name}`;
  const words = lastWords(reply.stderr);
  if (reply.code === SSH_FAILED)
    return `${name}: unreachable over ssh${words === '' ? '' : ` (${words})`}; check it with ssh ${name}`;
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
export function readHostLs<R extends RunSummary = RunSummary>(
  host: string,
  reply: HostReply,
  ourWire: number,
): HostAnswer<R> {
  const failure = hostFailure(host, reply);
  if (failure !== null) return { host, problem: failure };
  const name = terminalText(host);
  if (reply.code !== 0) {
    if (/wire-version/.test(reply.stderr)) return { host, problem: olderLine(host) };
    const words = lastWords(reply.stderr);
    return {
      host,
      problem: `${name}: flower-pty ls failed there (exit ${reply.code})${words === '' ? '' : `: ${words}`}`,
    };
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
  if (typeof wire !== 'number' || !Number.isSafeInteger(wire) || !Array.isArray(raw['runs']))
    return { host, problem: garbage };
  if (wire !== ourWire) {
    const older = wire < ourWire ? 'there' : 'here';
    return {
      host,
      problem: `${name}: its flower-pty speaks wire version ${wire}, this one ${ourWire}: update the one ${older} so both are the same version`,
    };
  }
  // each run rebuilt from the fields flower-pty reads: whatever else the host sent (a field 200,000 deep, a
  // key of its own) goes no further than this
  const read = readRemote(RUNS, raw['runs']);
  if ('problem' in read)
    return {
      host,
      problem: `${name}: answered with something that is not flower-pty's list of runs: runs${terminalText(read.problem)}`,
    };
  const runs = read.value as unknown as R[];
  return { host, wire, runs, raw: { wire, runs } };
}

// A remote run's status as the dashboard and the table read it.
const LINE = 4096;
const STATUS: Shape<StatusView> = record<StatusView>({
  phase: oneOf(['starting', 'working', 'near', 'writing', 'review', 'respawning', 'stopped'] as const),
  context: finite,
  window: finite,
  at: finite,
  warnAt: finite,
  generation: finite,
  maxGenerations: finite,
  handoff: flag,
  reviewLeft: orNull(finite),
  held: flag,
  workbench: orNull(text(LINE)),
  documentPath: orNull(text(LINE)),
  note: text(LINE),
  attention: orNull(text(LINE)),
  deadEnds: optional(orNull(text(LINE))),
  coverage: optional(orNull(text(LINE))),
});

const runId = matching(RUN_ID_RE, 'a run id (lowercase letters and digits)');

/** the fields of a run that this machine reads (RunSummary, the rest of the wire's RunInfo, the socket), each of its type */
const RUN = record<RunSummary & { step?: string; watchers?: number; socket?: string }>({
  id: runId,
  pid: finite,
  cwd: text(LINE),
  workbench: orNull(text(LINE)),
  phase: text(64),
  generation: finite,
  context: finite,
  window: finite,
  clients: count,
  started: text(64),
  status: optional(orNull(STATUS)),
  step: optional(text(LINE)),
  watchers: optional(count),
  socket: optional(text(LINE)),
});
const RUNS = listOf(RUN, MAX_HOST_RUNS);

/** a run socket's path on a host that `ssh -L LOCAL:REMOTE` can be given as it is: absolute, a socket's name,
 * nothing ssh would split (a colon) and nothing a line would hide (a space, a control character) */
export function forwardableSocket(path: unknown): path is string {
  return (
    typeof path === 'string' && /^\/[^:\s\u0000-\u001f\u007f]*\.sock$/.test(path) && !path.split('/').includes('..')
  );
}
