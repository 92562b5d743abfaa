// One connection seen from the run server: a client that stops reading is dropped once 32 MB wait for
// it, while a client that reads gets every frame; garbage closes its sender only; an attach client's
// first paint goes before everything broadcast while it was being taken.
import t, { type Test } from 'tap';
import { createServer, createConnection, type Socket, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openClientLink, MAX_PENDING_BYTES, type ClientLink } from '../../src/server/client-link.js';
import {
  createFrameReader,
  encodeFrame,
  parseServerMessage,
  WIRE_VERSION,
  type ClientMessage,
  type ServerMessage,
} from '../../src/server/wire.js';
import { untilWithin } from '../helpers/poll.js';

interface Rig {
  links: ClientLink[];
  closed: ClientLink[];
  messages: Array<[ClientLink, ClientMessage]>;
  connect(): Promise<Socket>;
  server: Server;
}

async function rig(t: Test): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'flower-link-'));
  const path = join(dir, 's.sock');
  const sockets: Socket[] = [];
  const r: Rig = {
    links: [],
    closed: [],
    messages: [],
    server: createServer((socket) => {
      sockets.push(socket);
      r.links.push(
        openClientLink(socket, {
          onMessage: (link, m) => r.messages.push([link, m]),
          onClose: (link) => r.closed.push(link),
        }),
      );
    }),
    connect: () =>
      new Promise((resolve) => {
        const s = createConnection(path, () => resolve(s));
        sockets.push(s);
        s.on('error', () => undefined);
      }),
  };
  await new Promise<void>((resolve) => r.server.listen(path, resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    r.server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return r;
}

const until = untilWithin(15_000, 10);

function reading(socket: Socket): ServerMessage[] {
  const got: ServerMessage[] = [];
  const reader = createFrameReader<ServerMessage>({
    validate: parseServerMessage,
    onMessage: (m) => got.push(m),
    onError: () => undefined,
  });
  socket.on('data', (c: Buffer) => reader.push(c));
  return got;
}

t.test('a client that stops reading is dropped alone; the reader gets every frame', async (t) => {
  const r = await rig(t);
  const slow = await r.connect();
  slow.pause(); // a stopped terminal: ^S, a frozen ssh
  const fast = await r.connect();
  const got = reading(fast);
  await until('two links', () => r.links.length === 2);
  const chunk = 'x'.repeat(64 * 1024);
  const frame = encodeFrame({ t: 'output', data: chunk });
  const frames = Math.ceil((MAX_PENDING_BYTES * 1.5) / frame.length);
  for (let i = 0; i < frames; i++) {
    for (const link of r.links) link.send(frame);
    // the reader keeps up, as a live terminal does: never more than 4 MB behind
    if (i % 16 === 0) await until('the reader to keep up', () => got.length >= i - 64);
  }
  await until('the slow client dropped', () => r.closed.includes(r.links[0]!));
  await until('every frame at the fast client', () => got.length === frames, 60_000);
  t.notOk(r.closed.includes(r.links[1]!), 'the reading client is still connected');
});

t.test('garbage, or a hang-up mid-frame, closes that client only', async (t) => {
  const r = await rig(t);
  const bad = await r.connect();
  const cut = await r.connect();
  const good = await r.connect();
  await until('three links', () => r.links.length === 3);
  bad.write(Buffer.from([0, 0, 0, 5, 0x7b, 0x7b, 0x7b, 0x7b, 0x7b])); // "{{{{{": not JSON
  cut.end(encodeFrame({ t: 'input', data: 'half' }).subarray(0, 7));
  good.write(encodeFrame({ t: 'hello', version: WIRE_VERSION, role: 'attach' }));
  await until('both bad clients closed', () => r.closed.includes(r.links[0]!) && r.closed.includes(r.links[1]!));
  await until('the hello', () => r.messages.length === 1);
  t.equal(r.messages[0]![0], r.links[2], 'from the good client');
  t.notOk(r.closed.includes(r.links[2]!), 'the good client stays');
});

t.test('an attach client gets its first paint before what was broadcast while it was taken', async (t) => {
  const r = await rig(t);
  const socket = await r.connect();
  const got = reading(socket);
  await until('a link', () => r.links.length === 1);
  const link = r.links[0]!;
  link.setRole('attach');
  const shown = (message: ServerMessage) => link.show(message, () => encodeFrame(message));
  shown({ t: 'output', data: 'after the paint' });
  link.send({ t: 'message', text: 'a control message goes at once' });
  link.goLive(encodeFrame({ t: 'message', text: 'welcome' }), [{ t: 'screen', data: 'the paint', cols: 10, rows: 2 }]);
  shown({ t: 'output', data: 'later' });
  await until('five frames', () => got.length === 5);
  t.same(
    got.map((m) => m.t),
    ['message', 'message', 'screen', 'output', 'output'],
  );
  t.same(
    got.map((m) => ('data' in m ? m.data : 'text' in m ? m.text : '')),
    ['a control message goes at once', 'welcome', 'the paint', 'after the paint', 'later'],
  );
  link.close({ t: 'bye', reason: 'detached' });
  await until('the bye', () => got.length === 6);
  t.same(got[5], { t: 'bye', reason: 'detached' });
});
