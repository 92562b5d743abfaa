// The web face's own folder, <socket dir>/web/ (0700, inside the socket folder that is already ours
// alone): the login tokens (hashed, 0600), the running server's address and pid (0600), its log.
// Another local user can open none of it; a second web server for the same user is refused here.

import { openSync, closeSync, writeSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FlowerError } from '../core/errors.js';
import { processAlive } from '../adapters/process-alive.js';
import { ownCommandHere } from '../adapters/own-command-here.js';
import { openPrivateDir, type PrivateDirPolicy } from '../adapters/private-dir.js';

export interface WebDir {
  dir: string;
  tokens: string;
  state: string;
  log: string;
}

export function webDirPaths(socketDir: string): WebDir {
  const dir = join(socketDir, 'web');
  return { dir, tokens: join(dir, 'tokens.json'), state: join(dir, 'server.json'), log: join(dir, 'web.log') };
}

export function openWebDir(socketDir: string): WebDir {
  const paths = webDirPaths(socketDir);
  let problem;
  try {
    problem = openPrivateDir(paths.dir, WEB_DIR);
  } catch (error) {
    throw new FlowerError(`cannot create ${paths.dir} (${(error as NodeJS.ErrnoException).code})`);
  }
  if (problem) throw new FlowerError(`refusing ${paths.dir}: not a folder of yours; remove it and run again`);
  return paths;
}

// Inside the socket folder, already ours alone: made there only, a real folder of ours, closed to others.
const WEB_DIR: PrivateDirPolicy = { parents: false, onlyAFolder: true, guarded: 0o077, whenOpen: 'narrow' };

/** how to reach the web face already running, each step typed as it works here (core/options/own-command.ts) */
export function webSteps(): string {
  const own = ownCommandHere(process.env, process.cwd());
  return `${own} web --login prints a new login URL for it, ${own} web --stop stops it`;
}

export interface WebState {
  pid: number;
  url: string;
  allowInput: boolean;
}

/** the web server of this user that is running now, if any */
export function runningWeb(paths: WebDir): WebState | null {
  try {
    const state = JSON.parse(readFileSync(paths.state, 'utf8')) as WebState;
    return Number.isInteger(state.pid) && processAlive(state.pid) ? state : null;
  } catch {
    return null;
  }
}

// Claims the folder for this server: refused while another one of this user's is alive; a stale
// claim (its pid gone) is taken over. The file is made with O_EXCL, 0600, so two starting at once
// cannot both win.
export function claimWeb(paths: WebDir, state: WebState): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(paths.state, 'wx', 0o600);
      writeSync(fd, JSON.stringify(state) + '\n');
      closeSync(fd);
      return () => rmSync(paths.state, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const other = runningWeb(paths);
      if (other && other.pid !== process.pid)
        throw new FlowerError(`a web face of yours is already running (pid ${other.pid}, ${other.url}); ${webSteps()}`);
      rmSync(paths.state, { force: true });
    }
  }
  throw new FlowerError(`cannot claim ${paths.state}; remove it and run again`);
}

/** rewrites the claim with the address once it is known (still 0600, still this pid) */
export function updateClaim(paths: WebDir, state: WebState): void {
  const fd = openSync(paths.state, 'w', 0o600);
  writeSync(fd, JSON.stringify(state) + '\n');
  closeSync(fd);
}
