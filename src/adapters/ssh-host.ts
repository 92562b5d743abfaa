// Another machine's flower-pty, reached the way a person reaches the machine: OpenSSH's own `ssh` client,
// with the person's agent, keys and ~/.ssh/config (aliases, ProxyJump, ControlMaster). flower-pty adds no
// key, daemon or port of its own: nothing of it listens on the network, and a host is as reachable as
// `ssh HOST` makes it. BatchMode: a command that asks a password or a host key question would hang a
// listing (a person answers those once with plain ssh). ConnectTimeout bounds the TCP connect and the
// banner exchange (a host that accepts and never speaks); our own deadline bounds the rest.
// FLOWER_PTY_SSH_CONFIG names an ssh config file passed as -F (the tests use it; it never touches ~/.ssh).

import { spawn, type ChildProcess } from 'node:child_process';
import { EXIT, FlowerError } from '../core/errors.js';
import { hostNameProblem } from '../core/hosts/host-name.js';
import type { HostReply } from '../core/hosts/host-answer.js';
import { shellWord } from '../core/options/shell-word.js';

/** seconds ssh waits for a host to connect and say its banner */
export const CONNECT_TIMEOUT_S = 5;
/** past the connect: what a remote `ls` or `kill` may take (a remote kill waits up to 15 s for its run) */
export const REMOTE_COMMAND_S = 20;
/** a remote's answer larger than this is not read on (a report's JSON is the largest, a few MB) */
export const REPLY_LIMIT = 64 * 1024 * 1024;

type Env = Readonly<Record<string, string | undefined>>;

/** the program the remote shell runs */
const REMOTE_PROGRAM = 'flower-pty';

/** ssh's options for every connection, then `--` and the host: nothing after `--` is read as an option */
export function sshArgs(host: string, env: Env, mode: '-T' | '-t' | '-N', extra: readonly string[] = []): string[] {
  const problem = hostNameProblem(host);
  if (problem !== null) throw new FlowerError(problem, EXIT.usage);
  const config = env['FLOWER_PTY_SSH_CONFIG'];
  return [
    mode,
    '-o',
    'BatchMode=yes',
    '-o',
    `ConnectTimeout=${CONNECT_TIMEOUT_S}`,
    ...(config ? ['-F', config] : []),
    ...extra,
    '--',
    host,
  ];
}

/** the remote command line: ssh hands it to the remote shell as one string, so each word is quoted */
export function remoteCommand(args: readonly string[]): string {
  return [REMOTE_PROGRAM, ...args].map(shellWord).join(' ');
}

/** `ssh -T HOST flower-pty ARGS`: its exit status and output, bounded in time and size; never throws */
export function runOnHost(
  host: string,
  args: readonly string[],
  env: Env,
  commandSeconds = REMOTE_COMMAND_S,
  replyLimit = REPLY_LIMIT,
): Promise<HostReply> {
  const waitedSeconds = CONNECT_TIMEOUT_S + commandSeconds;
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn('ssh', [...sshArgs(host, env, '-T'), remoteCommand(args)], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...env } as NodeJS.ProcessEnv,
      });
    } catch (error) {
      resolve({
        code: 255,
        stdout: '',
        stderr: error instanceof Error ? error.message : String(error),
        timedOut: false,
        waitedSeconds,
      });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let over = false;
    const take = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > replyLimit) {
        over = true;
        child.kill('SIGKILL');
      } else into.push(chunk);
    };
    child.stdout!.on('data', take(out));
    child.stderr!.on('data', take(err));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, waitedSeconds * 1000);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const why =
        error.code === 'ENOENT' ? 'no ssh client on this machine (install OpenSSH: openssh-client)' : error.message;
      resolve({ code: 255, stdout: '', stderr: why, timedOut: false, waitedSeconds });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
        waitedSeconds,
        ...(over ? { overLimit: replyLimit } : {}),
      });
    });
  });
}

/** `ssh -t HOST flower-pty ARGS` on this terminal (attach): ssh forwards the keys, the output and the
 * window's size (SIGWINCH) both ways; resolves with its exit status (255: ssh itself failed) */
export function runOnHostInTerminal(host: string, args: readonly string[], env: Env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('ssh', [...sshArgs(host, env, '-t'), remoteCommand(args)], {
      stdio: 'inherit',
      env: { ...env } as NodeJS.ProcessEnv,
    });
    // the keys go to ssh (the terminal is its): a C-c is the remote attach's to read, not ours
    const ignore = (): void => {};
    process.on('SIGINT', ignore);
    child.on('error', () => resolve(255));
    child.on('close', (code, signal) => {
      process.off('SIGINT', ignore);
      resolve(code ?? (signal === null ? 255 : 128 + 15));
    });
  });
}

/** seconds between ssh's keep-alives on a forward: a host that vanished ends its forward within three */
const ALIVE_S = 15;

/** what a forward's session runs on the host: it reads its input until the end, which comes when this
 * process is gone (its end of the pipe closes, by exit or by SIGKILL), and then the session and ssh end */
export const FORWARD_LIFELINE = 'cat >/dev/null';

/** `ssh -L LOCAL:REMOTE HOST 'cat >/dev/null'`: a unix socket here forwarded to one on the host (a run's
 * socket) for as long as the child lives; the caller ends it. Not `-N`: an `ssh -N` reads nothing and
 * outlives a SIGKILLed parent; this one's standard input is a pipe from this process, whose end (this
 * process gone, however) ends the session on the host and so ssh itself (docs/hosts.md). */
export function forwardSocket(host: string, localSocket: string, remoteSocket: string, env: Env): ChildProcess {
  const forward = [
    '-o',
    'ExitOnForwardFailure=yes',
    '-o',
    'StreamLocalBindUnlink=yes',
    '-o',
    `ServerAliveInterval=${ALIVE_S}`,
    '-o',
    'ServerAliveCountMax=3',
    '-L',
    `${localSocket}:${remoteSocket}`,
  ];
  return spawn('ssh', [...sshArgs(host, env, '-T', forward), FORWARD_LIFELINE], {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...env } as NodeJS.ProcessEnv,
  });
}
