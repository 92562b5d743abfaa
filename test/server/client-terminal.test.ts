// The server's side of a client's terminal (direct mode): only a terminal device path is opened,
// output written there reaches the terminal, keys typed there are read, a size reported by the
// client is taken as the terminal's, and a terminal that stopped reading does not block the writer; an
// echo arm that comes while a frame is still on its way holds once the terminal has taken it.
import t, { type Test } from 'tap';
import { spawn } from '@lydell/node-pty';
import { openClientTerminal } from '../../src/adapters/client-terminal.js';
import { untilWithin } from '../helpers/poll.js';
import { openFastRelay } from '../../src/adapters/fast-relay.js';
import { spawnPty } from '../../src/adapters/pty-session.js';
import { passThroughTable } from '../../src/core/screen/keymap.js';
import { tmpdir } from 'node:os';

function terminal(t: Test) {
  // a pty whose slave a program holds, as a person's terminal is held by their shell
  const pty = spawn('sleep', ['600'], { cols: 80, rows: 24 });
  t.teardown(() => pty.kill('SIGKILL'));
  let seen = '';
  pty.onData((d) => (seen += d));
  return { pty, path: (pty as unknown as { _pty: string })._pty, seen: () => seen };
}

const until = untilWithin(5_000, 10);

t.test('anything but a terminal device path is refused with the reason', async (t) => {
  t.throws(() => openClientTerminal('/etc/passwd'), /is not a terminal device path/);
  t.throws(() => openClientTerminal('/dev/null'), /is not a terminal device path/);
  t.throws(() => openClientTerminal('/dev/pts/../../etc/passwd'), /is not a terminal device path/);
  t.throws(() => openClientTerminal('/dev/pts/999999'), /ENOENT/);
});

t.test("output reaches the terminal, keys come back, a reported size is the terminal's", async (t) => {
  const term = terminal(t);
  t.match(term.path, /^\/dev\/pts\/\d+$/);
  const c = openClientTerminal(term.path);
  t.teardown(() => c.close());
  t.equal(c.output.columns, 80, 'the size read from the terminal itself');
  c.output.write('drawn by the server\r\n');
  await until('the output at the terminal', () => term.seen().includes('drawn by the server'));
  let keys = '';
  c.input.setRawMode(true);
  c.input.on('data', (d: Buffer) => (keys += d.toString()));
  term.pty.write('typed');
  await until('the keys', () => keys === 'typed');
  let resized = 0;
  c.output.on('resize', () => resized++);
  c.resize(100, 30);
  c.resize(100, 30); // the same size again: nothing to tell
  t.same([c.output.columns, c.output.rows, resized], [100, 30, 1]);
  let drained = false;
  c.output.write('last');
  c.giveBack(() => (drained = true));
  await until('drained', () => drained);
  c.close();
  c.close(); // twice is harmless
  c.giveBack(() => t.pass('drained after close answers at once'));
});

t.test('a terminal that stops reading (^S) does not block the writer: the backlog grows instead', async (t) => {
  const term = terminal(t);
  const c = openClientTerminal(term.path);
  t.teardown(() => c.close());
  term.pty.pause(); // the terminal takes nothing more
  const block = 'x'.repeat(64 * 1024);
  const t0 = Date.now();
  for (let i = 0; i < 64; i++) c.output.write(block);
  t.ok(Date.now() - t0 < 2_000, 'the writes returned (a blocking tty write would hang here)');
  t.ok(c.backlog() > 0, `a backlog of ${c.backlog()} bytes waits`);
  term.pty.resume();
});

t.test(
  "an arm for the relay's echo that comes while the frame before it is still on its way holds once the terminal took the frame, after it",
  async (t) => {
    const relay = openFastRelay();
    if (!relay) throw new Error('the native relay was not built: `npm run build` compiles it');
    t.teardown(() => relay.close());
    // claude's stand-in: cat in cooked mode, its pty echoing what it is typed
    const claude = spawnPty(
      { file: '/bin/cat', args: [], cwd: tmpdir(), env: process.env as Record<string, string>, cols: 20, rows: 5 },
      relay,
    );
    t.teardown(() => void claude.terminate(100));
    claude.onData(() => undefined);
    const term = terminal(t);
    const c = openClientTerminal(term.path);
    t.teardown(() => c.close());
    c.input.setRawMode(true); // as the face has it: keys as they are typed, no echo of the terminal's own
    const echoed: string[] = [];
    t.ok(
      await c.join(relay, {
        key: null,
        relayed: () => undefined,
        input: () => undefined,
        pass: passThroughTable(),
        echoed: (bytes) => echoed.push(bytes.toString()),
      }),
      'joined for its keys',
    );
    c.passKeys(0, true); // text typed there goes straight to claude
    term.pty.pause(); // the terminal takes nothing for a while: a large frame waits
    c.output.write(`${'x'.repeat(256 * 1024)}FRAME-END`);
    t.ok(c.output.writableLength > 0, 'the frame is still on its way');
    c.armEcho({ x: 0, y: 0, cols: 20, rows: 5, left: 0, top: 0 });
    term.pty.resume();
    await until('the frame at the terminal', () => term.seen().includes('FRAME-END'));
    await new Promise((r) => setTimeout(r, 100));
    term.pty.write('k');
    await until('the echo drawn by the relay', () => echoed.length > 0);
    t.same(echoed, ['k'], "the relay drew claude's echo itself: the arm held");
    await until('the echo at the terminal', () => term.seen().endsWith('k'));
    t.ok(term.seen().indexOf('k', term.seen().indexOf('FRAME-END')) > 0, 'after the frame');
  },
);
