// The key help: nothing of it is on the screen until it is first shown; shown, it is over every other box.
import t from 'tap';
import blessed from 'blessed';
import { openOuterScreen } from '../../src/tui/outer-screen.js';
import { createHelpOverlay } from '../../src/tui/help-overlay.js';
import { createVirtualTty } from './virtual-tty.js';

t.test('made when first shown, then over the other boxes until hidden', async (t) => {
  const tty = createVirtualTty(100, 30);
  const { screen } = openOuterScreen(tty.stdout, 'xterm-256color');
  t.teardown(() => screen.destroy());
  const pane = blessed.box({ parent: screen, top: 0, left: 0, width: 100, height: 30, border: 'line' });
  const help = createHelpOverlay({ screen, prefix: 'C-]' });
  t.equal(help.hidden, true, 'hidden at first');
  t.same(screen.children, [pane], 'and not on the screen at all');
  help.show();
  t.equal(help.hidden, false, 'shown');
  t.not(screen.children.at(-1), pane, 'a box of its own, last: drawn over the pane');
  screen.render();
  const shown = await tty.lines();
  t.match(shown.join('\n'), /flower-pty keys[\s\S]*hand off now/, 'the keys, on the terminal');
  t.match(shown[15], /^│ +│.*│ +│$/, 'its borders inside the pane’s');
  help.hide();
  t.equal(help.hidden, true, 'hidden again');
  help.show();
  t.equal(screen.children.length, 2, 'shown again: the same box, not a second one');
});
