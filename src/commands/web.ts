// `flower-pty web [--listen HOST:PORT] [--allow-input] [-d]`: every live run of this user in a browser.
// The web server is a client of the run servers (src/web/): stopping or restarting it never touches a
// run. It prints a login URL on its first line (a QR code of it below when stdout is a terminal);
// `-d` starts it in the background, prints the same and exits; `--login` prints a new login URL for
// the one already running, `--stop` ends it. One web server per user: a second is refused.

import { spawn } from 'node:child_process';
import { openSync, closeSync, createWriteStream, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { createSecureContext } from 'node:tls';
import { readBounded, ReadRefused } from '../adapters/bounded-read.js';
import type { Readable } from 'node:stream';
import { renderUnicodeCompact } from 'uqr';
import { phoneReach } from '../core/web/web-reach.js';
import { EXIT, FlowerError } from '../core/errors.js';
import { baseUrl, bindProblem, parseListen, DEFAULT_WEB_HOST, DEFAULT_WEB_PORT } from '../core/web/web-listen.js';
import { openSocketDir } from '../server/socket-dir.js';
import { openLog } from '../adapters/log-file.js';
import { claimWeb, openWebDir, runningWeb, updateClaim, webSteps, type WebDir } from '../web/web-dir.js';
import { ownCommandHere } from '../adapters/own-command-here.js';
import { issueToken, openSessions } from '../web/token-store.js';
import { followRuns, runKey, type FollowedRun } from '../web/run-follower.js';
import { hostReportModel, reportModel } from './report.js';
import { followHosts } from '../web/host-fleet.js';
import { configuredHosts } from '../adapters/config-file.js';
import { join } from 'node:path';
import type { ReportModel } from '../core/report/report-model.js';
import { createWebServer } from '../web/http-server.js';
import { sayErr } from '../adapters/terminal-lines.js';
import { processAlive } from '../adapters/process-alive.js';

const BIN = fileURLToPath(new URL('../../bin/flower-pty.js', import.meta.url));
const START_TIMEOUT_MS = 15_000;
/** a web face closes its connections and its claim within a second; a loaded machine gets ten */
const STOP_TIMEOUT_MS = 10_000;

export interface WebOptions {
  listen: string | undefined;
  allowInput: boolean;
  detach: boolean;
  login: boolean;
  /** end the web face of this user that is running (started with -d, or in another terminal) */
  stop: boolean;
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  behindProxy: boolean;
  publicHost: string[];
  /** internal: the background server writes its login line to fd 3 for the `-d` that started it */
  readyPipe: boolean;
  argv: string[];
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  isTTY: boolean;
}

const loginUrl = (base: string, token: string) => `${base}/login#${token}`;

function printLogin(o: WebOptions, url: string): void {
  o.out(url);
  if (!o.isTTY) return;
  // a QR code only of an address a phone can open; for a loopback one, how to reach it instead
  const reach = phoneReach(url);
  o.out(reach === null ? renderUnicodeCompact(url, { border: 1 }) : reach);
}

export async function runWeb(o: WebOptions): Promise<number> {
  if (o.stop) return stopWeb(o, openWebDir(await openSocketDir(o.env)));
  const listen = parseListen(o.listen ?? `${DEFAULT_WEB_HOST}:${DEFAULT_WEB_PORT}`);
  if ('problem' in listen) throw new FlowerError(listen.problem);
  if ((o.tlsCert === undefined) !== (o.tlsKey === undefined))
    throw new FlowerError('--tls-cert and --tls-key go together: give both files (PEM), or neither');
  const tls =
    o.tlsCert !== undefined && o.tlsKey !== undefined
      ? { cert: readPem(o.tlsCert, '--tls-cert'), key: readPem(o.tlsKey, '--tls-key') }
      : null;
  if (tls) checkPair(tls, o.tlsCert!, o.tlsKey!);
  const problem = bindProblem(listen.host, { tls: tls !== null, behindProxy: o.behindProxy });
  if (problem) throw new FlowerError(problem);
  const paths = openWebDir(await openSocketDir(o.env));

  if (o.login) {
    const running = runningWeb(paths);
    if (!running)
      throw new FlowerError(
        `no web face of yours is running: start one with ${ownCommandHere(process.env, process.cwd())} web (or with web -d)`,
      );
    printLogin(o, loginUrl(running.url, issueToken(paths.tokens)));
    return EXIT.ok;
  }
  const running = runningWeb(paths);
  if (running)
    throw new FlowerError(`a web face of yours is already running (pid ${running.pid}, ${running.url}); ${webSteps()}`);
  if (o.detach) return detach(o, paths);
  return serveWeb(o, paths, listen, tls);
}

// A PEM certificate chain or key is a few KB; 1 MiB leaves room for a long chain.
const PEM_LIMIT = 1024 * 1024;

function readPem(path: string, flag: string): Buffer {
  try {
    return readBounded(path, PEM_LIMIT);
  } catch (error) {
    if (error instanceof ReadRefused) throw new FlowerError(`${flag} ${path}: ${error.why}; give a PEM file`);
    throw new FlowerError(
      `${flag} ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

// A file that reads but is no PEM, or a key that is not the certificate's: said now, in one line,
// rather than as the TLS library's stack when the server is made.
function checkPair(tls: { cert: Buffer; key: Buffer }, certPath: string, keyPath: string): void {
  try {
    createSecureContext({ cert: tls.cert, key: tls.key });
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new FlowerError(
      `--tls-cert ${certPath} --tls-key ${keyPath}: not a usable certificate and its key (${why}); give both as PEM files`,
    );
  }
}

// The foreground server: claim the folder, listen, print the login URL, serve until TERM or INT.
async function serveWeb(
  o: WebOptions,
  paths: WebDir,
  listen: { host: string; port: number },
  tls: { cert: Buffer; key: Buffer } | null,
): Promise<number> {
  closeSync(openSync(paths.log, 'a', 0o600)); // the log is made 0600 before anything is written to it
  const log = openLog(paths.log);
  const release = claimWeb(paths, { pid: process.pid, url: '', allowInput: o.allowInput });
  const socketDir = await openSocketDir(o.env);
  // the user's configured hosts beside this machine's runs, each run through an ssh forward of its socket
  const hosts = configuredHosts(o.env);
  const fleet = followHosts(followRuns(socketDir), hosts, join(paths.dir, 'hosts'), o.env);
  const follower = fleet.follower;
  const rules = { listenHost: listen.host, port: listen.port, publicHosts: o.publicHost };
  // A run's lineage as `flower-pty report` reads it, from the run's own workbench: every transcript is
  // streamed, so what each run page asks for is read once per generation and phase (a handoff, a review
  // changes it), shared by the pages; the live report page is read each time it is opened.
  const lineages = new Map<string, { key: string; model: Promise<ReportModel> }>();
  const report = (run: FollowedRun, ask: { fresh: boolean }): Promise<ReportModel> => {
    if (!run.workbench) throw new FlowerError('this run keeps no workbench (--no-workbench), so no lineage on disk');
    const key = `${run.generation} ${run.phase}`;
    // by host and id: two hosts' runs may have the same id
    const kept = lineages.get(runKey(run));
    if (!ask.fresh && kept?.key === key) return kept.model;
    const model =
      run.host !== undefined
        ? hostReportModel(run.host, run.workbench, o.env)
        : reportModel({ workbench: run.workbench, cwd: run.cwd, env: o.env });
    lineages.set(runKey(run), { key, model });
    // A read made while the run's newest generation was not on disk yet (the status said so first) is not
    // kept: the next page that asks reads again.
    const forget = () => lineages.get(runKey(run))?.model === model && lineages.delete(runKey(run));
    model.then((m) => m.generations.length < run.generation && forget(), forget);
    return model;
  };
  follower.onChange((before, after) => {
    if (before && !after) lineages.delete(runKey(before));
  });
  const web = createWebServer({
    rules,
    tls,
    behindProxy: o.behindProxy,
    allowInput: o.allowInput,
    sessions: openSessions(paths.tokens),
    follower,
    hosts: fleet,
    report,
    log: log.write,
  });
  const server = web.server;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(listen.port, listen.host, () => resolve());
    });
  } catch (error) {
    fleet.close();
    release();
    const code = (error as NodeJS.ErrnoException).code;
    throw new FlowerError(
      `cannot listen on ${listen.host}:${listen.port} (${code ?? String(error)})${code === 'EADDRINUSE' ? '; choose another with --listen HOST:PORT' : ''}`,
    );
  }
  rules.port = (server.address() as AddressInfo).port;
  const base = baseUrl({ host: listen.host, port: rules.port }, tls !== null, o.publicHost[0] ?? null);
  updateClaim(paths, { pid: process.pid, url: base, allowInput: o.allowInput });
  log.write(`listening on ${base} (${o.allowInput ? 'input allowed' : 'read-only'})`);
  const url = loginUrl(base, issueToken(paths.tokens));
  if (o.readyPipe) {
    const pipe = createWriteStream('', { fd: 3 });
    pipe.on('error', () => undefined);
    pipe.end(url + '\n');
  } else {
    printLogin(o, url);
    sayErr(
      `flower-pty: the web face of your runs (${o.allowInput ? 'input allowed' : 'read-only: --allow-input to type, approve, edit or end'}); ` +
        `the login URL works once, for 10 minutes; ${ownCommandHere(process.env, process.cwd())} web --login prints another; Ctrl-C stops it (the runs go on)`,
    );
  }
  const stopped = await new Promise<NodeJS.Signals>((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => resolve(sig));
  });
  log.write(`stopped by ${stopped}`);
  fleet.close();
  await web.close();
  release();
  return EXIT.ok;
}

// -d: the same server in the background (its own session, no terminal, its output to the log);
// this process waits for its login line, prints it, and exits.
async function detach(o: WebOptions, paths: WebDir): Promise<number> {
  const args = o.argv.filter((a) => a !== '-d' && a !== '--detach');
  const logFd = openSync(paths.log, 'a', 0o600);
  const child = spawn(process.execPath, [BIN, ...args, '--ready-pipe'], {
    detached: true,
    stdio: ['ignore', logFd, logFd, 'pipe'],
    env: o.env,
  });
  closeSync(logFd);
  const line = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () =>
        reject(
          new FlowerError(
            `the web face did not start within ${START_TIMEOUT_MS / 1000} s; its log: ${paths.log}`,
            EXIT.internal,
          ),
        ),
      START_TIMEOUT_MS,
    );
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(text.slice(0, text.indexOf('\n')));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new FlowerError(
          `the web face exited (code ${code}) before it was ready; its log: ${paths.log}`,
          code && code > 1 ? code : EXIT.internal,
        ),
      );
    });
  });
  (child.stdio[3] as Readable).destroy();
  child.unref();
  printLogin(o, line);
  sayErr(
    `flower-pty: the web face runs in the background (pid ${child.pid}); its log: ${paths.log}; ${webSteps()} (the runs go on)`,
  );
  return EXIT.ok;
}

// --stop: the claim names the pid; it is asked to end (SIGTERM: it closes its pages and gives its claim
// back, server.json) and waited for. A pid the claim names that is no web face of flower-pty's (the
// server was killed outright and the number reused) is not signalled.
async function stopWeb(o: WebOptions, paths: WebDir): Promise<number> {
  const running = runningWeb(paths);
  if (running === null || !isWebFace(running.pid)) {
    o.out('no web face of yours is running');
    return EXIT.ok;
  }
  try {
    process.kill(running.pid, 'SIGTERM');
  } catch {
    // gone in between: what was asked
  }
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (processAlive(running.pid)) {
    if (Date.now() > deadline)
      throw new FlowerError(
        `the web face (pid ${running.pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s; kill ${running.pid} ends it less cleanly`,
        EXIT.notEnded,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  o.out(`stopped the web face (pid ${running.pid}, ${running.url}); the runs go on`);
  return EXIT.ok;
}

/** the process is flower-pty's web face, where the system says (Linux's /proc); elsewhere the claim is taken at its word */
function isWebFace(pid: number): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return args.includes('web') && args.some((a) => a.endsWith('flower-pty.js') || a.endsWith('main.js'));
  } catch {
    return true;
  }
}
