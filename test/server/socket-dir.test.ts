// Tests for the socket directory and private sockets: 0700 and 0600 are enforced, a planted directory
// (wrong mode, a symlink, another owner, a file) is refused with one line, sockets never clobber.
import t, { type Test } from 'tap';
import { mkdtemp, mkdir, chmod, symlink, writeFile, lstat, rm, chown, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, createConnection } from 'node:net';
import { spawnSync } from 'node:child_process';
import { FlowerError } from '../../src/core/errors.js';
import {
  certainSocket,
  listenPrivate,
  openSocketDir,
  socketDirPath,
  socketId,
  socketPath,
  socketDirProblem,
} from '../../src/server/socket-dir.js';

// a short base: a socket path must fit in 103 bytes, and the tap fixture dir is deep
async function runtimeDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fp-sd-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function connects(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

t.test('the directory: $XDG_RUNTIME_DIR/flower-pty, else <tmp>/flower-pty-<uid>', async (t) => {
  t.equal(socketDirPath({ XDG_RUNTIME_DIR: '/run/user/1000' }, 1000, '/tmp'), '/run/user/1000/flower-pty');
  t.equal(socketDirPath({}, 1000, '/tmp'), '/tmp/flower-pty-1000');
  t.equal(
    socketDirPath({ XDG_RUNTIME_DIR: 'relative/dir' }, 7, '/var/tmp'),
    '/var/tmp/flower-pty-7',
    'a relative runtime dir is ignored',
  );
  t.equal(socketPath('/d', 'a1b2c3'), '/d/a1b2c3.sock');
  t.equal(socketId('a1b2c3.sock'), 'a1b2c3');
  t.equal(socketId('.a1b2c3.123.tmp'), null, 'temp names are not runs');
  t.equal(socketId('run.lock'), null);
});

t.test('created 0700 and reused when it is ours', async (t) => {
  const runtime = await runtimeDir(t);
  const dir = await openSocketDir({ XDG_RUNTIME_DIR: runtime });
  t.equal(dir, join(runtime, 'flower-pty'));
  const st = await lstat(dir);
  t.ok(st.isDirectory());
  t.equal(st.mode & 0o777, 0o700);
  t.equal(await openSocketDir({ XDG_RUNTIME_DIR: runtime }), dir, 'the second open finds it fine');
});

t.test('a planted directory is refused with one line naming the path and the fix', async (t) => {
  const refuse = async (name: string, plant: (dir: string) => Promise<void>, why: RegExp) => {
    const runtime = await runtimeDir(t);
    const dir = join(runtime, 'flower-pty');
    await plant(dir);
    await t.rejects(openSocketDir({ XDG_RUNTIME_DIR: runtime }), FlowerError, name);
    const error = await openSocketDir({ XDG_RUNTIME_DIR: runtime }).catch((e: Error) => e);
    t.match((error as Error).message, why, name);
    t.match((error as Error).message, `refusing the socket directory ${dir}`, `${name}: names the path`);
    t.match((error as Error).message, `rm -rf '${dir}'`, `${name}: says the fix`);
    t.notMatch((error as Error).message, /\n/, `${name}: one line`);
  };
  await refuse(
    'group/world bits',
    async (dir) => {
      await mkdir(dir);
      await chmod(dir, 0o755);
    },
    /open to other users \(mode 755\)/,
  );
  await refuse(
    'group bits only',
    async (dir) => {
      await mkdir(dir);
      await chmod(dir, 0o710);
    },
    /mode 710/,
  );
  await refuse(
    'a symlink to a directory of ours',
    async (dir) => {
      const target = dir + '-real';
      await mkdir(target, { mode: 0o700 });
      await symlink(target, dir);
    },
    /a symbolic link/,
  );
  await refuse(
    'a plain file',
    async (dir) => {
      await writeFile(dir, 'x');
    },
    /not a directory/,
  );
  if (process.getuid?.() === 0) {
    await refuse(
      'another owner',
      async (dir) => {
        await mkdir(dir, { mode: 0o700 });
        await chown(dir, 65534, 65534);
      },
      /owned by uid 65534, not by you \(uid 0\)/,
    );
  } else {
    // without root we cannot give a directory away; the check itself is the same comparison
    const runtime = await runtimeDir(t);
    t.match(await socketDirProblem(runtime, (process.getuid?.() ?? 0) + 1), /owned by uid \d+, not by you/);
  }
});

t.test('a socket is 0600, reachable at <id>.sock, removed on close, never clobbered', async (t) => {
  const runtime = await runtimeDir(t);
  const dir = await openSocketDir({ XDG_RUNTIME_DIR: runtime });
  const server = createServer((s) => s.on('error', () => undefined).end());
  const path = await listenPrivate(server, dir, 'abc123');
  t.equal(path, join(dir, 'abc123.sock'));
  const st = await lstat(path);
  t.ok(st.isSocket());
  t.equal(st.mode & 0o777, 0o600);
  t.same(await readdir(dir), ['abc123.sock'], 'no temp name is left behind');
  t.ok(await connects(path));

  const second = createServer();
  await t.rejects(listenPrivate(second, dir, 'abc123'), {
    name: 'FlowerError',
    message: /a run with id abc123 already has a socket/,
  });
  t.ok(await connects(path), 'the first run still answers');
  t.same(await readdir(dir), ['abc123.sock']);

  await new Promise<void>((r) => server.close(() => r()));
  t.same(await readdir(dir), [], 'closing the server removes its socket');
});

t.test('a socket path too long for sun_path is refused with the fix', async (t) => {
  const runtime = await runtimeDir(t);
  const deep = join(runtime, 'x'.repeat(90));
  await mkdir(deep, { mode: 0o700 });
  await t.rejects(listenPrivate(createServer(), deep, 'abc123'), {
    name: 'FlowerError',
    message: /longer than unix sockets allow.*XDG_RUNTIME_DIR or TMPDIR/,
  });
});

t.test(
  'another user cannot connect: the 0700 folder and the 0600 socket refuse them',
  { skip: process.getuid?.() !== 0 ? 'needs root to act as another user' : false },
  async (t) => {
    const runtime = await runtimeDir(t);
    await chmod(runtime, 0o755); // only our folder stands in the way, as under a real /run/user/<uid>
    const dir = await openSocketDir({ XDG_RUNTIME_DIR: runtime });
    const server = createServer((s) => s.on('error', () => undefined).end());
    const path = await listenPrivate(server, dir, 'abc123');
    t.teardown(() => new Promise<void>((r) => server.close(() => r())));
    const connectAsNobody = (): string => {
      const script = `require('net').createConnection(${JSON.stringify(path)}).on('connect', () => { console.log('connected'); process.exit(0) }).on('error', (e) => { console.log(e.code); process.exit(0) })`;
      const r = spawnSync(process.execPath, ['-e', script], {
        uid: 65534,
        gid: 65534,
        encoding: 'utf8',
        timeout: 20_000,
      });
      return r.stdout.trim();
    };
    t.equal(connectAsNobody(), 'EACCES', 'refused by the kernel before the server sees anything');
    // the control: opened up, the same user gets in, so the refusal above was the modes' doing
    await chmod(dir, 0o755);
    await chmod(path, 0o666);
    t.equal(connectAsNobody(), 'connected');
    await t.rejects(
      openSocketDir({ XDG_RUNTIME_DIR: runtime }),
      { message: /open to other users \(mode 755\)/ },
      'and flower-pty would refuse that folder',
    );
  },
);

// attach skips asking the runs when the socket is certain: an id of a run id's shape names its socket, and
// with no id the one socket there is the run; several, none, or a name no run could have leave it to listRuns.
t.test("certainSocket: the id's socket, or the only one; null when only the runs can tell", async (t) => {
  const dir = await openSocketDir({ XDG_RUNTIME_DIR: await runtimeDir(t) });
  t.equal(await certainSocket(dir, 'abc123'), join(dir, 'abc123.sock'), 'an id names its socket, there or not');
  t.equal(await certainSocket(dir, '../abc'), null, 'a name no run id could be is not joined to a path');
  t.equal(await certainSocket(dir, undefined), null, 'no socket at all');
  await writeFile(join(dir, '.abc.123.tmp'), '');
  await writeFile(join(dir, 'notes.txt'), '');
  await writeFile(join(dir, 'aaaaaa.sock'), '');
  t.equal(
    await certainSocket(dir, undefined),
    join(dir, 'aaaaaa.sock'),
    'the only socket, whatever else is in the folder',
  );
  await writeFile(join(dir, 'bbbbbb.sock'), '');
  t.equal(await certainSocket(dir, undefined), null, 'two sockets: the runs must say which');
  t.equal(await certainSocket(join(dir, 'missing'), undefined), null, 'no folder');
});
