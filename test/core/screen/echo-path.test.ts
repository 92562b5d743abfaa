// When the relay may draw claude's echo itself, and which cells it drew (core/screen/echo-path.ts).
import t from 'tap';
import { echoArm, echoCells, type PaneEchoFacts } from '../../../src/core/screen/echo-path.js';

const facts: PaneEchoFacts = {
  cursorShown: true,
  cursorX: 5,
  cursorY: 2,
  cols: 40,
  rows: 10,
  shownCols: 40,
  shownRows: 10,
  left: 1,
  top: 1,
  parsedAll: true,
  plainPen: true,
  insertMode: false,
  wraparound: true,
  wholeScrollRegion: true,
  synchronizing: false,
};

t.test('armed only when nothing the relay does not model stands in the way', async (t) => {
  t.same(echoArm(facts), { x: 5, y: 2, cols: 40, rows: 10, left: 1, top: 1 }, 'the cursor, the pane and its place');
  const refusals: Array<[string, Partial<PaneEchoFacts>]> = [
    ["the cursor not shown in claude's pane", { cursorShown: false }],
    ['bytes still to parse, or mid-sequence', { parsedAll: false }],
    ['a coloured pen or another character set', { plainPen: false }],
    ['insert mode', { insertMode: true }],
    ['no wraparound', { wraparound: false }],
    ['a scroll region', { wholeScrollRegion: false }],
    ["inside claude's synchronized update", { synchronizing: true }],
    ["a pane narrower than claude's screen", { shownCols: 30 }],
    ["a pane shorter than claude's screen", { shownRows: 8 }],
    ['a cursor below the screen', { cursorY: 10 }],
    ['a cursor past the edge', { cursorX: 41 }],
  ];
  for (const [what, change] of refusals) t.equal(echoArm({ ...facts, ...change }), null, what);
  t.same(echoArm({ ...facts, cursorX: 40 })?.x, 40, 'at the edge (the next character wraps): armed');
});

t.test('the cells an echo covers, wrapping at the width as the emulator does', async (t) => {
  const arm = echoArm(facts)!;
  t.same(echoCells(arm, 3), { rows: [{ y: 2, from: 5, to: 8 }], scrolled: 0, next: { ...arm, x: 8 } });
  t.same(
    echoCells(arm, 35),
    { rows: [{ y: 2, from: 5, to: 40 }], scrolled: 0, next: { ...arm, x: 40 } },
    'up to the edge: the cursor waits there',
  );
  t.same(
    echoCells({ ...arm, x: 40 }, 1),
    { rows: [{ y: 3, from: 0, to: 1 }], scrolled: 0, next: { ...arm, x: 1, y: 3 } },
    'the next one wraps',
  );
  t.same(echoCells(arm, 85).rows, [
    { y: 2, from: 5, to: 40 },
    { y: 3, from: 0, to: 40 },
    { y: 4, from: 0, to: 10 },
  ]);
});

t.test('a wrap on the last row scrolls the pane: the cells as they are once it scrolled', async (t) => {
  const arm = { ...echoArm(facts)!, y: 9, x: 38 };
  t.same(
    echoCells(arm, 5),
    {
      rows: [
        { y: 8, from: 38, to: 40 },
        { y: 9, from: 0, to: 3 },
      ],
      scrolled: 1,
      next: { ...arm, x: 3, y: 9 },
    },
    'one row',
  );
  t.same(
    echoCells(arm, 2 + 40 + 40 + 1).rows,
    [
      { y: 6, from: 38, to: 40 },
      { y: 7, from: 0, to: 40 },
      { y: 8, from: 0, to: 40 },
      { y: 9, from: 0, to: 1 },
    ],
    'three rows',
  );
  t.equal(echoCells(arm, 2 + 40 + 40 + 1).scrolled, 3);
  t.same(
    echoCells({ ...arm, y: 1, x: 0 }, 40 * 12).rows.map((r) => r.y),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    'rows scrolled off the top are not named',
  );
  t.same(
    echoCells({ ...arm, x: 40 }, 1),
    { rows: [{ y: 9, from: 0, to: 1 }], scrolled: 1, next: { ...arm, x: 1, y: 9 } },
    'at the edge of the last row: the next one scrolls',
  );
});
