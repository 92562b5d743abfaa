// What the row painter makes of blessed's record of the terminal: paintBeside draws again the cells
// beside claude's pane on its rows (the relay puts them back after scrolling the pane, native/echo-path.h),
// exactly as blessed drew them, colours and all, and gives up on cells it cannot know exactly.
import t from 'tap';
import type { Test } from 'tap';
import { PassThrough, Writable } from 'node:stream';
import blessed from 'blessed';
import type { Widgets } from 'blessed';
import xtermHeadless from '@xterm/headless';
import { paintBeside } from '../../src/tui/row-painter.js';

type Screen = InstanceType<typeof xtermHeadless.Terminal>;

// a blessed screen of 30 × 8 whose output is kept: what the terminal was sent
function offscreen(t: Test): { screen: Widgets.Screen; sent: () => string } {
  let sent = '';
  const output = Object.assign(new Writable({ write: (c, _e, cb) => ((sent += String(c)), cb()) }), {
    isTTY: true,
    columns: 30,
    rows: 8,
  });
  const screen = blessed.screen({
    input: new PassThrough(),
    output,
    terminal: 'xterm-256color',
    fullUnicode: true,
  } as unknown as Widgets.IScreenOptions);
  t.teardown(() => screen.destroy());
  return { screen, sent: () => sent };
}

const feed = (term: Screen, data: string) => new Promise<void>((r) => term.write(data, r));
const text = (term: Screen) =>
  Array.from({ length: term.rows }, (_, y) => term.buffer.active.getLine(y)!.translateToString(false));

t.test('the cells beside a pane, drawn again as blessed drew them', async (t) => {
  const { screen, sent } = offscreen(t);
  // claude's pane at columns 1..12 of rows 1..5, the document beside it in colour, a border around both
  blessed.box({ parent: screen, left: 0, top: 0, width: 14, height: 7, border: 'line' });
  blessed.box({
    parent: screen,
    left: 14,
    top: 0,
    width: 16,
    height: 7,
    border: 'line',
    content: 'the document\nsecond line',
    style: { fg: 'green', border: { fg: 'cyan' } },
  });
  screen.render();
  await new Promise((r) => setImmediate(r)); // blessed writes on the next tick
  const term = new xtermHeadless.Terminal({ cols: 30, rows: 8, allowProposedApi: true });
  t.teardown(() => term.dispose());
  await feed(term, sent());
  const before = text(term);
  t.match(before[1], /the document/, 'drawn');
  const beside = paintBeside(screen, 1, 5, 1, 13);
  t.ok(beside, 'known exactly');
  // the terminal's rows 1..5 scrolled by two (the document and the borders with them), then put back
  await feed(term, `\u001b[2;6r\u001b[6;2H\n\n\u001b[r${beside}`);
  const after = text(term);
  for (let y = 0; y < 8; y++) {
    const outside = (line: string) => (y >= 1 && y <= 5 ? line.slice(0, 1) + line.slice(13) : line);
    t.equal(outside(after[y]!), outside(before[y]!), `row ${y} beside the pane as it was`);
  }
  const cell = term.buffer.active.getLine(1)!.getCell(15)!;
  t.equal(cell.getChars(), 't');
  t.equal(cell.getFgColor(), 2, 'in its colour');
  t.notOk(beside!.endsWith('\u001b[32m'), 'the pen the default one after it');
});

t.test('nothing to put back when a cell beside the pane is not known exactly', async (t) => {
  const { screen } = offscreen(t);
  const doc = blessed.box({ parent: screen, left: 14, top: 0, width: 16, height: 7, content: 'plain' });
  screen.render();
  t.ok(paintBeside(screen, 1, 5, 0, 14), 'known');
  doc.setContent('wide 中文');
  screen.render();
  t.equal(paintBeside(screen, 0, 5, 0, 14), null, 'a wide character (blessed keeps it as never drawn)');
  doc.setContent('changed');
  (screen as unknown as { lines: Array<Array<[number, string]>> }).lines[0]![20]![1] = 'Z';
  t.equal(paintBeside(screen, 0, 5, 0, 14), null, 'a cell blessed has not drawn yet');
});
