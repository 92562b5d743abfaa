// The per-user socket directory and the run sockets in it: created 0700, checked before every use,
// and sockets made 0600 before anyone can find them. This directory is the only barrier between users.
//
// Why the directory and the modes carry the whole weight: Node has no SO_PEERCRED (nor getpeereid),
// so a server cannot ask who connected. Instead nobody else can connect at all: connect(2) on a unix
// socket needs search permission on every directory of the path and write permission on the socket,
// so a 0700 directory owned by us plus a 0600 socket refuse every other user (root excepted, as for
// any file). The directory is checked with lstat on every open, so a directory someone else planted
// (another owner, group/world bits, a symlink to somewhere they control) is refused, never used.

import { chmod, link, unlink, readdir } from 'node:fs/promises';
import { unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Server } from 'node:net';
import { FlowerError } from '../core/errors.js';
import { openPrivateDir, privateDirProblem, type PrivateDirPolicy } from '../adapters/private-dir.js';

// sun_path is 108 bytes on Linux and 104 on macOS, with its terminating NUL
const MAX_SOCKET_PATH_BYTES = 103;
const SOCKET_SUFFIX = '.sock';

function currentUid(): number {
  if (typeof process.getuid !== 'function')
    throw new FlowerError('the run server needs unix sockets and user ids; this platform has neither');
  return process.getuid();
}

// Where the sockets live: $XDG_RUNTIME_DIR/flower-pty/ (per user, on tmpfs, cleared at logout), else
// <tmpdir>/flower-pty-<uid>/. A relative XDG_RUNTIME_DIR is ignored, as the XDG spec says to.
export function socketDirPath(
  env: NodeJS.ProcessEnv = process.env,
  uid: number = currentUid(),
  tmp: string = tmpdir(),
): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolute(runtime)) return join(runtime, 'flower-pty');
  return join(tmp, `flower-pty-${uid}`);
}

// The socket folder's policy: only this one folder is made (the runtime or temp folder above it must be
// there), a link or a file in its place is refused, and so is any bit of access for another user: it is
// not narrowed, because a folder we did not make so may already have been used by someone else.
const SOCKET_DIR: PrivateDirPolicy = { parents: false, onlyAFolder: true, guarded: 0o077, whenOpen: 'refuse' };

// What is wrong with an existing socket directory, or null when it is safe to use.
export async function socketDirProblem(dir: string, uid: number = currentUid()): Promise<string | null> {
  return privateDirProblem(dir, SOCKET_DIR, uid)?.words ?? null;
}

// Creates the socket directory if it is missing (0700) and checks it; a directory that is not ours
// alone is refused with one line naming the path and the fix. Returns the directory.
export async function openSocketDir(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const dir = socketDirPath(env, currentUid());
  let problem: string | null;
  try {
    problem = openPrivateDir(dir, SOCKET_DIR)?.words ?? null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FlowerError(
      `cannot create the socket directory ${dir} (${code ?? String(error)}); check $XDG_RUNTIME_DIR or the temp directory`,
      undefined,
      { cause: error },
    );
  }
  if (problem) {
    // in a sticky /tmp a folder another user made cannot be removed by us: a folder of our own is the way out
    throw new FlowerError(
      `refusing the socket directory ${dir}: it is ${problem}; if you did not make it, remove it (rm -rf '${dir}') or set XDG_RUNTIME_DIR (or TMPDIR) to a folder of your own, and run again`,
    );
  }
  return dir;
}

// A run's socket path: <dir>/<id>.sock.
export function socketPath(dir: string, id: string): string {
  return join(dir, id + SOCKET_SUFFIX);
}

// The run id a socket file name stands for, or null for any other file (temp names included).
export function socketId(name: string): string | null {
  return /^[a-z0-9]{1,32}\.sock$/.test(name) ? name.slice(0, -SOCKET_SUFFIX.length) : null;
}

// The socket a run must be on without asking any server: the id's own (a known id picks it alone, as pickRun
// does), or, with no id, the one socket in `dir` (the only run is the one meant, whatever its folder). Null
// when only the runs' answers can tell (several sockets, none at all, or an id that is not a run id's shape).
export async function certainSocket(dir: string, id: string | undefined): Promise<string | null> {
  if (id !== undefined) return socketId(`${id}.sock`) === id ? socketPath(dir, id) : null;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  const sockets = names.filter((n) => socketId(n) !== null);
  return sockets.length === 1 ? join(dir, sockets[0]!) : null;
}

// The pid of the process that listened on a temp socket name (see listenPrivate), or null.
export function tempSocketPid(name: string): number | null {
  const m = /^\.[a-z0-9]{1,32}\.(\d+)\.tmp$/.exec(name);
  return m ? Number(m[1]) : null;
}

// A socket made 0600: for a server that listened some other way.
export async function restrictSocket(path: string): Promise<void> {
  await chmod(path, 0o600);
}

// Makes `server` listen on <dir>/<id>.sock, 0600 from the moment the name exists, and removes that
// name when the server closes. Returns the path.
//
// How: listen on a hidden temp name, chmod it 0600, then hard-link it to the real name and drop the
// temp name. Setting the umask around listen() would also work, but the umask is process-wide and a
// file the libuv thread pool creates meanwhile would get it too; link(2) also refuses to replace an
// existing socket (EEXIST), where rename(2) would silently steal a live run's name. Between listen and
// chmod the temp socket is reachable only through our 0700 directory, and `ls` ignores temp names.
export async function listenPrivate(server: Server, dir: string, id: string): Promise<string> {
  const path = socketPath(dir, id);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new FlowerError(
      `the socket path ${path} is longer than unix sockets allow (${MAX_SOCKET_PATH_BYTES} bytes); set XDG_RUNTIME_DIR or TMPDIR to a shorter directory`,
    );
  }
  const temp = join(dir, `.${id}.${process.pid}.tmp`); // tempSocketPid reads this name
  await unlink(temp).catch(() => undefined); // a temp left by a SIGKILLed process of the same pid
  await new Promise<void>((resolveListen, rejectListen) => {
    const onError = (error: Error): void => rejectListen(error);
    server.once('error', onError);
    server.listen(temp, () => {
      server.off('error', onError);
      resolveListen();
    });
  });
  try {
    await chmod(temp, 0o600);
    await link(temp, path);
  } catch (error) {
    server.close();
    await unlink(temp).catch(() => undefined);
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new FlowerError(`a run with id ${id} already has a socket (${path})`, undefined, { cause: error });
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  // libuv unlinks only the name it listened on (the temp one, gone by now): the real name is ours to remove
  server.once('close', () => {
    try {
      unlinkSync(path);
    } catch {
      // already gone: a stale-socket sweep or a person got there first
    }
  });
  return path;
}
