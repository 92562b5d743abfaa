// Input waiting for claude is bounded. The real run server (fake claude), claude stopped with SIGSTOP so
// it reads nothing: one client sends 400 `input` frames of 1 MB. The server's memory stays bounded (at
// most MAX_PENDING_INPUT_BYTES waits; the rest is refused, never buffered), the client is told in one
// line, and once claude runs and answers again, typing goes through as before.
import t from 'tap';
import { createConnection, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { oneRun } from '../helpers/run-servers.js';
import { createFrameReader, encodeFrame, parseServerMessage, type ServerMessage } from '../../src/server/wire.js';
import { MAX_PENDING_INPUT_BYTES } from '../../src/core/server/input-ceiling.js';
import { startFake } from './fake-flower.js';

const FRAMES = 400;
const FRAME_BYTES = 1024 * 1024;

const rssBytes = (pid: number): number =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const write = (socket: Socket, bytes: Buffer): Promise<void> =>
  new Promise((resolve) => (socket.write(bytes) ? resolve() : socket.once('drain', () => resolve())));

t.test(
  'a flood of input for a claude that reads nothing is refused past the ceiling, and the client is told',
  async (t) => {
    const f = startFake({ t, script: { default: { steps: [{ modes: true }] } }, flowerArgs: ['--no-workbench'] });
    await f.run.waitFor(() => f.run.output().includes('modes on'), 20_000, 'the fake claude is up');
    const run = await oneRun(f.runtime);
    const claude = f.spawns()[0]!.pid;
    process.kill(claude, 'SIGSTOP');
    t.teardown(() => {
      try {
        process.kill(claude, 'SIGCONT');
      } catch {
        // already gone
      }
    });

    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = createConnection(run.socket, () => resolve(s));
      s.once('error', reject);
    });
    t.teardown(() => socket.destroy());
    const messages: ServerMessage[] = [];
    const reader = createFrameReader<ServerMessage>({
      validate: parseServerMessage,
      onMessage: (m) => messages.push(m),
      onError: () => undefined,
    });
    socket.on('data', (c) => reader.push(c));
    await write(socket, encodeFrame({ t: 'hello', version: 1, role: 'attach', cols: 100, rows: 30 }));
    await f.run.waitFor(() => messages.some((m) => m.t === 'welcome'), 20_000, 'welcomed');

    const before = rssBytes(run.pid);
    const frame = encodeFrame({ t: 'input', data: 'a'.repeat(FRAME_BYTES) });
    let peak = before;
    for (let i = 0; i < FRAMES; i++) {
      await write(socket, frame);
      if (i % 20 === 0) peak = Math.max(peak, rssBytes(run.pid));
    }
    await f.run.waitFor(
      () => messages.filter((m) => m.t === 'message').length >= FRAMES - MAX_PENDING_INPUT_BYTES / FRAME_BYTES,
      60_000,
      'every frame past the ceiling refused',
    );
    peak = Math.max(peak, rssBytes(run.pid));
    const grown = (peak - before) / 1024 / 1024;
    t.ok(
      grown < 150,
      `the server grew ${grown.toFixed(0)} MB for ${FRAMES} MB sent (before the ceiling: linearly, ~390 MB)`,
    );
    const told = messages.filter((m): m is Extract<ServerMessage, { t: 'message' }> => m.t === 'message');
    t.equal(
      told.length,
      FRAMES - MAX_PENDING_INPUT_BYTES / FRAME_BYTES,
      'each frame past the ceiling is refused and said',
    );
    t.match(
      told[0]?.text,
      /^flower-pty: 1\.0 MiB of input not sent: claude has not read the 4\.0 MiB already waiting \(at most 4\.0 MiB may wait\); it may be stopped or hung: type again once it answers$/,
    );
    t.notMatch(told[0]?.text, /\n/, 'one line');

    // Claude runs again, reads what waited and answers: typing goes through again.
    process.kill(claude, 'SIGCONT');
    socket.destroy();
    f.run.pty.write('\r'); // ends the line of what waited
    f.run.pty.write('after-the-flood\r');
    await f.run.waitFor(() => f.run.output().includes('echo: after-the-flood'), 60_000, 'typing reaches claude again');
  },
);
