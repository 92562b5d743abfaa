// A label set through setQuietLabel keeps its place on scroll and resize without the whole-screen
// render blessed's own setLabel hooks to them (the frame scheduler draws instead), and shows the same.
import t from 'tap';
import type { Test } from 'tap';
import { PassThrough, Writable } from 'node:stream';
import blessed from 'blessed';
import type { Widgets } from 'blessed';
import { setQuietLabel } from '../../src/tui/quiet-label.js';

function scrollableOn(t: Test): { screen: Widgets.Screen; box: Widgets.BoxElement; renders: () => number } {
  const output = Object.assign(new Writable({ write: (_c, _e, cb) => cb() }), { isTTY: true, columns: 40, rows: 10 });
  const screen = blessed.screen({
    input: new PassThrough(),
    output,
    terminal: 'xterm-256color',
  } as unknown as Widgets.IScreenOptions);
  t.teardown(() => screen.destroy());
  const box = blessed.box({
    parent: screen,
    border: 'line',
    scrollable: true,
    alwaysScroll: true,
    width: 30,
    height: 6,
    content: Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n'),
  });
  let renders = 0;
  screen.on('render', () => renders++);
  return { screen, box, renders: () => renders };
}

t.test(
  "blessed's own label renders the whole screen on a scroll: the quiet one does not, and draws the same",
  async (t) => {
    const loud = scrollableOn(t);
    loud.box.setLabel(' doc ');
    loud.box.setScroll(5);
    t.ok(loud.renders() >= 1, `blessed rendered inside setScroll (${loud.renders()} times)`);
    const quiet = scrollableOn(t);
    setQuietLabel(quiet.box, ' doc ');
    setQuietLabel(quiet.box, ' doc ');
    quiet.box.setScroll(5);
    quiet.box.emit('resize');
    await new Promise((resolve) => setImmediate(resolve));
    t.equal(quiet.renders(), 0, 'no render of its own');
    loud.screen.render();
    quiet.screen.render();
    const rows = (s: Widgets.Screen) =>
      (s as unknown as { lines: Array<Array<[number, string]>> }).lines.map((row) => row.map((c) => c[1]).join(''));
    t.same(rows(quiet.screen), rows(loud.screen), 'the label stays where blessed puts it');
    t.match(rows(quiet.screen)[0], /doc/);
  },
);
