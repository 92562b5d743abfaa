// Tests for the wire protocol: frames round-trip, the reader is deaf to how the stream is cut, and
// garbage (random bytes, huge lengths, cut frames, deep or huge JSON) gives one error, never a throw.
import t from 'tap';
import {
  MAX_FRAME_BYTES,
  WIRE_VERSION,
  createFrameReader,
  encodeFrame,
  parseClientMessage,
  parseServerMessage,
  versionMismatchReason,
  type ClientMessage,
  type RunInfo,
  type ServerMessage,
} from '../../src/server/wire.js';
import type { StatusView } from '../../src/runtime/face.js';

// a small seeded generator (mulberry32) so a failing case can be replayed
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const view: StatusView = {
  phase: 'review',
  context: 150_000,
  window: 200_000,
  at: 0.8,
  warnAt: 0.7,
  generation: 2,
  maxGenerations: 20,
  handoff: true,
  reviewLeft: 42,
  held: false,
  workbench: '/w/.flower',
  documentPath: '/w/.flower/notes/001.md',
  note: 'froze the document',
  attention: 'parked until 03:04',
};
const run: RunInfo = {
  id: 'a1b2c3',
  pid: 4242,
  cwd: '/home/u/proj',
  workbench: '/home/u/proj/.flower',
  step: 'step-1',
  started: '2026-12-01T04:00:00.000Z',
  clients: 1,
  generation: 2,
  phase: 'review',
  context: 150_000,
  window: 200_000,
  status: view,
};

const clientMessages: ClientMessage[] = [
  { t: 'hello', version: WIRE_VERSION, role: 'attach', cols: 200, rows: 60, face: 'split' },
  { t: 'hello', version: WIRE_VERSION, role: 'query' },
  {
    t: 'hello',
    version: WIRE_VERSION,
    role: 'attach',
    cols: 80,
    rows: 24,
    face: 'plain',
    tty: '/dev/pts/3',
    starter: true,
    term: 'xterm-256color',
    noColor: false,
    prefix: 'C-b',
    detachKey: '\u001d',
    documentPath: '/w/doc.md',
  },
  {
    t: 'hello',
    version: WIRE_VERSION,
    role: 'attach',
    cols: 80,
    rows: 24,
    face: 'split',
    tty: '/dev/pts/4',
    term: 'xterm-ghostty',
    colorterm: 'truecolor',
    termProgram: 'ghostty',
    tmux: true,
  },
  { t: 'edited', ok: true },
  { t: 'edited', ok: false, problem: 'the editor "vi" ended with code 1' },
  { t: 'input', data: 'héllo 交接 😀\x1b[A\r' },
  { t: 'resize', cols: 80, rows: 24 },
  { t: 'command', command: 'force-handoff' },
  { t: 'detach' },
  { t: 'info' },
  { t: 'kill' },
  { t: 'repaint' },
];
const serverMessages: ServerMessage[] = [
  { t: 'welcome', version: WIRE_VERSION, run },
  { t: 'welcome', version: WIRE_VERSION, run: { ...run, workbench: null, status: null } },
  { t: 'welcome', version: WIRE_VERSION, run, direct: true },
  { t: 'welcome', version: WIRE_VERSION, run, repaint: true },
  { t: 'edit', path: '/w/doc.md' },
  { t: 'refused', reason: versionMismatchReason(0) },
  { t: 'screen', data: '\x1b[H\x1b[2J\x1b[1;31mred 😀', cols: 200, rows: 60 },
  { t: 'output', data: 'out\r\n' },
  { t: 'title', title: '✳ claude' },
  { t: 'status', view },
  { t: 'document', path: '/w/doc.md', text: '# Handoff\n' },
  { t: 'document', path: '/w/doc.md', text: null },
  { t: 'message', text: 'generation 2 starts' },
  { t: 'child', state: 'ended' },
  { t: 'info', run },
  { t: 'bye', reason: 'killed', exitCode: 0, message: 'run a1b2c3 ended' },
  { t: 'bye', reason: 'detached' },
];

function frameOf(payload: string | Buffer): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}

function collect<M>(validate: (v: unknown) => M | null, maxBytes?: number) {
  const messages: M[] = [];
  const errors: string[] = [];
  const reader = createFrameReader<M>({
    maxBytes,
    validate,
    onMessage: (m) => messages.push(m),
    onError: (e) => errors.push(e),
  });
  return { reader, messages, errors };
}

function splitRandomly(stream: Buffer, random: () => number): Buffer[] {
  const pieces: Buffer[] = [];
  let at = 0;
  while (at < stream.length) {
    // mostly tiny pieces (headers cut in two), sometimes big ones
    const size = random() < 0.7 ? 1 + Math.floor(random() * 6) : 1 + Math.floor(random() * 400);
    pieces.push(stream.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

t.test('every message round-trips through a frame and its guard', async (t) => {
  const c = collect(parseClientMessage);
  for (const m of clientMessages) c.reader.push(encodeFrame(m));
  t.same(c.messages, clientMessages);
  const s = collect(parseServerMessage);
  for (const m of serverMessages) s.reader.push(encodeFrame(m));
  t.same(s.messages, serverMessages);
  t.same([...c.errors, ...s.errors], []);
  t.equal(
    encodeFrame({ t: 'info' }).readUInt32BE(0),
    Buffer.byteLength('{"t":"info"}'),
    'the header is the payload length, big-endian',
  );
});

t.test('random chunk splits of a valid stream give the same messages', async (t) => {
  const stream = Buffer.concat(serverMessages.map(encodeFrame));
  for (let seed = 1; seed <= 300; seed++) {
    const random = rng(seed);
    const s = collect(parseServerMessage);
    for (const piece of splitRandomly(stream, random)) s.reader.push(piece);
    s.reader.end();
    if (JSON.stringify(s.messages) !== JSON.stringify(serverMessages) || s.errors.length > 0) {
      t.fail(`seed ${seed}: ${s.messages.length} messages, errors ${JSON.stringify(s.errors)}`);
      return;
    }
  }
  t.pass('300 random splits agree');
  const bytewise = collect(parseServerMessage);
  for (let i = 0; i < stream.length; i++) bytewise.reader.push(stream.subarray(i, i + 1));
  t.same(bytewise.messages, serverMessages, 'one byte at a time');
});

t.test('random bytes never throw and give exactly one error', async (t) => {
  for (let seed = 1; seed <= 500; seed++) {
    const random = rng(seed * 7919);
    const noise = Buffer.alloc(1 + Math.floor(random() * 300));
    for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(random() * 256);
    // half the cases carry a plausible small length so the payload itself is garbage
    if (seed % 2 === 0 && noise.length > 4) noise.writeUInt32BE(Math.floor(random() * (noise.length - 4)), 0);
    const c = collect(parseClientMessage, 1024);
    try {
      for (const piece of splitRandomly(noise, random)) c.reader.push(piece);
      c.reader.push(encodeFrame({ t: 'info' })); // nothing after an error is read
      c.reader.end();
    } catch (error) {
      t.fail(`seed ${seed} threw ${String(error)}`);
      return;
    }
    if (c.errors.length !== 1 || c.messages.some((m) => typeof m !== 'object')) {
      t.fail(`seed ${seed}: ${c.errors.length} errors: ${JSON.stringify(c.errors)}`);
      return;
    }
  }
  t.pass('500 noise streams, one error each');
});

t.test('a huge declared length is refused at once, allocating nothing for it', async (t) => {
  const sizes: number[] = [];
  const realAllocUnsafe = Buffer.allocUnsafe;
  const realAlloc = Buffer.alloc;
  Buffer.allocUnsafe = ((n: number) => (sizes.push(n), realAllocUnsafe(n))) as typeof Buffer.allocUnsafe;
  Buffer.alloc = ((n: number, ...rest: never[]) => (sizes.push(n), realAlloc(n, ...rest))) as typeof Buffer.alloc;
  try {
    const c = collect(parseClientMessage);
    c.reader.push(Buffer.from([0xff, 0xff]));
    c.reader.push(Buffer.from([0xff, 0xff, 0x7b]));
    t.equal(c.errors.length, 1);
    t.match(c.errors[0], /4294967295 bytes is over the 8388608-byte limit/);
    const d = collect(parseClientMessage);
    const over = Buffer.alloc(4);
    over.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
    d.reader.push(over);
    t.equal(d.errors.length, 1, 'one byte over the limit is refused before the payload arrives');
  } finally {
    Buffer.allocUnsafe = realAllocUnsafe;
    Buffer.alloc = realAlloc;
  }
  t.ok(
    sizes.every((n) => n <= 4),
    `the reader allocated only header-sized buffers (${JSON.stringify(sizes)})`,
  );
});

t.test('the limit itself: a frame of exactly maxBytes passes, one more is refused', async (t) => {
  const body = JSON.stringify({ t: 'input', data: '' });
  const pad = 'x'.repeat(100 - body.length);
  const exact = JSON.stringify({ t: 'input', data: pad });
  t.equal(Buffer.byteLength(exact), 100);
  const ok = collect(parseClientMessage, 100);
  ok.reader.push(frameOf(exact));
  t.same(ok.messages, [{ t: 'input', data: pad }]);
  const over = collect(parseClientMessage, 99);
  over.reader.push(frameOf(exact));
  t.same(over.messages, []);
  t.equal(over.errors.length, 1);
  t.throws(
    () => encodeFrame({ t: 'output', data: 'y'.repeat(MAX_FRAME_BYTES) }),
    RangeError,
    'the sender will not frame what the reader refuses',
  );
});

t.test('a frame cut anywhere and then hung up gives the earlier messages and one error', async (t) => {
  const whole = encodeFrame({ t: 'input', data: 'abc' });
  for (let cut = 1; cut < whole.length; cut++) {
    const c = collect(parseClientMessage);
    c.reader.push(encodeFrame({ t: 'info' }));
    c.reader.push(whole.subarray(0, cut));
    t.same(c.errors, [], `cut at ${cut}: nothing wrong yet, it may still come`);
    c.reader.end();
    c.reader.end();
    t.same(c.messages, [{ t: 'info' }]);
    t.equal(c.errors.length, 1, `cut at ${cut}: one error`);
  }
  const clean = collect(parseClientMessage);
  clean.reader.push(whole);
  clean.reader.end();
  t.same(clean.errors, [], 'hanging up between frames is no error');
});

t.test('deep and huge JSON never throw', async (t) => {
  const depth = 500_000;
  const deepArray = collect(parseClientMessage);
  deepArray.reader.push(frameOf('['.repeat(depth) + ']'.repeat(depth)));
  t.equal(deepArray.errors.length, 1, 'a deep array is not a message');
  const deepObject = collect(parseClientMessage);
  deepObject.reader.push(frameOf(`{"t":"input","data":"x","junk":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`));
  t.same(deepObject.messages, [{ t: 'input', data: 'x' }], 'unknown fields, however deep, are dropped');
  const unclosed = collect(parseClientMessage);
  unclosed.reader.push(frameOf('{"t":"input","data":' + '['.repeat(depth)));
  t.equal(unclosed.errors.length, 1);
  const huge = 'z'.repeat(7 * 1024 * 1024);
  const big = collect(parseServerMessage);
  big.reader.push(encodeFrame({ t: 'output', data: huge }));
  t.equal(big.messages.length, 1, 'a 7 MiB output frame is under the limit');
  t.equal((big.messages[0] as { data: string }).data.length, huge.length);
});

t.test('not UTF-8, not JSON, not an object, unknown or malformed: one error, then deaf', async (t) => {
  const cases: [string, Buffer][] = [
    ['invalid UTF-8', frameOf(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))],
    [
      'a cut UTF-8 sequence',
      frameOf(Buffer.concat([Buffer.from('{"t":"input","data":"'), Buffer.from([0xe4, 0xba]), Buffer.from('"}')])),
    ],
    ['not JSON', frameOf('{t: input}')],
    ['empty payload', frameOf('')],
    ['a number', frameOf('42')],
    ['null', frameOf('null')],
    ['an array', frameOf('[{"t":"info"}]')],
    ['unknown t', frameOf('{"t":"exec","cmd":"rm -rf /"}')],
    ['no t', frameOf('{"data":"x"}')],
    ['a server message sent to the server', encodeFrame({ t: 'output', data: 'x' })],
  ];
  for (const [name, frame] of cases) {
    const c = collect(parseClientMessage);
    t.doesNotThrow(() => c.reader.push(Buffer.concat([frame, encodeFrame({ t: 'info' })])), name);
    c.reader.push(encodeFrame({ t: 'kill' }));
    t.same(c.messages, [], `${name}: no message gets through`);
    t.equal(c.errors.length, 1, `${name}: one error`);
  }
  const emptyLast = collect(parseClientMessage);
  t.doesNotThrow(
    () => emptyLast.reader.push(frameOf('')),
    'an empty frame that ends the chunk (found by the fuzz test)',
  );
  t.equal(emptyLast.errors.length, 1);
});

t.test('the guards check every field', async (t) => {
  const badClient: unknown[] = [
    { t: 'hello', version: '1', role: 'attach' },
    { t: 'hello', version: 1, role: 'admin' },
    { t: 'hello', version: 1, role: 'attach', cols: 0 },
    { t: 'hello', version: 1, role: 'attach', rows: 1.5 },
    { t: 'hello', version: 1, role: 'attach', face: 'fancy' },
    { t: 'hello', version: 1, role: 'attach', tty: 3 },
    { t: 'hello', version: 1, role: 'attach', tty: `/dev/pts/${'9'.repeat(100)}` },
    { t: 'hello', version: 1, role: 'attach', detachKey: 'ab' },
    { t: 'hello', version: 1, role: 'attach', starter: 'yes' },
    { t: 'edited', ok: 'yes' },
    { t: 'edited', ok: false, problem: 'x'.repeat(2000) },
    { t: 'input', data: 7 },
    { t: 'resize', cols: 80 },
    { t: 'resize', cols: 80, rows: 1e9 },
    { t: 'command', command: 'rm' },
    { t: 'command', command: 'toString' },
  ];
  for (const v of badClient) t.equal(parseClientMessage(v), null, JSON.stringify(v));
  const badServer: unknown[] = [
    { t: 'welcome', version: 1, run: { ...run, pid: '1' } },
    { t: 'welcome', version: 1, run, direct: 'yes' },
    { t: 'welcome', version: 1, run, repaint: 1 },
    { t: 'edit', path: 7 },
    { t: 'welcome', version: 1, run: { ...run, status: { ...view, phase: 'dancing' } } },
    { t: 'info', run: { ...run, status: { ...view, reviewLeft: 'soon' } } },
    { t: 'info', run: { ...run, workbench: 3 } },
    { t: 'status', view: { ...view, held: 'no' } },
    { t: 'screen', data: 'x', cols: 80 },
    { t: 'document', path: '/x' },
    { t: 'child', state: 'paused' },
    { t: 'bye', reason: 'ended', exitCode: '0' },
    { t: 'bye', reason: 'vanished' },
    { t: 'refused' },
  ];
  for (const v of badServer) t.equal(parseServerMessage(v), null, JSON.stringify(v).slice(0, 80));
  t.same(parseClientMessage({ t: 'kill', extra: { a: 1 } }), { t: 'kill' }, 'extra fields are dropped');
  t.match(
    versionMismatchReason(7),
    /^flower-pty \(wire 7\) cannot attach to a run served by another version \(wire 1\); use the same flower-pty$/,
  );
});

t.test("a view's dead-ends count crosses the wire; a wrong type is refused", async (t) => {
  const withCount: ServerMessage = { t: 'status', view: { ...view, deadEnds: '2 failures not in the document' } };
  const c = collect(parseServerMessage);
  c.reader.push(encodeFrame(withCount));
  c.reader.push(encodeFrame({ t: 'status', view: { ...view, deadEnds: 3 } } as unknown as ServerMessage));
  t.same(c.messages, [withCount], 'the count arrives as it was sent');
  t.equal(c.errors.length, 1, 'a count that is not text is refused');
});

t.test("a view's coverage crosses the wire; a wrong type is refused", async (t) => {
  const withCoverage: ServerMessage = { t: 'status', view: { ...view, coverage: 'covers files 3/4, tasks 1/1' } };
  const c = collect(parseServerMessage);
  c.reader.push(encodeFrame(withCoverage));
  c.reader.push(encodeFrame({ t: 'status', view: { ...view, coverage: { files: 3 } } } as unknown as ServerMessage));
  t.same(c.messages, [withCoverage], 'the score arrives as it was sent');
  t.equal(c.errors.length, 1, 'a score that is not text is refused');
});
