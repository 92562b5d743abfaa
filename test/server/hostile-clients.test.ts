// A server built on the wire reader (the pattern the run server uses) against hostile clients: garbage,
// a huge declared frame, a hang-up mid-frame, a half frame left open, noise. Each is cut off alone;
// the server neither crashes nor stalls, and a good client keeps being answered throughout.
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSocketDir } from '../../src/server/socket-dir.js';
import { requestRun } from '../../src/server/run-registry.js';
import { encodeFrame } from '../../src/server/wire.js';
import { startFakeRun } from '../helpers/wire-server.js';

function connect(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection(path, () => resolve(s));
    s.once('error', reject);
  });
}

// resolves when the server has closed this client (or the wait runs out: a bounded wait, not a sleep)
function closedByServer(socket: Socket, timeoutMs = 20_000): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    socket.on('error', () => undefined);
    socket.once('close', () => (clearTimeout(timer), resolve(true)));
    socket.resume();
  });
}

t.test('hostile clients are cut off one by one; a good client is answered all along', async (t) => {
  const runtime = await mkdtemp(join(tmpdir(), 'fp-hc-'));
  t.teardown(() => rm(runtime, { recursive: true, force: true }));
  const dir = await openSocketDir({ XDG_RUNTIME_DIR: runtime });
  const run = await startFakeRun(dir, 'aaaaaa');
  t.teardown(() => run.close());
  const answered = async (what: string) =>
    t.match(
      await requestRun(run.socket, { t: 'info' }, 10_000),
      { ok: true, answer: { t: 'info', run: { id: 'aaaaaa' } } },
      `answered ${what}`,
    );

  // a half frame left open: it must not hold the server up for anyone else
  const stalled = await connect(run.socket);
  stalled.on('error', () => undefined);
  stalled.write(encodeFrame({ t: 'input', data: 'x'.repeat(1000) }).subarray(0, 500));
  await answered('while a client sits on half a frame');

  const garbage = await connect(run.socket);
  garbage.write(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
  t.ok(await closedByServer(garbage), 'garbage: closed');
  await answered('after garbage');

  const huge = await connect(run.socket);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(0xffffffff, 0);
  huge.write(header);
  // keep pushing: none of it may be buffered once the length is refused
  for (let i = 0; i < 64 && huge.writable; i++) huge.write(Buffer.alloc(64 * 1024, 0x41));
  t.ok(await closedByServer(huge), 'a 4 GiB frame: closed at its header');
  await answered('after a huge frame');

  const hangUp = await connect(run.socket);
  hangUp.end(encodeFrame({ t: 'hello', version: 1, role: 'query' }).subarray(0, 10));
  t.ok(await closedByServer(hangUp), 'hung up mid-frame: closed');
  await answered('after a hang-up mid-frame');

  for (let seed = 1; seed <= 20; seed++) {
    const noise = await connect(run.socket);
    const bytes = Buffer.alloc(256);
    let x = seed * 2654435761;
    for (let i = 0; i < bytes.length; i++) bytes[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    noise.write(bytes);
    noise.end();
    t.ok(await closedByServer(noise), `noise ${seed}: closed`);
  }
  await answered('after 20 noise clients');

  t.equal(run.errors.length, 23, 'each hostile client gave the server exactly one error');
  t.match(run.errors, [
    /not UTF-8 JSON|over the/,
    /4294967295 bytes is over the 8388608-byte limit/,
    /hung up in the middle of a frame/,
  ]);
  t.ok(stalled.writable && !stalled.destroyed, 'the stalled client is still connected: it only hurts itself');
  stalled.destroy();
});
