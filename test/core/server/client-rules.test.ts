// The run server's rules for its clients, tried directly: whose size claude takes among several terminals,
// when the server's emulator answers claude's queries, how a hello is answered, how the run's end is told.
import t from 'tap';
import {
  arbitrateSize,
  boundedSize,
  emulatorAnswers,
  helloVerdict,
  runEnding,
  MAX_COLS,
  MAX_ROWS,
  type Size,
  type SizeEvent,
  type SizeState,
} from '../../../src/core/server/client-rules.js';

const at = (cols: number, rows: number): Size => ({ cols, rows });
const SCREEN = at(80, 24);

t.test("who sets claude's size: the terminal that attached or typed last; a watcher never", async (t) => {
  const cases: Array<[string, SizeState<string>, SizeEvent<string>, SizeState<string>, Size | null]> = [
    [
      'the first terminal attaches: claude takes its size',
      { latest: null },
      { type: 'attached', client: 'a', watcher: false, size: at(100, 30) },
      { latest: 'a' },
      at(100, 30),
    ],
    [
      'a terminal of the same size: nothing to resize',
      { latest: null },
      { type: 'attached', client: 'a', watcher: false, size: SCREEN },
      { latest: 'a' },
      null,
    ],
    [
      'a terminal with no size yet is followed, claude keeps its own',
      { latest: null },
      { type: 'attached', client: 'a', watcher: false, size: null },
      { latest: 'a' },
      null,
    ],
    [
      'a second terminal attaches: it wins',
      { latest: 'a' },
      { type: 'attached', client: 'b', watcher: false, size: at(120, 40) },
      { latest: 'b' },
      at(120, 40),
    ],
    [
      "a watcher attaches: claude keeps the terminals' size",
      { latest: 'a' },
      { type: 'attached', client: 'w', watcher: true, size: at(200, 60) },
      { latest: 'a' },
      null,
    ],
    [
      'the other terminal types: claude takes its size',
      { latest: 'b' },
      { type: 'typed', client: 'a', watcher: false, size: at(100, 30) },
      { latest: 'a' },
      at(100, 30),
    ],
    [
      'the latest types again: nothing changes',
      { latest: 'a' },
      { type: 'typed', client: 'a', watcher: false, size: at(100, 30) },
      { latest: 'a' },
      null,
    ],
    [
      'a watcher types (the web face with input): the size stays',
      { latest: 'a' },
      { type: 'typed', client: 'w', watcher: true, size: at(200, 60) },
      { latest: 'a' },
      null,
    ],
    [
      'the latest terminal resizes: claude follows',
      { latest: 'a' },
      { type: 'resized', client: 'a', watcher: false, size: at(90, 20) },
      { latest: 'a' },
      at(90, 20),
    ],
    [
      'another terminal resizes: remembered, not followed',
      { latest: 'a' },
      { type: 'resized', client: 'b', watcher: false, size: at(90, 20) },
      { latest: 'a' },
      null,
    ],
    [
      'a watcher resizes: nothing',
      { latest: 'a' },
      { type: 'resized', client: 'w', watcher: true, size: at(90, 20) },
      { latest: 'a' },
      null,
    ],
    [
      'the latest leaves: nobody is followed, the size stays',
      { latest: 'a' },
      { type: 'left', client: 'a' },
      { latest: null },
      null,
    ],
    ['another leaves: the latest stays', { latest: 'a' }, { type: 'left', client: 'b' }, { latest: 'a' }, null],
  ];
  for (const [what, state, event, after, resize] of cases) {
    const d = arbitrateSize(state, event, SCREEN);
    t.same(d.state, after, `${what}: who is followed`);
    t.same(d.resize, resize, `${what}: the resize`);
  }
});

t.test('a size is held to what a terminal can show', async (t) => {
  t.same(boundedSize(10_000, 10_000), at(MAX_COLS, MAX_ROWS));
  t.same(boundedSize(80, 24), at(80, 24));
});

t.test("the server's emulator answers claude's queries only when no attached terminal does", async (t) => {
  const cases: Array<[string, boolean[], boolean]> = [
    ['nobody attached', [], true],
    ['split views drawn from the one screen', [true, true], true],
    ['a plain terminal (it answers itself)', [false], false],
    ['a split view and a plain terminal', [true, false], false],
  ];
  for (const [what, shares, answers] of cases)
    t.equal(emulatorAnswers(shares.map((sharesScreen) => ({ sharesScreen }))), answers, what);
});

t.test('a hello is answered by its version and role', async (t) => {
  const mismatch = (v: number | undefined) => `wire ${String(v)} is not 3`;
  const cases: Array<[string, Parameters<typeof helloVerdict>[0], ReturnType<typeof helloVerdict>]> = [
    ['no hello first', { t: 'input' }, { type: 'refuse', reason: 'a client must say hello first' }],
    ['another wire version', { t: 'hello', version: 2, role: 'attach' }, { type: 'refuse', reason: 'wire 2 is not 3' }],
    ['a query', { t: 'hello', version: 3, role: 'query' }, { type: 'query' }],
    ['a terminal', { t: 'hello', version: 3, role: 'attach' }, { type: 'attach', watcher: false }],
    ['a watcher', { t: 'hello', version: 3, role: 'attach', watch: true }, { type: 'attach', watcher: true }],
  ];
  for (const [what, message, verdict] of cases) t.same(helloVerdict(message, 3, mismatch), verdict, what);
});

t.test("the run's end: a signal's code wins, a kill keeps the run's own and says killed", async (t) => {
  const cases: Array<[string, string | null, number, { exitCode: number; reason: string }]> = [
    ['it ended by itself', null, 3, { exitCode: 3, reason: 'ended' }],
    ['flower-pty kill', 'kill', 0, { exitCode: 0, reason: 'killed' }],
    ['SIGTERM to the server', 'SIGTERM', 0, { exitCode: 143, reason: 'ended' }],
    ['SIGINT to the server', 'SIGINT', 4, { exitCode: 130, reason: 'ended' }],
  ];
  for (const [what, endedBy, returned, expected] of cases) t.same(runEnding(endedBy, returned), expected, what);
});
