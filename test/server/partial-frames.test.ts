// The run socket against clients that begin a frame and never finish it, over real
// Unix sockets: such a client is closed once it has sent nothing for the idle bound, and what all
// unfinished frames hold together is capped (the client that pushes past the cap is closed, the others
// keep theirs). 150 clients each holding most of an 8 MB frame took a server to 1.27 GB.
import t from 'tap';
import { createServer, createConnection, type Socket, type Server } from 'node:net';
import { join } from 'node:path';
import {
  openClientLink,
  createPartialFrameBudget,
  PARTIAL_FRAME_IDLE_MS,
  MAX_PARTIAL_BYTES_TOTAL,
  type PartialFrameBudget,
} from '../../src/server/client-link.js';
import { encodeFrame, type ClientMessage } from '../../src/server/wire.js';
import { poll } from '../helpers/poll.js';
import { tempRoot } from '../helpers/temp-root.js';

function serve(budget: PartialFrameBudget): Promise<{ path: string; server: Server; received: ClientMessage[] }> {
  const path = join(tempRoot(t, 'fp-partial-'), 's.sock');
  const received: ClientMessage[] = [];
  const server = createServer((socket) => {
    openClientLink(socket, { onMessage: (_l, m) => received.push(m), onClose: () => undefined }, budget);
  });
  return new Promise((resolve) => server.listen(path, () => resolve({ path, server, received })));
}

function connect(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection(path, () => resolve(s));
    s.once('error', reject);
  });
}

// resolves true when the server closed this client, false when the bounded wait ran out
function closedByServer(socket: Socket, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve(true);
    const timer = setTimeout(() => resolve(false), timeoutMs);
    socket.on('error', () => undefined);
    socket.once('close', () => (clearTimeout(timer), resolve(true)));
    socket.resume();
  });
}

const sent = (s: Socket, data: Buffer) => new Promise<void>((resolve) => s.write(data, () => resolve()));
// up to 10 s, every 25 ms; what follows asserts whether it came
const until = (ok: () => boolean): Promise<boolean> => poll(ok, 10_000, 25);

t.test('the bounds are the hook channel’s 30 s and a cap of 64 MiB in all', async (t) => {
  t.equal(PARTIAL_FRAME_IDLE_MS, 30_000);
  t.equal(MAX_PARTIAL_BYTES_TOTAL, 64 * 1024 * 1024);
});

t.test('a client that leaves a frame unfinished is closed after the idle bound; a whole frame is not', async (t) => {
  const budget = createPartialFrameBudget(MAX_PARTIAL_BYTES_TOTAL, 300);
  const { path, server, received } = await serve(budget);
  t.teardown(() => server.close());
  const whole = await connect(path);
  await sent(whole, encodeFrame({ t: 'info' }));
  const stalled = await connect(path);
  const frame = encodeFrame({ t: 'input', data: 'x'.repeat(100_000) });
  await sent(stalled, frame.subarray(0, 60_000));
  await until(() => budget.held > 0);
  t.equal(budget.held, 60_000, 'the unfinished frame is counted');
  t.ok(await closedByServer(stalled, 10_000), 'closed once it sent nothing for the bound');
  await until(() => budget.held === 0);
  t.equal(budget.held, 0, 'its bytes are given back');
  t.same(received, [{ t: 'info' }]);
  t.notOk(whole.destroyed, 'a client between frames is not timed out');
  whole.destroy();
});

t.test('all unfinished frames together are capped: the client that passes the cap is closed alone', async (t) => {
  const budget = createPartialFrameBudget(1024 * 1024, 60_000);
  const { path, server } = await serve(budget);
  t.teardown(() => server.close());
  const frame = encodeFrame({ t: 'input', data: 'y'.repeat(1_000_000) });
  const holders: Socket[] = [];
  for (let i = 0; i < 3; i++) {
    const s = await connect(path);
    s.on('error', () => undefined);
    await sent(s, frame.subarray(0, 300_000));
    holders.push(s);
  }
  await until(() => budget.held === 900_000);
  t.equal(budget.held, 900_000, 'three unfinished frames held');
  const fourth = await connect(path);
  await sent(fourth, frame.subarray(0, 300_000));
  t.ok(await closedByServer(fourth, 10_000), 'the fourth, past the cap, is closed');
  t.equal(budget.held, 900_000, 'the others keep theirs');
  t.ok(
    holders.every((s) => !s.destroyed),
    'the first three are still connected',
  );
  // one of them finishes its frame: it is a message like any other, and its share is given back
  await sent(holders[0]!, frame.subarray(300_000));
  await until(() => budget.held === 600_000);
  t.equal(budget.held, 600_000);
  for (const s of holders) s.destroy();
  await until(() => budget.held === 0);
  t.equal(budget.held, 0, 'all given back once they are gone');
});
