// Direct mode against a real run server (fake claude): a client that names its terminal is drawn by
// the server itself, as tmux draws its clients, so its keys and claude's output never cross the
// socket, and on detach the terminal is given back before the client hears bye. A terminal the
// server cannot open is streamed to instead: the client draws it, as before.
import t, { type Test } from 'tap';
import { createConnection, type Socket } from 'node:net';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawn } from '@lydell/node-pty';
import { startFake } from './fake-flower.js';
import { oneRun } from '../helpers/run-servers.js';
import {
  createFrameReader,
  encodeFrame,
  parseServerMessage,
  WIRE_VERSION,
  type ClientMessage,
  type ServerMessage,
} from '../../src/server/wire.js';

async function connect(
  t: Test,
  socketPath: string,
): Promise<{
  socket: Socket;
  frames: ServerMessage[];
  at: (t: ServerMessage['t']) => number;
  send: (m: ClientMessage) => void;
}> {
  const socket = createConnection(socketPath);
  t.teardown(() => socket.destroy());
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  const frames: ServerMessage[] = [];
  const reader = createFrameReader<ServerMessage>({
    validate: parseServerMessage,
    onMessage: (m) => frames.push(m),
    onError: (e) => t.fail(e),
  });
  socket.on('data', (c: Buffer) => reader.push(c));
  return {
    socket,
    frames,
    at: (type) => frames.findIndex((m) => m.t === type),
    send: (m) => socket.write(encodeFrame(m)),
  };
}

// Both ways a plain terminal is served: the native relay (keys and echoes on its thread, the resets
// through its queue) and Node's streams (FLOWER_PTY_NO_NATIVE=1).
for (const relay of ['the native relay', "Node's streams"]) {
  t.test(
    `a client naming its terminal is drawn there by the server (${relay}); detach gives the terminal back before bye`,
    async (t) => {
      const env: Record<string, string> = relay === "Node's streams" ? { FLOWER_PTY_NO_NATIVE: '1' } : {};
      const logPath = join(mkdtempSync(join(tmpdir(), 'flower-direct-')), 'run.log');
      t.teardown(() => rmSync(dirname(logPath), { recursive: true, force: true }));
      const f = startFake({
        t,
        script: { default: { steps: [{ modes: true }] } },
        prompt: 'go',
        flowerArgs: ['--plain', '--log', logPath],
        env,
      });
      await f.run.waitFor(() => f.run.output().includes('modes on'), 15_000, 'modes on');
      const run = await oneRun(f.runtime);
      const log = existsSync(logPath) ? readFileSync(logPath, 'utf8') : ''; // the log is made by its first line
      t.equal(log.includes('the native relay is not in use'), relay === "Node's streams", "the run's log says which");
      // the person's second terminal: a pty whose slave a program holds
      const term = spawn('sleep', ['600'], { cols: 90, rows: 20 });
      t.teardown(() => term.kill('SIGKILL'));
      const ttyPath = (term as unknown as { _pty: string })._pty;
      let seen = '';
      term.onData((d) => (seen += d));
      const c = await connect(t, run.socket);
      // What a real client does on bye: print its last line on its terminal. Whatever the server wrote
      // there before sending bye is ahead of it in the terminal's queue.
      let printed = false;
      c.socket.on('data', () => {
        if (printed || c.at('bye') < 0) return;
        printed = true;
        const fd = openSync(ttyPath, 'w');
        writeSync(fd, 'CLIENT-LAST-LINE');
        closeSync(fd);
      });
      c.send({ t: 'hello', version: WIRE_VERSION, role: 'attach', cols: 90, rows: 20, face: 'plain', tty: ttyPath });
      await f.run.waitFor(() => c.at('welcome') >= 0, 15_000, 'the welcome');
      t.equal((c.frames[0] as Extract<ServerMessage, { t: 'welcome' }>).direct, true, 'the server draws this terminal');
      await f.run.waitFor(() => seen.includes('modes on'), 15_000, 'the first paint on the terminal itself');
      term.write('typed in the second terminal\r');
      await f.run.waitFor(
        () => seen.includes('echo: typed in the second terminal'),
        15_000,
        'the echo on the second terminal',
      );
      await f.run.waitFor(
        () => f.run.output().includes('echo: typed in the second terminal'),
        15_000,
        'the echo on the first',
      );
      t.same(
        c.frames.map((m) => m.t),
        ['welcome'],
        'no screen, output or status frame crossed the socket',
      );
      c.send({ t: 'detach' });
      await f.run.waitFor(() => c.at('bye') >= 0, 15_000, 'the bye');
      t.same(c.frames.at(-1), { t: 'bye', reason: 'detached' });
      await f.run.waitFor(() => seen.includes('CLIENT-LAST-LINE'), 15_000, "the client's last line");
      const last = seen.indexOf('CLIENT-LAST-LINE');
      for (const [name, seq] of [
        ['alt screen', '\u001b[?1049l'],
        ['mouse', '\u001b[?1000l'],
        ['bracketed paste', '\u001b[?2004l'],
      ]) {
        const at = seen.lastIndexOf(seq!);
        t.ok(at >= 0 && at < last, `${name} reset on the terminal before the client's last line`);
      }
    },
  );
}

t.test('a terminal the server cannot open is streamed to: the client draws it from the frames', async (t) => {
  const f = startFake({ t, script: { default: { steps: [] } }, prompt: 'go', flowerArgs: ['--plain'] });
  await f.run.waitFor(() => f.run.output().includes('fake>'), 15_000, 'the prompt');
  const run = await oneRun(f.runtime);
  const c = await connect(t, run.socket);
  c.send({ t: 'hello', version: WIRE_VERSION, role: 'attach', cols: 80, rows: 24, face: 'plain', tty: '/dev/null' });
  await f.run.waitFor(() => c.at('screen') >= 0, 15_000, 'a screen frame');
  t.notOk((c.frames[0] as Extract<ServerMessage, { t: 'welcome' }>).direct, 'not drawn by the server');
  t.match(
    (c.frames[c.at('screen')] as Extract<ServerMessage, { t: 'screen' }>).data,
    /fake>/,
    'the screen comes on the wire',
  );
  c.send({ t: 'input', data: 'streamed\r' });
  await f.run.waitFor(
    () => c.frames.some((m) => m.t === 'output' && m.data.includes('echo: streamed')),
    15_000,
    'the echo as an output frame',
  );
});

// --plain through the native relay: the terminal takes a flood at the relay's pace, while the
// server's emulator, which parses on timers, is handed it no faster than it parses (xterm throws
// past 50 MB waiting, and what a callback from the relay throws brings the server down): the run
// lives on, and the screen it paints for the next terminal is whole.
t.test('a flood to a terminal the relay writes: the server keeps up, lives on and paints the end', async (t) => {
  const f = startFake({
    t,
    script: { default: { steps: [{ sleep: 4000 }, { flood: 150 * 1024 * 1024 }, { print: 'FLOOD-DONE\r\n' }] } },
    flowerArgs: ['--plain', '--no-workbench'],
  });
  await f.run.waitFor(() => f.run.output().includes('fake-claude'), 15_000, 'the fake');
  const run = await oneRun(f.runtime);
  // a terminal read without an emulator (the test's own would fall behind), counted and tailed
  const term = spawn('sleep', ['600'], { cols: 100, rows: 30 });
  t.teardown(() => term.kill('SIGKILL'));
  let bytes = 0;
  let tail = '';
  term.onData((d) => {
    bytes += d.length;
    tail = (tail + d).slice(-4096);
  });
  const c = await connect(t, run.socket);
  c.send({
    t: 'hello',
    version: WIRE_VERSION,
    role: 'attach',
    cols: 100,
    rows: 30,
    face: 'plain',
    tty: (term as unknown as { _pty: string })._pty,
  });
  await f.run.waitFor(() => c.at('welcome') >= 0, 15_000, 'the welcome');
  process.kill(f.run.pty.pid, 'SIGKILL'); // the starting terminal's client is gone: only this terminal is drawn
  await f.run.waitFor(() => tail.includes('FLOOD-DONE'), 120_000, `the flood's end (${bytes} bytes so far)`);
  t.ok(bytes > 150 * 1024 * 1024, `the whole flood reached the terminal (${bytes} bytes)`);
  const after = await oneRun(f.runtime);
  t.equal(after.pid, run.pid, 'the run server lives on');
  const viewer = await connect(t, run.socket);
  viewer.send({ t: 'hello', version: WIRE_VERSION, role: 'attach', cols: 100, rows: 30, face: 'plain' });
  await f.run.waitFor(() => viewer.at('screen') >= 0, 30_000, 'a screen frame');
  t.match(
    (viewer.frames[viewer.at('screen')] as Extract<ServerMessage, { t: 'screen' }>).data,
    /FLOOD-DONE/,
    'the screen it paints has the end of the flood',
  );
});
