// A split view the run server draws, joined to the native relay for its keys alone: typed text in the
// session pane reaches claude from the relay's thread, no JavaScript on its way; once the document pane
// has the keys nothing goes through unrouted (its keys scroll it, not claude), and back in the session
// pane text goes straight through again; claude's output is not written to the terminal by the relay,
// but for its plain echo, which the relay draws where the emulator puts it (native/echo-path.h).
import t from 'tap';
import type { Test } from 'tap';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFastRelay, type FastRelay } from '../../src/adapters/fast-relay.js';
import { spawnPty } from '../../src/adapters/pty-session.js';
import { createScreenModel } from '../../src/server/screen-model.js';
import { openTerminalFace } from '../../src/server/terminal-face.js';
import { personTerminal } from '../helpers/person-terminal.js';
import { WIRE_VERSION, type Hello } from '../../src/server/wire.js';
import { untilWithin } from '../helpers/poll.js';
import xtermHeadless from '@xterm/headless';

const until = untilWithin(10_000, 10);

// This thread held (no turn of the event loop: no JavaScript of the server's runs) until `ok`, at most `ms`.
function hold(ms: number, ok: () => boolean): boolean {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (const end = performance.now() + ms; performance.now() < end; Atomics.wait(cell, 0, 0, 5)) if (ok()) return true;
  return ok();
}

// claude's stand-in: raw mode, every read appended to a file (what claude got) and echoed
const CHILD = `#!/usr/bin/env node
import { appendFileSync } from 'node:fs';
process.stdin.setRawMode(true);
process.stdout.write('ready\\r\\n');
process.stdin.on('data', (d) => {
  appendFileSync(process.env.KEYS_LOG, d);
  // ECHO=plain: as a shell or cat echoes (an "r" comes back red, a key that is not plain text)
  if (process.env.ECHO !== 'plain') process.stdout.write('[' + d + ']');
  else process.stdout.write(String(d) === 'r' ? '\u001b[31mr\u001b[m' : d);
});
`;


// the relay, and claude's stand-in written to a folder of the test's with the file its keys go to
function setUp(t: Test): { relay: FastRelay; file: string; log: string } {
  const relay = openFastRelay();
  if (!relay) throw new Error('the native relay was not built: `npm run build` compiles it');
  t.teardown(() => relay.close());
  const dir = mkdtempSync(join(tmpdir(), 'flower-split-keys-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'child.mjs');
  writeFileSync(file, CHILD);
  chmodSync(file, 0o755);
  const log = join(dir, 'keys');
  writeFileSync(log, '');
  return { relay, file, log };
}

t.test('split view keys through the relay: text straight to claude in the session pane, nothing unrouted once the document pane has the keys', async (t) => {
  const { relay, file, log } = setUp(t);
  const got = () => readFileSync(log, 'utf8');
  const claude = spawnPty({ file, args: [], cwd: tmpdir(), env: { ...(process.env as Record<string, string>), KEYS_LOG: log }, cols: 98, rows: 20 }, relay);
  t.teardown(() => void claude.terminate(100));
  let heard = '';
  claude.onData((d) => (heard += d));
  await until('the child', () => heard.includes('ready'));

  const model = createScreenModel({ cols: 98, rows: 20 });
  t.teardown(() => model.dispose());
  const p = personTerminal(t);
  const told: Array<[string, boolean | undefined]> = [];
  const hello: Hello = { t: 'hello', version: WIRE_VERSION, role: 'attach', cols: 100, rows: 30, face: 'split', tty: p.path, term: 'xterm-256color' };
  const face = await openTerminalFace(p.terminal, hello, null, {
    input: (d, delivered) => told.push([d, delivered]),
    resized: () => undefined,
    command: () => undefined,
    detach: () => undefined,
    edit: () => undefined,
  }, relay, model.emulator);
  t.teardown(() => face.restore());
  face.show({ t: 'screen', data: '', cols: 98, rows: 20 });
  await until('the terminal joins the relay', () => p.terminal.joined);
  await new Promise((r) => setTimeout(r, 100)); // the face opens the pass-through once joined

  p.typeNow('ab');
  t.ok(hold(5_000, () => got() === 'ab'), 'typed text reached claude while the server\'s thread was held: the relay sent it');
  await until('the run told', () => told.length > 0);
  t.same(told, [['ab', true]], 'the run hears of it afterwards, as delivered');
  t.notOk(p.seen().includes('[ab]'), 'the relay writes none of claude\'s output to a split view\'s terminal');

  const pause = () => new Promise((r) => setTimeout(r, 200));
  p.typeNow('\u001d\t'); // the prefix, Tab: the document pane has the keys
  await pause(); // (a read is routed with the focus it began with: the switch first, on its own)
  p.typeNow('j');
  await pause();
  p.typeNow('\u001b[A');
  await pause();
  t.equal(got(), 'ab', 'keys for the document pane never reach claude');

  p.typeNow('\u001d\t'); // back to the session pane
  await pause();
  p.typeNow('c');
  t.ok(hold(5_000, () => got() === 'abc'), 'back in the session pane, text goes straight through again');
  p.typeNow('\u001b[A');
  await until('an arrow, routed by the face', () => got() === 'abc\u001b[A');
  t.pass('an arrow goes to claude through the face, after the text typed before it');
});

t.test("claude's plain echo drawn by the relay's thread while the server's JavaScript is busy, where the emulator puts it, wrapping in the pane; anything else drawn by JavaScript; the terminal shows what the emulator holds", async (t) => {
  const { relay, file, log } = setUp(t);
  const model = createScreenModel({ cols: 40, rows: 10 });
  t.teardown(() => model.dispose());
  const p = personTerminal(t);
  const hello: Hello = { t: 'hello', version: WIRE_VERSION, role: 'attach', cols: 100, rows: 30, face: 'split', tty: p.path, term: 'xterm-256color' };
  const face = await openTerminalFace(p.terminal, hello, null, { input: () => undefined, resized: () => undefined, command: () => undefined, detach: () => undefined, edit: () => undefined }, relay, model.emulator);
  t.teardown(() => face.restore());
  // claude's terminal is the pane's size, as the run server keeps it
  const { cols, rows } = face.size();
  model.resize(cols, rows);
  const claude = spawnPty({ file, args: [], cwd: tmpdir(), env: { ...(process.env as Record<string, string>), KEYS_LOG: log, ECHO: 'plain' }, cols, rows }, relay);
  t.teardown(() => void claude.terminate(100));
  claude.onData((d) => face.show({ t: 'output', data: d }));
  claude.onData((d) => model.write(d));
  face.show({ t: 'child', state: 'started' });
  face.show({ t: 'screen', data: '', cols, rows });
  await until('the terminal joins the relay', () => p.terminal.joined);
  await until('the child', () => p.seen().includes('ready'));
  await new Promise((r) => setTimeout(r, 300));

  const typedWhileHeld = async (key: string): Promise<string> => {
    const mark = p.seen().length;
    p.typeNow(key);
    hold(300, () => false); // the server's JavaScript held: no frame of its can be drawn meanwhile
    await until(`the echo of ${JSON.stringify(key)}`, () => p.seen().length > mark && !p.seen().endsWith('\u001b'));
    await new Promise((r) => setTimeout(r, 50));
    return p.seen().slice(mark);
  };
  const x = await typedWhileHeld('x');
  t.ok(x.startsWith('x'), `the echo is on the terminal before any frame of JavaScript's: ${JSON.stringify(x.slice(0, 40))}`);
  const red = await typedWhileHeld('r');
  t.notOk(red.startsWith('r'), 'an echo with an escape in it is drawn by JavaScript, in its frame');
  t.match(red, /r/, 'and drawn');

  // A line past the pane's width: the relay wraps it where the emulator does.
  const line = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(Math.ceil((cols + 10) / 36)).slice(0, cols + 10);
  for (const c of line) {
    p.typeNow(c);
    await new Promise((r) => setTimeout(r, 2));
  }
  await until('the whole line in claude', () => readFileSync(log, 'utf8').endsWith(line));
  await new Promise((r) => setTimeout(r, 300));
  // What the person's terminal shows, cell by cell, against the emulator's screen, in the pane.
  const shown = new xtermHeadless.Terminal({ cols: 100, rows: 30, allowProposedApi: true });
  await new Promise<void>((r) => shown.write(p.seen(), r));
  const row = (term: InstanceType<typeof xtermHeadless.Terminal>, y: number, from: number, width: number) => (term.buffer.active.getLine(y)?.translateToString(true, from, from + width) ?? '').trimEnd();
  const emulator = model.emulator.term;
  const paneLeft = 1;
  const paneTop = 1;
  for (let y = 0; y < 4; y++) t.equal(row(shown, paneTop + y, paneLeft, cols), row(emulator, y, 0, cols), `pane row ${y} as the emulator has it`);
  t.match(row(emulator, 0, 0, cols), /^ready/, 'the test types where it means to');
  t.equal(row(emulator, 1, 0, cols) + row(emulator, 2, 0, 10), `xr${line}`.slice(0, cols + 10), 'the wrapped line, in the emulator');
  shown.dispose();
});
