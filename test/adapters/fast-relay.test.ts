// The native relay (native/fast-relay.c through src/adapters/fast-relay.ts), on real ptys: it is
// built; its title filter is title-filter.ts byte for byte; a joined terminal's keys reach claude
// and claude's output reaches the terminal without JavaScript, titles taken out, while JavaScript
// still hears every byte; the detach key alone is held back; output read while a terminal joins is
// sent to it exactly once; a paste claude does not read yet never stops the event loop and keeps its
// place before later keys (through the relay, and through its own queue without it); a slow terminal holds claude back, a stopped one does not; the pty goes back to its stream when the last terminal leaves; a
// terminal that stops reading grows a backlog instead of stopping the relay; a child's end is heard; a
// terminal joined for its keys alone (a split view) sends claude only what its pass table lets through
// while JavaScript keeps it open, gets none of claude's output, and keeps every other key in order.
import t, { type Test } from 'tap';
import { spawn } from '@lydell/node-pty';
import { writeFileSync, writeSync, readFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { openFastRelay, nativeTitleFilter, type FastRelay } from '../../src/adapters/fast-relay.js';
import { spawnPty, type PtySession } from '../../src/adapters/pty-session.js';
import { openClientTerminal, type ClientTerminal } from '../../src/adapters/client-terminal.js';
import { createTitleFilter } from '../../src/core/screen/title-filter.js';
import { passThroughTable } from '../../src/core/screen/keymap.js';
import { envSwitch } from '../../src/adapters/config-file.js';
import { untilWithin } from '../helpers/poll.js';
import { spawn as spawnProcess } from 'node:child_process';
import { MAX_PENDING_INPUT_BYTES } from '../../src/core/server/input-ceiling.js';

const until = untilWithin(5_000, 5);

// claude's stand-in: raw mode, echoes each read; "t" prints a title, "s" prints "slow" after 300 ms
// (with RELAY_TEST_KEYS, every read is also appended to that file: what claude got, read while JavaScript is held)
const CHILD = `#!/usr/bin/env node
import { appendFileSync } from 'node:fs';
process.stdin.setRawMode(true);
process.stdout.write('ready\\r\\n');
let ks = 0;
process.stdin.on('data', (d) => {
  const s = d.toString();
  if (process.env.RELAY_TEST_KEYS) appendFileSync(process.env.RELAY_TEST_KEYS, s);
  if (s === 'q') process.exit(0);
  // "p": stop reading for a while (claude busy while a paste waits); k's are counted, not echoed
  if (s === 'p') {
    process.stdin.pause();
    setTimeout(() => process.stdin.resume(), 1500);
    return process.stdout.write('(paused)');
  }
  if (/^[kZ]+$/.test(s)) {
    for (const c of s) {
      if (c === 'k') ks++;
      else process.stdout.write('[Z after ' + ks + ' k]');
    }
    return;
  }
  if (s === 't') return process.stdout.write('<\\u001b]0;claude title\\u0007>');
  if (s === 'f') return process.stdout.write('y'.repeat(4 * 1024 * 1024));
  process.stdout.write('[' + s + ']');
});
`;

function child(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'flower-relay-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'child.mjs');
  writeFileSync(path, CHILD);
  chmodSync(path, 0o755);
  return path;
}

// a person's terminal: a pty whose slave a program holds; `seen` is what reached its screen
function personTerminal(t: Test) {
  const pty = spawn('sleep', ['600'], { cols: 80, rows: 24 });
  t.teardown(() => pty.kill('SIGKILL'));
  let seen = '';
  pty.onData((d) => (seen += d));
  const terminal = openClientTerminal((pty as unknown as { _pty: string })._pty);
  t.teardown(() => terminal.close());
  terminal.input.setRawMode(true);
  // `typeNow`: straight onto the pty's master, without a turn of this event loop
  const master = (pty as unknown as { _fd: number })._fd;
  return {
    pty,
    terminal,
    seen: () => seen,
    type: (keys: string) => pty.write(keys),
    typeNow: (keys: string) => writeSync(master, keys),
  };
}

// The build under test: dist/native's (an eventfd on Linux), or the one fast-relay-pipe.test.ts built
// with the self-pipe wake-up that macOS gets, run through this same file.
const ADDON_UNDER_TEST = process.env.FLOWER_PTY_TEST_RELAY_ADDON || undefined;
const WAKE_UNDER_TEST = ADDON_UNDER_TEST ? 'pipe' : process.platform === 'linux' ? 'eventfd' : 'pipe';

function relayFor(t: Test): FastRelay {
  const relay = openFastRelay(ADDON_UNDER_TEST);
  if (!relay) throw new Error('the native relay was not built: `npm run build` compiles it (it needs a C compiler)');
  t.teardown(() => relay.close());
  return relay;
}

function claude(
  t: Test,
  relay: FastRelay | null,
  env: Record<string, string> = {},
): { pty: PtySession; heard: () => string } {
  const pty = spawnPty(
    {
      file: child(t),
      args: [],
      cwd: tmpdir(),
      env: { ...(process.env as Record<string, string>), ...env },
      cols: 80,
      rows: 24,
    },
    relay,
  );
  t.teardown(() => void pty.terminate(100));
  let heard = '';
  pty.onData((d) => (heard += d));
  return { pty, heard: () => heard };
}

async function joined(terminal: ClientTerminal, relay: FastRelay, key: string | null, keys: Array<[string, boolean]>) {
  const ok = await terminal.join(relay, {
    key,
    relayed: ({ data }) => keys.push([data, true]),
    input: ({ data }) => keys.push([data, false]),
  });
  if (!ok) throw new Error('the relay refused the terminal');
}

t.test('the relay is built and loads', async (t) => {
  const relay = openFastRelay(ADDON_UNDER_TEST);
  t.ok(relay, `${ADDON_UNDER_TEST ?? 'dist/native/fast-relay.node'} loads (npm run build)`);
  t.equal(
    relay?.wake,
    WAKE_UNDER_TEST,
    `the build under test wakes its thread with ${WAKE_UNDER_TEST === 'pipe' ? 'a self-pipe' : 'an eventfd'}`,
  );
  relay?.close();
  t.equal(
    envSwitch({ FLOWER_PTY_NO_NATIVE: '1' }, 'FLOWER_PTY_NO_NATIVE'),
    true,
    'FLOWER_PTY_NO_NATIVE=1 turns it off',
  );
  t.equal(envSwitch({}, 'FLOWER_PTY_NO_NATIVE'), false);
  t.throws(
    () => envSwitch({ FLOWER_PTY_NO_NATIVE: 'maybe' }, 'FLOWER_PTY_NO_NATIVE'),
    /FLOWER_PTY_NO_NATIVE expects true or false, got "maybe"/,
  );
});

t.test('the native title filter is title-filter.ts, chunk by chunk', async (t) => {
  const filter = nativeTitleFilter();
  if (!filter) throw new Error('the native relay was not built');
  // pieces that make and break title sequences at every place a chunk can cut them
  const pieces = [
    '\u001b]0;',
    '\u001b]1;',
    '\u001b]2;',
    '\u001b]7;',
    '\u001b]0',
    '\u001b]',
    '\u001b',
    ']',
    '0',
    ';',
    'ab',
    '\u0007',
    '\u001b\\',
    '\\',
    'x'.repeat(3000),
    'é'.repeat(700),
    '😀',
    '\r\n',
    '\u001b[1m',
  ];
  let seed = 42;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let run = 0; run < 400; run++) {
    const chunks: string[] = [];
    for (let c = 0, n = 1 + random(6); c < n; c++) {
      let chunk = '';
      for (let p = 0, m = random(12); p < m; p++) chunk += pieces[random(pieces.length)];
      chunks.push(chunk);
    }
    const ts = createTitleFilter();
    const expected = chunks.map((chunk) => ts.push(chunk).output);
    const got = filter(chunks.map((chunk) => Buffer.from(chunk, 'utf8'))).map((b) => b.toString('utf8'));
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      t.same(got, expected, `chunks ${JSON.stringify(chunks).slice(0, 400)}`);
      return;
    }
  }
  t.pass('400 random chunk sequences filtered alike');
});

// Bytes that are not UTF-8: JavaScript sees a U+FFFD for each stray byte and counts it, so the native filter
// must count it too (it once counted a continuation byte as nothing, held an unterminated "title" of them
// without bound and wrote past its buffer). Chunks end on a character's boundary here, as the pieces do above.
t.test(
  'the native title filter is title-filter.ts on bytes that are not UTF-8, and holds a title of them no longer',
  async (t) => {
    const filter = nativeTitleFilter();
    if (!filter) throw new Error('the native relay was not built');
    const pieces = [
      ...['\u001b]0;', '\u001b]2;', '\u001b', ']', '\u0007', '\u001b\\', 'ab', '😀'].map((s) => Buffer.from(s)),
      ...[
        [0x80],
        [0xff],
        [0xe2, 0x82, 0x61],
        [0xf0, 0x9f, 0x1b],
        [0xf0, 0x80, 0x07],
        [0xed, 0xa0, 0x80],
        [0xc0, 0xaf],
      ].map((b) => Buffer.from(b)),
      Buffer.alloc(2000, 0x80),
      Buffer.from(`${'\u00e2'.repeat(1500)}a`, 'latin1'),
    ];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const compare = (chunks: Buffer[]): boolean => {
      const ts = createTitleFilter();
      const decoder = new StringDecoder('utf8');
      const expected = chunks.map((chunk) => ts.push(decoder.write(chunk)).output);
      return t.same(
        filter(chunks).map((b) => b.toString('utf8')),
        expected,
        `chunks ${JSON.stringify(chunks.map((c) => c.toString('latin1'))).slice(0, 300)}`,
      );
    };
    for (let run = 0; run < 400; run++) {
      const chunks: Buffer[] = [];
      for (let c = 0, n = 1 + random(6); c < n; c++) {
        const parts: Buffer[] = [];
        for (let p = 0, m = random(10); p < m; p++) parts.push(pieces[random(pieces.length)]!);
        chunks.push(Buffer.concat(parts));
      }
      if (!compare(chunks)) return;
    }
    // The break: 65,532 stray bytes after a title's start, 65,536 more, then 5,000 letters.
    const bomb = [
      Buffer.from('\u001b]0;'),
      Buffer.alloc(65_532, 0x80),
      Buffer.alloc(65_536, 0x80),
      Buffer.alloc(5_000, 0x61),
    ];
    compare(bomb);
    t.same(
      filter(bomb).map((b) => b.length),
      [0, 65_536, 65_536, 5_000],
      'past 4,096 stray bytes the "title" goes through, and nothing more is held',
    );
  },
);

t.test(
  'a joined terminal: keys to claude and its echo back without JavaScript, titles out, every byte still heard',
  async (t) => {
    const relay = relayFor(t);
    const { pty, heard } = claude(t, relay);
    await until('the child', () => heard().includes('ready'));
    const person = personTerminal(t);
    const keys: Array<[string, boolean]> = [];
    await joined(person.terminal, relay, '\u001d', keys);
    t.ok(person.terminal.joined);

    person.type('a');
    await until('the echo at the terminal', () => person.seen().includes('[a]'));
    await until('the echo heard by JavaScript', () => heard().includes('[a]'));
    t.same(keys, [['a', true]], 'JavaScript is told of the key, as sent');

    person.type('t');
    await until('the title heard by JavaScript', () => heard().includes('claude title'));
    await until('the text around it at the terminal', () => person.seen().includes('<>'));
    t.notOk(person.seen().includes('claude title'), "the terminal does not get claude's title");

    person.type('\u001d');
    await until('the detach key', () => keys.length === 3);
    t.same(keys[2], ['\u001d', false], "the detach key alone is JavaScript's");
    person.type('b');
    await until('the next echo', () => person.seen().includes('[b]'));
    t.notOk(heard().includes('[\u001d]'), 'claude never got the detach key');

    person.terminal.write('(written by JavaScript)');
    await until('a write through the relay', () => person.seen().includes('(written by JavaScript)'));
    t.equal(person.terminal.backlog(), 0, 'nothing left waiting');
    pty.write('c'); // a write from JavaScript goes through the relay while it holds the pty
    await until('its echo', () => person.seen().includes('[c]'));
  },
);

t.test('output read while a terminal joins reaches it exactly once', async (t) => {
  const relay = relayFor(t);
  const { heard } = claude(t, relay);
  await until('the child', () => heard().includes('ready'));
  const first = personTerminal(t);
  await joined(first.terminal, relay, null, []);
  const second = personTerminal(t);
  first.type('m');
  // The event loop is held while the relay reads the echo, so the second terminal joins with that
  // echo read but not yet heard by JavaScript: only the relay can give it to the second terminal.
  const end = performance.now() + 400;
  while (performance.now() < end) {
    // busy: no event is handed to JavaScript meanwhile
  }
  const before = heard();
  const joining = second.terminal.join(relay, { key: null, relayed: () => undefined, input: () => undefined });
  t.notOk(before.includes('[m]'), 'JavaScript had not heard the echo when the terminal joined');
  t.ok(await joining);
  await until('the echo at the second terminal', () => second.seen().includes('[m]'));
  await until('the echo heard', () => heard().includes('[m]'));
  await new Promise((r) => setTimeout(r, 200));
  t.equal(second.seen().split('[m]').length - 1, 1, 'once, not twice');
});

t.test('the last terminal leaves: the pty goes back to its stream, which reads on', async (t) => {
  const relay = relayFor(t);
  const { pty, heard } = claude(t, relay);
  await until('the child', () => heard().includes('ready'));
  const person = personTerminal(t);
  await joined(person.terminal, relay, null, []);
  person.type('1');
  await until('the echo', () => person.seen().includes('[1]'));
  const rest = await new Promise<void>((resolve) => person.terminal.giveBack(resolve));
  t.equal(rest, undefined);
  t.notOk(person.terminal.joined, 'given back');
  pty.write('2');
  await until('the stream reads again', () => heard().includes('[2]'));
  t.notOk(person.seen().includes('[2]'), 'a terminal given back gets nothing more from the relay');
  // and the relay takes it again for the next terminal
  const next = personTerminal(t);
  await joined(next.terminal, relay, null, []);
  next.type('3');
  await until('the echo through the relay again', () => next.seen().includes('[3]') && heard().includes('[3]'));
});

t.test('a terminal that stops reading grows a backlog; claude and JavaScript go on', async (t) => {
  const relay = relayFor(t);
  const { heard } = claude(t, relay);
  await until('the child', () => heard().includes('ready'));
  const person = personTerminal(t);
  await joined(person.terminal, relay, null, []);
  person.pty.pause(); // ^S: the terminal takes nothing more
  person.type('f'); // 4 MB of output
  await until('the whole stream heard', () => (heard().match(/y/g)?.length ?? 0) >= 4 * 1024 * 1024, 20_000);
  t.ok(person.terminal.backlog() > 0, `a backlog of ${person.terminal.backlog()} bytes waits for the terminal`);
  person.pty.resume();
  await until('the backlog taken', () => person.terminal.backlog() === 0, 20_000);
});

t.test('a terminal that reads slowly holds claude back: it gets every byte, its backlog stays bounded', async (t) => {
  const relay = relayFor(t);
  const { heard } = claude(t, relay);
  await until('the child', () => heard().includes('ready'));
  const person = personTerminal(t);
  await joined(person.terminal, relay, null, []);
  // A reader that takes its output 10 ms in every 100: far slower than the flood comes.
  let most = 0;
  const slow = setInterval(() => {
    most = Math.max(most, person.terminal.backlog());
    person.pty.resume();
    setTimeout(() => person.pty.pause(), 10);
  }, 100);
  t.teardown(() => clearInterval(slow));
  person.pty.pause();
  person.type('f'); // 4 MB of output
  await until('the whole flood at the terminal', () => person.seen().length >= 4 * 1024 * 1024, 60_000);
  clearInterval(slow);
  t.ok(most > 0, `it was behind (${most} bytes at most)`);
  t.ok(most < 1.5 * 1024 * 1024, `never far past the mark of 1 MiB: claude waited for it (${most} bytes at most)`);
});

t.test('the child ending is heard while the relay holds its pty', async (t) => {
  const relay = relayFor(t);
  const { pty, heard } = claude(t, relay);
  await until('the child', () => heard().includes('ready'));
  const person = personTerminal(t);
  await joined(person.terminal, relay, null, []);
  const exit = new Promise((resolve) => pty.onExit(resolve));
  person.type('q');
  const started = Date.now();
  t.same(await exit, { exitCode: 0 });
  t.ok(Date.now() - started < 2_000, "at once, not after node-pty's timeout");
  t.ok(pty.exited);
});

t.test('a pty still held when the next one comes goes back to its own stream, which reads on', async (t) => {
  const relay = relayFor(t);
  const first = claude(t, relay);
  await until('the first child', () => first.heard().includes('ready'));
  const person = personTerminal(t);
  await joined(person.terminal, relay, null, []);
  const second = claude(t, relay); // the relay takes the new pty
  await until('the second child', () => second.heard().includes('ready'));
  person.type('n');
  await until('the new pty is the relayed one', () => second.heard().includes('[n]') && person.seen().includes('[n]'));
  first.pty.write('o');
  await until('the first pty read by its own stream', () => first.heard().includes('[o]'));
  t.notOk(person.seen().includes('[o]'), 'its output no longer goes to the terminal');
});

// A 4 MB paste to a child that stopped reading for 1.5 s, then a key (`typeKey`): the event loop
// beats on, and the key comes after all of the paste. Far more than the pty's buffers take (Linux:
// 640 KiB of flip buffers): through node-pty's own stream this write blocked the whole event loop.
async function pasteWhilePaused(
  t: Test,
  relay: FastRelay | null,
  typeKey: (pty: PtySession) => Promise<void>,
  what: string,
): Promise<void> {
  const { pty, heard } = claude(t, relay);
  await until('the child', () => heard().includes('ready'));
  pty.write('p');
  await until('the child stops reading', () => heard().includes('(paused)'));
  const paste = 4_000_000;
  let gap = 0;
  let last = Date.now();
  const beat = setInterval(() => {
    gap = Math.max(gap, Date.now() - last);
    last = Date.now();
  }, 10);
  t.teardown(() => clearInterval(beat));
  pty.write('k'.repeat(paste));
  await typeKey(pty);
  await until('the child read on', () => heard().includes('[Z after'), 15_000);
  clearInterval(beat);
  t.ok(gap < 700, `the event loop went on while the paste waited (longest gap ${gap} ms; the child paused 1500 ms)`);
  t.match(heard(), new RegExp(`\\[Z after ${paste} k\\]`), `the key ${what} after the paste came after all of it`);
}

t.test(
  'a paste claude is not reading yet: the event loop goes on, and a key typed later still comes after it',
  async (t) => {
    const relay = relayFor(t);
    await pasteWhilePaused(
      t,
      relay,
      async () => {
        const person = personTerminal(t);
        await joined(person.terminal, relay, null, []);
        person.type('Z');
      },
      'typed in a joined terminal',
    );
  },
);

t.test(
  'keys a terminal sends while claude reads nothing wait in the kernel once the input ceiling is queued: the relay holds no more than that, and every key reaches claude when it reads again',
  async (t) => {
    const relay = relayFor(t);
    const { pty, heard } = claude(t, relay);
    await until('the child', () => heard().includes('ready'));
    const person = personTerminal(t);
    await joined(person.terminal, relay, null, []);
    process.kill(pty.pid, 'SIGSTOP'); // claude hung: it reads nothing
    const resume = () => {
      try {
        process.kill(pty.pid, 'SIGCONT');
      } catch {
        // gone already
      }
    };
    t.teardown(resume);
    // Three times the ceiling, typed onto the terminal by another process (its writes block once the
    // kernel's buffers are full, as a person's terminal would), then a Z.
    const total = 3 * MAX_PENDING_INPUT_BYTES;
    const master = (person.pty as unknown as { _fd: number })._fd;
    const writer = spawnProcess('sh', ['-c', `head -c ${total} /dev/zero | tr '\\0' k; printf Z`], {
      stdio: ['ignore', master, 'ignore'],
    });
    t.teardown(() => writer.kill('SIGKILL'));
    let most = 0;
    const watch = () => {
      most = Math.max(most, relay.waitingForClaude);
      return most;
    };
    await untilWithin(20_000, 10)('the ceiling queued for claude', () => watch() >= MAX_PENDING_INPUT_BYTES);
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 20));
      watch();
    }
    t.ok(
      most <= MAX_PENDING_INPUT_BYTES + 65_536,
      `the relay held ${most} bytes for claude at most (the ceiling ${MAX_PENDING_INPUT_BYTES}, and one read past it)`,
    );
    t.equal(writer.exitCode, null, 'the rest waits with the writer, in the kernel');
    resume();
    await untilWithin(60_000, 20)('every key in claude', () => heard().includes(`[Z after ${total} k]`));
    t.pass('claude got every key, then the Z');
  },
);

t.test(
  'without the relay (FLOWER_PTY_NO_NATIVE=1, no compiler) a paste claude is not reading never stops the event loop either',
  async (t) => {
    await pasteWhilePaused(t, null, async (pty) => pty.write('Z'), 'written');
  },
);

t.test(
  "a claude's keys go through the relay while it is the claude adopted last; the one before takes its own way",
  async (t) => {
    const relay = relayFor(t);
    const first = claude(t, relay);
    await until('the first child', () => first.heard().includes('ready'));
    first.pty.write('a');
    await until('its echo', () => first.heard().includes('[a]'));
    const second = claude(t, relay);
    await until('the second child', () => second.heard().includes('ready'));
    second.pty.write('b');
    await until('the newer claude has it', () => second.heard().includes('[b]'));
    t.notOk(first.heard().includes('[b]'), 'not the one before');
    first.pty.write('c');
    await until('the one before has its own', () => first.heard().includes('[c]'));
    t.notOk(second.heard().includes('[c]'), 'not the newer one');
    second.pty.write('q');
    await until('the second child gone', () => second.pty.exited);
    second.pty.write('d'); // released: written nowhere, and nothing throws
  },
);

// This thread held (no turn of the event loop, so no JavaScript of the relay's runs) for `ms`, or until `ok`.
function hold(ms: number, ok: () => boolean = () => false): boolean {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (const end = performance.now() + ms; performance.now() < end; Atomics.wait(cell, 0, 0, 5)) if (ok()) return true;
  return ok();
}

// A relay, a claude that logs the keys it gets (`got`) and answers `[keys]`, and a person's terminal.
async function keysClaude(t: Test) {
  const relay = relayFor(t);
  const dir = mkdtempSync(join(tmpdir(), 'flower-relay-keys-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, 'keys');
  writeFileSync(log, '');
  const got = () => readFileSync(log, 'utf8');
  const { pty, heard } = claude(t, relay, { RELAY_TEST_KEYS: log });
  await until('the child', () => heard().includes('ready'));
  return { relay, pty, got, heard, person: personTerminal(t) };
}

t.test(
  "a terminal joined for its keys alone: text of the pass table goes to claude without JavaScript while open; any other read is JavaScript's, and later keys wait behind it",
  async (t) => {
    const { relay, pty, got, heard, person } = await keysClaude(t);
    const keys: Array<[string, boolean]> = [];
    // JavaScript's side, as the split view's: what the relay hands over goes to claude by JavaScript's own
    // write, and the pass-through opens again once it is through with it
    const echoedFirst: string[] = [];
    let last = 0;
    const ok = await person.terminal.join(relay, {
      key: null,
      relayed: ({ data, held }) => {
        keys.push([data, true]);
        last = held;
        if (heard().includes(`[${data}]`)) echoedFirst.push(data);
      },
      input: ({ data, held }) => {
        keys.push([data, false]);
        last = held;
        pty.write(data);
        person.terminal.passKeys(held, true);
      },
      pass: passThroughTable(),
    });
    t.ok(ok, 'joined');

    person.type('a');
    await until('the first key heard', () => keys.length === 1);
    t.same(keys[0], ['a', false], "the pass-through starts closed: the first key is JavaScript's");
    await until('claude has it', () => got() === 'a');

    person.typeNow('xy');
    t.ok(
      hold(5_000, () => got() === 'axy'),
      'text in the table reached claude while this thread was held: no JavaScript on its way',
    );
    await until('JavaScript hears of it', () => keys.length === 2);
    t.same(keys[1], ['xy', true], 'told afterwards, as forwarded');
    t.same(echoedFirst, [], "told before claude's echo of it is handed over");

    // The prefix key, a mouse report, an escape sequence, each a read of its own (as a rule: a loaded
    // machine may join two), then a key typed before JavaScript could open the table again
    const text = (from: number) =>
      keys
        .slice(from)
        .map(([data]) => data)
        .join('');
    for (const [special, after] of [
      ['\u001d', 'b'],
      ['\u001b[<0;10;5M', 'c'],
      ['\u001b[A', 'd'],
    ] as const) {
      const from = keys.length;
      person.typeNow(special);
      hold(60);
      person.typeNow(after);
      hold(60); // read by the relay while JavaScript still holds the read before it
      await until('both heard', () => text(from) === special + after);
      t.ok(
        keys.slice(from).every(([, forwarded]) => !forwarded),
        `${JSON.stringify(special)} not forwarded, nor the key behind it`,
      );
    }
    await until('claude has them all', () => got().length === 'axy\u001db\u001b[<0;10;5Mc\u001b[Ad'.length);
    t.equal(got(), 'axy\u001db\u001b[<0;10;5Mc\u001b[Ad', 'claude got every key in the order typed');
    t.notOk(person.seen().includes('[xy]'), "the terminal gets nothing of claude's output (its caller draws it)");
    t.ok(heard().includes('[xy]'), 'JavaScript still hears all of it');

    person.typeNow('e');
    t.ok(
      hold(5_000, () => got().endsWith('de')),
      'open again once JavaScript was through with every read',
    );
    await until('heard', () => keys.some(([data, forwarded]) => data === 'e' && forwarded));

    person.typeNow('kk'); // claude counts these and answers nothing: told all the same
    await until('keys with no answer told', () => keys.some(([data, forwarded]) => data === 'kk' && forwarded));

    person.terminal.passKeys(0, false); // a stale count (reads were handed over since): changes nothing
    person.typeNow('v');
    t.ok(
      hold(5_000, () => got().endsWith('v')),
      'still open after a stale call',
    );
    await until('heard', () => keys.some(([data]) => data === 'v'));
    person.terminal.passKeys(last, false); // closed by JavaScript (the document pane has the keys)
    person.typeNow('w');
    await until('the closed key heard', () => keys.some(([data]) => data === 'w'));
    t.same(keys.at(-1), ['w', false], "closed by JavaScript: the key is JavaScript's");
  },
);

t.test('a terminal joined for its keys alone is not read while its stream is paused (an editor has it)', async (t) => {
  const relay = relayFor(t);
  const { heard } = claude(t, relay);
  await until('the child', () => heard().includes('ready'));
  const person = personTerminal(t);
  const keys: Array<[string, boolean]> = [];
  t.ok(
    await person.terminal.join(relay, {
      key: null,
      relayed: ({ data }) => void keys.push([data, true]),
      input: ({ data }) => void keys.push([data, false]),
      pass: passThroughTable(),
    }),
  );
  person.terminal.passKeys(0, true);
  person.terminal.input.pause();
  person.type('e');
  await new Promise((r) => setTimeout(r, 200));
  t.same(keys, [], 'the relay left the key for the editor');
  person.terminal.input.resume();
  await until('read again', () => keys.length === 1);
  t.same(keys, [['e', false]], 'read once resumed, and the pass-through stays closed until JavaScript opens it');
});

t.test(
  'keys forwarded to a terminal joined with `typed`: told `typed` before their echo is handed over, told to `input` after it; keys with no echo told all the same, and in order with the reads JavaScript routes',
  async (t) => {
    const { relay, pty, got, heard, person } = await keysClaude(t);
    const events: string[] = [];
    let typedBeforeEcho = 0;
    let toldAfterEcho = 0;
    const ok = await person.terminal.join(relay, {
      key: null,
      relayed: ({ data }) => {
        events.push(`told:${data}`);
        if (heard().includes(`[${data}]`)) toldAfterEcho++;
      },
      input: ({ data, held }) => {
        events.push(`read:${data}`);
        pty.write(data);
        person.terminal.passKeys(held, true);
      },
      pass: passThroughTable(),
      typed: () => {
        events.push('typed');
        if (!heard().includes('[xy]')) typedBeforeEcho++;
      },
    });
    t.ok(ok, 'joined');

    person.type('a'); // the pass-through starts closed: JavaScript's, and it opens the table
    await until('claude has it', () => got() === 'a');
    person.typeNow('xy');
    await until('told', () => events.includes('told:xy'));
    t.same(events.slice(-2), ['typed', 'told:xy'], '`typed` first, then the keys themselves');
    t.equal(typedBeforeEcho, 1, '`typed` came before the echo was handed over');
    t.equal(toldAfterEcho, 1, 'the keys were told after their echo was handed over');

    person.typeNow('kk'); // claude counts these and answers nothing: told all the same
    await until('keys with no answer told', () => events.includes('told:kk'));

    // a forwarded key, then a read JavaScript routes, in one turn: the run hears them in the order typed
    const from = events.length;
    person.typeNow('m');
    t.ok(
      hold(5_000, () => got().endsWith('m')),
      'forwarded',
    );
    person.typeNow('\u001b[A');
    hold(60);
    await until('both heard', () => events.slice(from).some((e) => e.startsWith('read:')));
    const order = events.slice(from).filter((e) => e !== 'typed');
    t.same(order.slice(0, 2), ['told:m', 'read:\u001b[A'], 'the forwarded key is told before the read behind it');
  },
);
