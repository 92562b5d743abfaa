// The emulator-to-blessed bridge: each cell's whole look lands in blessed's screen buffer as a number;
// a wide character's right half is an empty cell; the cursor follows DECTCEM; frames coalesce.
import t from 'tap';
import type { Test } from 'tap';
import { PassThrough, Writable } from 'node:stream';
import blessed from 'blessed';
import type { Widgets } from 'blessed';
import { createSessionPane, type SessionPane } from '../../src/tui/session-pane.js';
import { createFrameScheduler } from '../../src/tui/frame-scheduler.js';
import {
  BOLD,
  DEFAULT_COLOUR,
  INVERSE,
  ITALIC,
  RGB,
  STRIKETHROUGH,
  UNDERLINE,
} from '../../src/core/screen/cell-style.js';

type Cell = [number, string];

function offscreen(t: Test, cols = 40, rows = 10): Widgets.Screen {
  const output = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: true, columns: cols, rows });
  const screen = blessed.screen({
    input: new PassThrough(),
    output,
    terminal: 'xterm-256color',
    fullUnicode: true,
  } as unknown as Widgets.IScreenOptions);
  t.teardown(() => screen.destroy());
  return screen;
}

function paneOn(t: Test, screen: Widgets.Screen, replies: string[] = []): SessionPane {
  const pane = createSessionPane({ screen, cols: 38, rows: 8, onReply: (d) => replies.push(d) });
  pane.box.width = 40;
  pane.box.height = 10;
  t.teardown(() => pane.dispose());
  return pane;
}

const write = (pane: SessionPane, data: string) => new Promise<void>((resolve) => pane.write(data, resolve));
const cells = (screen: Widgets.Screen, y: number): Cell[] => (screen as unknown as { lines: Cell[][] }).lines[y]!;

t.test('text lands inside the border, each cell with its whole look', async (t) => {
  const screen = offscreen(t);
  const pane = paneOn(t, screen);
  await write(
    pane,
    'plain \u001b[1;31mB\u001b[0m\u001b[4;44mU\u001b[0m\u001b[7mI\u001b[0m\u001b[38;5;208mP\u001b[38;2;255;100;0mT\u001b[0m\u001b[3;9mS',
  );
  screen.render();
  const row = cells(screen, 1);
  t.equal(
    row
      .slice(1, 7)
      .map((c) => c[1])
      .join(''),
    'plain ',
    'row 1, column 1: inside the border',
  );
  t.equal(row[0]![1], '│');
  const look = (x: number) => pane.ink.styles.look(row[x]![0]);
  t.match(look(1), { flags: 0, fg: DEFAULT_COLOUR, bg: DEFAULT_COLOUR, link: null }, 'default colours');
  t.match(look(7), { flags: BOLD, fg: 1, bg: DEFAULT_COLOUR }, 'bold red');
  t.match(look(8), { flags: UNDERLINE, fg: DEFAULT_COLOUR, bg: 4 }, 'underline on blue');
  t.equal(look(9).flags, INVERSE, 'inverse');
  t.equal(look(10).fg, 208, 'palette 208 kept');
  t.equal(look(11).fg, RGB | 0xff6400, 'truecolor #ff6400 kept whole');
  t.equal(look(12).flags, ITALIC | STRIKETHROUGH, 'italic and strikethrough kept');
  t.equal(row[1]![0], row[2]![0], 'one look, one number');
});

t.test('a wide character fills two cells: the glyph, then an empty cell the painter skips', async (t) => {
  const screen = offscreen(t);
  const pane = paneOn(t, screen);
  await write(pane, '中😀x');
  screen.render();
  t.same(
    cells(screen, 1)
      .slice(1, 6)
      .map((c) => c[1]),
    ['中', '', '😀', '', 'x'],
  );
  t.same(pane.cursor(), { x: 6, y: 1 }, 'Unicode 11: the emoji is two columns, so the cursor is at 1+5');
});

t.test('the cursor is reported only while the child shows it', async (t) => {
  const screen = offscreen(t);
  const pane = paneOn(t, screen);
  await write(pane, '\r\nab');
  screen.render();
  t.same(pane.cursor(), { x: 3, y: 2 });
  await write(pane, '\u001b[?25l');
  t.equal(pane.cursor(), null, 'hidden');
  await write(pane, '\u001b[?25h');
  t.same(pane.cursor(), { x: 3, y: 2 }, 'shown again');
});

t.test('queries are answered to the child; modes are readable; reset forgets them', async (t) => {
  const screen = offscreen(t);
  const replies: string[] = [];
  const pane = paneOn(t, screen, replies);
  await write(pane, 'abc\u001b[6n\u001b[?1h\u001b[?2004h\u001b[?1004h');
  t.same(replies, ['\u001b[1;4R'], 'cursor position report');
  t.ok(pane.applicationCursor && pane.bracketedPaste && pane.sendFocus);
  pane.reset();
  t.notOk(pane.applicationCursor || pane.bracketedPaste || pane.sendFocus);
});

t.test('resize changes the emulator; the scrollback keeps what scrolled off', async (t) => {
  const screen = offscreen(t);
  const pane = paneOn(t, screen);
  pane.resize(20, 5);
  t.equal(pane.term.cols, 20);
  t.equal(pane.term.rows, 5);
  await write(pane, Array.from({ length: 30 }, (_, i) => `l${i}`).join('\r\n'));
  t.equal(pane.term.buffer.active.length, 30);
});

t.test('frames coalesce: a thousand requests in a burst make one render', async (t) => {
  let renders = 0;
  const frames = createFrameScheduler(() => renders++, 16);
  t.teardown(() => frames.dispose());
  for (let i = 0; i < 1000; i++) frames.request();
  await new Promise((r) => setTimeout(r, 60));
  t.equal(renders, 1);
  frames.request();
  frames.suspend(true);
  await new Promise((r) => setTimeout(r, 60));
  t.equal(renders, 1, 'nothing is drawn while suspended');
  frames.suspend(false);
  await new Promise((r) => setTimeout(r, 60));
  t.equal(renders, 2, 'the request made while suspended is drawn on resume');
  t.equal(frames.frames, 2);
});

t.test('frames: a lone request after a quiet frame is drawn at once; a flood keeps the frame rate', async (t) => {
  let clock = 0;
  const stamps: number[] = [];
  const frames = createFrameScheduler(
    () => stamps.push(clock),
    16,
    () => clock,
  );
  t.teardown(() => frames.dispose());
  const tick = () => new Promise((r) => setTimeout(r, 5));
  frames.request();
  await tick();
  clock = 3; // an echo 3 ms after the last frame: no need to wait out 16 ms
  frames.request();
  await tick();
  t.same(stamps, [0, 3]);
  for (let i = 0; i < 50; i++) frames.request(); // a burst: drawn once, and then the frame rate holds
  clock = 4;
  await tick();
  t.same(stamps, [0, 3, 4]);
  frames.request();
  clock = 6;
  await tick();
  t.same(stamps, [0, 3, 4], 'after a busy frame the next waits for the full frame');
  clock = 20;
  await new Promise((r) => setTimeout(r, 30));
  t.same(stamps, [0, 3, 4, 20]);
});

t.test("a person's keys go through the emulator: they reach the child, and the echo is parsed at once", async (t) => {
  const screen = offscreen(t);
  const replies: string[] = [];
  const pane = paneOn(t, screen, replies);
  await write(pane, 'ready\r\n');
  pane.input('k');
  t.same(replies, ['k'], 'the key goes out through onReply, unchanged');
  let parsed = false;
  pane.write('k', () => (parsed = true));
  // No await: after user input xterm parses the next write synchronously (no setTimeout on the echo).
  t.ok(parsed, 'the echo is parsed before write() returns');
  t.equal(pane.term.buffer.active.getLine(1)?.translateToString(true), 'k');
  pane.write('later', () => {});
  t.equal(
    pane.term.buffer.active.getLine(1)?.translateToString(true),
    'k',
    'output without a key before it is parsed asynchronously, as before',
  );
});

t.test('frames: a quick frame is drawn on the next turn of the event loop, not after a timer', async (t) => {
  let renders = 0;
  const frames = createFrameScheduler(() => renders++, 16);
  t.teardown(() => frames.dispose());
  frames.request();
  await new Promise((r) => setImmediate(r));
  t.equal(renders, 1, 'drawn by the immediate queued before ours');
});

t.test(
  'frames: a request that may be drawn at once is drawn before it returns, unless a frame is pending or was just drawn',
  async (t) => {
    let clock = 100;
    const stamps: number[] = [];
    const frames = createFrameScheduler(
      () => stamps.push(clock),
      16,
      () => clock,
    );
    t.teardown(() => frames.dispose());
    frames.request(true);
    t.same(stamps, [100], 'drawn inside request()');
    clock = 101; // under QUICK_GAP_MS after that frame: it waits for the next turn, with whatever else comes
    frames.request(true);
    frames.request(true);
    t.same(stamps, [100]);
    await new Promise((r) => setImmediate(r));
    t.same(stamps, [100, 101], 'both joined one frame');
    clock = 150;
    frames.request();
    frames.request(true);
    t.same(stamps, [100, 101], 'a whole frame pending: the quick one joins it');
    await new Promise((r) => setImmediate(r));
    t.same(stamps, [100, 101, 150]);
  },
);

t.test("blessedWide answers as blessed's width table, skipping the table below U+1100", async (t) => {
  const { blessedWide } = await import('../../src/tui/row-painter.js');
  t.same(['a', ' ', 'é', '', '中', '한', '\u3000'].map(blessedWide), [false, false, false, false, true, true, true]);
});
