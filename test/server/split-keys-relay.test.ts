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
import { spawnPty, type PtySession } from '../../src/adapters/pty-session.js';
import { createClaudeKeys, PERSON_KEYS } from '../../src/runtime/claude-keys.js';
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

t.test(
  'split view keys through the relay: text straight to claude in the session pane, nothing unrouted once the document pane has the keys',
  async (t) => {
    const { relay, file, log } = setUp(t);
    const got = () => readFileSync(log, 'utf8');
    const claude = spawnPty(
      {
        file,
        args: [],
        cwd: tmpdir(),
        env: { ...(process.env as Record<string, string>), KEYS_LOG: log },
        cols: 98,
        rows: 20,
      },
      relay,
    );
    t.teardown(() => void claude.terminate(100));
    let heard = '';
    claude.onData((d) => (heard += d));
    await until('the child', () => heard.includes('ready'));

    const model = createScreenModel({ cols: 98, rows: 20 });
    t.teardown(() => model.dispose());
    const p = personTerminal(t);
    // the run's one sink, writing to this claude, the run's side recorded
    const keys = createClaudeKeys({ echoFirst: true });
    const told: string[] = [];
    keys.connect({ child: () => claude, told: (d) => void told.push(d) });
    const hello: Hello = {
      t: 'hello',
      version: WIRE_VERSION,
      role: 'attach',
      cols: 100,
      rows: 30,
      face: 'split',
      tty: p.path,
      term: 'xterm-256color',
    };
    const face = await openTerminalFace({
      terminal: p.terminal,
      hello,
      documentPath: null,
      ownCommand: () => 'flower-pty',
      keys: { sink: keys, from: PERSON_KEYS },
      on: {
        resized: () => undefined,
        command: () => undefined,
        detach: () => undefined,
        edit: () => undefined,
      },
      relay,
      screen: model.emulator,
    });
    t.teardown(() => face.restore());
    face.show({ t: 'screen', data: '', cols: 98, rows: 20 });
    await until('the terminal joins the relay', () => p.terminal.joined);
    await new Promise((r) => setTimeout(r, 100)); // the face opens the pass-through once joined

    p.typeNow('ab');
    t.ok(
      hold(5_000, () => got() === 'ab'),
      "typed text reached claude while the server's thread was held: the relay sent it",
    );
    await until('the run told', () => told.length > 0);
    t.same(told, ['ab'], 'the run hears of it afterwards, once');
    t.notOk(p.seen().includes('[ab]'), "the relay writes none of claude's output to a split view's terminal");

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
    t.ok(
      hold(5_000, () => got() === 'abc'),
      'back in the session pane, text goes straight through again',
    );
    p.typeNow('\u001b[A');
    await until('an arrow, routed by the face', () => got() === 'abc\u001b[A');
    t.pass('an arrow goes to claude through the face, after the text typed before it');
  },
);

// The person's terminal (100 × 30: the document pane below claude's; 140 × 40: beside it) in a split view
// the run server draws, claude's stand-in echoing plainly in its pane (at 1, 1 inside its border), the
// emulator the run server keeps of claude's screen.
async function splitWithPlainEcho(t: Test, size = { cols: 100, rows: 30 }) {
  const { relay, file, log } = setUp(t);
  const model = createScreenModel({ cols: 40, rows: 10 });
  t.teardown(() => model.dispose());
  const p = personTerminal(t, size);
  const hello: Hello = {
    t: 'hello',
    version: WIRE_VERSION,
    role: 'attach',
    ...size,
    face: 'split',
    tty: p.path,
    term: 'xterm-256color',
  };
  // the run's one sink, writing to the claude started below
  const keys = createClaudeKeys({ echoFirst: true });
  let claude: PtySession | null = null;
  keys.connect({ child: () => claude, told: () => undefined });
  const face = await openTerminalFace({
    terminal: p.terminal,
    hello,
    documentPath: null,
    ownCommand: () => 'flower-pty',
    keys: { sink: keys, from: PERSON_KEYS },
    on: {
      resized: () => undefined,
      command: () => undefined,
      detach: () => undefined,
      edit: () => undefined,
    },
    relay,
    screen: model.emulator,
  });
  t.teardown(() => face.restore());
  // claude's terminal is the pane's size, as the run server keeps it
  const { cols, rows } = face.size();
  model.resize(cols, rows);
  const started = spawnPty(
    {
      file,
      args: [],
      cwd: tmpdir(),
      env: { ...(process.env as Record<string, string>), KEYS_LOG: log, ECHO: 'plain' },
      cols,
      rows,
    },
    relay,
  );
  claude = started;
  t.teardown(() => void started.terminate(100));
  started.onData((d) => face.show({ t: 'output', data: d }));
  started.onData((d) => model.write(d));
  face.show({ t: 'child', state: 'started' });
  face.show({ t: 'screen', data: '', cols, rows });
  await until('the terminal joins the relay', () => p.terminal.joined);
  await until('the child', () => p.seen().includes('ready'));
  await new Promise((r) => setTimeout(r, 300));
  return { log, model, p, cols, rows };
}

type Screen = InstanceType<typeof xtermHeadless.Terminal>;
// a screen's row y (below what scrolled off it), columns from..from+width-1, trailing blanks cut
const row = (term: Screen, y: number, from: number, width: number) =>
  (
    term.buffer.active.getLine(term.buffer.active.baseY + y)?.translateToString(true, from, from + width) ?? ''
  ).trimEnd();
const paneLeft = 1;
const paneTop = 1;

t.test(
  "claude's plain echo drawn by the relay's thread while the server's JavaScript is busy, where the emulator puts it, wrapping in the pane; anything else drawn by JavaScript; the terminal shows what the emulator holds",
  async (t) => {
    const { log, model, p, cols } = await splitWithPlainEcho(t);

    const typedWhileHeld = async (key: string): Promise<string> => {
      const mark = p.seen().length;
      p.typeNow(key);
      hold(300, () => false); // the server's JavaScript held: no frame of its can be drawn meanwhile
      await until(`the echo of ${JSON.stringify(key)}`, () => p.seen().length > mark && !p.seen().endsWith('\u001b'));
      await new Promise((r) => setTimeout(r, 50));
      return p.seen().slice(mark);
    };
    const x = await typedWhileHeld('x');
    t.ok(
      x.startsWith('x'),
      `the echo is on the terminal before any frame of JavaScript's: ${JSON.stringify(x.slice(0, 40))}`,
    );
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
    const emulator = model.emulator.term;
    for (let y = 0; y < 4; y++)
      t.equal(
        row(shown, paneTop + y, paneLeft, cols),
        row(emulator, y, 0, cols),
        `pane row ${y} as the emulator has it`,
      );
    t.match(row(emulator, 0, 0, cols), /^ready/, 'the test types where it means to');
    t.equal(
      row(emulator, 1, 0, cols) + row(emulator, 2, 0, 10),
      `xr${line}`.slice(0, cols + 10),
      'the wrapped line, in the emulator',
    );
    shown.dispose();
  },
);

t.test(
  "a paste at the bottom of claude's pane: the relay scrolls the pane, puts back the document pane and the borders beside it, and draws the paste, while the server's JavaScript is busy",
  async (t) => {
    const size = { cols: 140, rows: 40 };
    const { log, model, p, cols, rows } = await splitWithPlainEcho(t, size);
    const emulator = model.emulator.term;
    // down to the pane's last row (a control's echo: drawn by JavaScript)
    for (let i = 0; i < rows; i++) {
      p.typeNow('\r\n');
      await new Promise((r) => setTimeout(r, 20));
    }
    await until(
      "claude's cursor on its last row",
      () => emulator.buffer.active.cursorY === rows - 1 && readFileSync(log, 'utf8').length >= rows * 2,
    );
    await new Promise((r) => setTimeout(r, 300));
    const shown = new xtermHeadless.Terminal({ ...size, allowProposedApi: true });
    t.teardown(() => shown.dispose());
    const feed = (data: string) => new Promise<void>((r) => shown.write(data, r));
    await feed(p.seen());
    const screen = () => Array.from({ length: size.rows }, (_, y) => row(shown, y, 0, size.cols).padEnd(size.cols));
    const before = screen();
    t.ok(cols < size.cols - 40, `the document pane beside claude's (${cols} of ${size.cols} columns)`);
    t.match(before.map((line) => line.slice(cols + 2)).join('\n'), /starting/, 'showing its note');

    // (its last characters are its own: where they are is where the relay's last write ends)
    const paste = 'The quick brown fox jumps over the lazy dog 0123456789 '.repeat(5).slice(0, 2 * cols) + '#paste#';
    const mark = p.seen().length;
    p.typeNow(paste);
    hold(300, () => false); // the server's JavaScript held: no frame of its can be drawn meanwhile
    await until('the paste in claude', () => readFileSync(log, 'utf8').endsWith(paste));
    await until(
      "the paste in the run server's emulator",
      () => row(emulator, rows - 1, 0, cols) === paste.slice(2 * cols).trimEnd(),
    );
    const tail = paste.slice(-7);
    await until('the paste on the terminal', () => p.seen().slice(mark).includes(tail));
    const after = p.seen().slice(mark);
    const drawn = after.indexOf(tail);
    t.ok(drawn >= 0, 'the paste drawn');
    const relayed = after.slice(0, drawn + tail.length);
    t.ok(
      relayed.startsWith(`\u001b[${paneTop + 1};${paneTop + rows}r`) || relayed.startsWith('\u001b[?2026h'),
      `drawn by the relay first, a scroll of the pane's rows: ${JSON.stringify(relayed.slice(0, 30))}`,
    );
    t.equal(
      (relayed.match(/\n/g) ?? []).length,
      2,
      'two rows scrolled (in the one chunk or the several claude echoed it in)',
    );

    // What the relay's bytes leave on the terminal: the document pane and the borders as they were, the pane
    // as the emulator has it.
    await feed(relayed);
    const check = (what: string) => {
      const now = screen();
      for (let y = 0; y < size.rows; y++) {
        const inPane = y >= paneTop && y < paneTop + rows;
        const beside = (line: string) => (inPane ? line.slice(0, paneLeft) + line.slice(paneLeft + cols) : line);
        t.equal(beside(now[y]!), beside(before[y]!), `${what}: row ${y} beside the pane as it was`);
        if (inPane)
          t.equal(
            now[y]!.slice(paneLeft, paneLeft + cols).trimEnd(),
            row(emulator, y - paneTop, 0, cols),
            `${what}: pane row ${y - paneTop} as the emulator has it`,
          );
      }
    };
    check('the relay');
    // and once JavaScript has drawn its frames after it
    await new Promise((r) => setTimeout(r, 300));
    await feed(p.seen().slice(mark + relayed.length));
    check('then JavaScript');
  },
);
