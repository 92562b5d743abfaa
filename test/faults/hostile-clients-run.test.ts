// The real run server (fake claude) against hostile clients on its socket: garbage, a 4 GiB frame, a
// hang-up mid-frame, a half frame left open, a wrong version, noise. None crashes or stalls it: the
// attached terminal keeps typing to claude and `info` keeps being answered.
import t from 'tap';
import { createConnection, type Socket } from 'node:net';
import { oneRun } from '../helpers/run-servers.js';
import { requestRun } from '../../src/server/run-registry.js';
import { createFrameReader, encodeFrame, parseServerMessage, type ServerMessage } from '../../src/server/wire.js';
import { startFake } from './fake-flower.js';

function connect(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection(path, () => resolve(s));
    s.once('error', reject);
  });
}

// what the server sent this client until it closed it (bounded: false if it never did)
function serverCloses(socket: Socket, timeoutMs = 20_000): Promise<{ closed: boolean; messages: ServerMessage[] }> {
  const messages: ServerMessage[] = [];
  const reader = createFrameReader<ServerMessage>({
    validate: parseServerMessage,
    onMessage: (m) => messages.push(m),
    onError: () => undefined,
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ closed: false, messages }), timeoutMs);
    socket.on('data', (c) => reader.push(c));
    socket.on('error', () => undefined);
    socket.once('close', () => (clearTimeout(timer), resolve({ closed: true, messages })));
  });
}

t.test('hostile clients cannot crash or stall a run server', async (t) => {
  const f = startFake({ t, script: { default: { steps: [{ modes: true }] } }, flowerArgs: ['--no-workbench'] });
  await f.run.waitFor(() => f.run.output().includes('modes on'), 20_000, 'the fake claude is up');
  const run = await oneRun(f.runtime);
  let typed = 0;
  const stillServing = async (what: string) => {
    const line = `still-${++typed}`;
    f.run.pty.write(`${line}\r`);
    await f.run.waitFor(() => f.run.output().includes(`echo: ${line}`), 20_000, `echo after ${what}`);
    t.match(
      await requestRun(run.socket, { t: 'info' }, 10_000),
      { ok: true, answer: { t: 'info', run: { id: run.id } } },
      `info answered after ${what}`,
    );
  };

  const stalled = await connect(run.socket);
  stalled.on('error', () => undefined);
  stalled.write(encodeFrame({ t: 'hello', version: 1, role: 'attach', cols: 80, rows: 24 }).subarray(0, 7));
  await stillServing('a half frame left open');

  const garbage = await connect(run.socket);
  const g = serverCloses(garbage);
  garbage.write('GET / HTTP/1.1\r\n\r\n');
  t.ok((await g).closed, 'garbage: closed');
  await stillServing('garbage');

  const huge = await connect(run.socket);
  const h = serverCloses(huge);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(0xffffffff, 0);
  huge.write(header);
  for (let i = 0; i < 32 && huge.writable; i++) huge.write(Buffer.alloc(64 * 1024, 0x41));
  t.ok((await h).closed, 'a 4 GiB frame: closed');
  await stillServing('a huge frame');

  const cut = await connect(run.socket);
  const c = serverCloses(cut);
  cut.end(encodeFrame({ t: 'hello', version: 1, role: 'query' }).subarray(0, 12));
  t.ok((await c).closed, 'a hang-up mid-frame: closed');
  await stillServing('a hang-up mid-frame');

  const old = await connect(run.socket);
  const o = serverCloses(old);
  old.write(encodeFrame({ t: 'hello', version: 999, role: 'attach' }));
  const oldEnd = await o;
  t.ok(oldEnd.closed, 'another version: closed');
  t.match(
    oldEnd.messages,
    [
      {
        t: 'refused',
        reason:
          /^flower-pty \(wire 999\) cannot attach to a run served by another version \(wire 1\); use the same flower-pty$/,
      },
    ],
    'with one line that says why',
  );

  for (let seed = 1; seed <= 10; seed++) {
    const noise = await connect(run.socket);
    const n = serverCloses(noise);
    const bytes = Buffer.alloc(512);
    let x = seed * 2654435761;
    for (let i = 0; i < bytes.length; i++) bytes[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    noise.end(bytes);
    t.ok((await n).closed, `noise ${seed}: closed`);
  }
  await stillServing('noise');
  t.ok(!stalled.destroyed, 'the client on half a frame only hurts itself');
  stalled.destroy();
  t.equal(f.spawns().length, 1, 'the same claude throughout');
});
