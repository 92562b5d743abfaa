// The key help: nothing of it is on the screen until it is first shown; shown, it is over every other box.
// The way back after a detach is named as the person types flower-pty, and the box fits 80 columns
// however long those words are.
import t from 'tap';
import blessed from 'blessed';
import { openOuterScreen } from '../../src/tui/outer-screen.js';
import { createHelpOverlay, HELP_LINE_MAX, helpText } from '../../src/tui/help-overlay.js';
import { textWidth } from '../../src/core/screen/char-width.js';
import { createVirtualTty } from './virtual-tty.js';

t.test('made when first shown, then over the other boxes until hidden', async (t) => {
  const tty = createVirtualTty(100, 30);
  const { screen } = openOuterScreen(tty.stdout, 'xterm-256color');
  t.teardown(() => screen.destroy());
  const pane = blessed.box({ parent: screen, top: 0, left: 0, width: 100, height: 30, border: 'line' });
  const help = createHelpOverlay({ screen, prefix: 'C-]', own: 'flower-pty' });
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

t.test('detach names the command as typed: on its line, beneath it, or (too long for any) not at all', async (t) => {
  const detach = (own: string) => {
    const lines = helpText('C-]', own);
    const at = lines.findIndex((l) => /^ {2}d +detach/.test(l));
    return lines.slice(
      at,
      lines.findIndex((l, i) => i > at && /^ {2}s +switch/.test(l)),
    );
  };
  t.same(detach('flower-pty'), ['  d         detach (the run goes on; flower-pty attach)']);
  t.same(detach('npx flower-pty'), ['  d         detach (the run goes on; npx flower-pty attach)']);
  const own = 'node /home/someone/src/flower-pty/bin/flower-pty.js';
  t.same(
    detach(own),
    ['  d         detach (the run goes on); back with', `            ${own} attach`],
    'too long for its line: on a line of its own, whole (it is copied as it is)',
  );
  // 75 characters on the line beneath, but 80 cells: five of them are two cells wide
  const wide = 'node /home/someone/项目项目项/flower-pty-ch/bin/flower-pty.js';
  t.same(
    detach(wide),
    ['  d         detach (the run goes on; its attach command is printed then)'],
    "a folder's wide characters count as the two cells they take",
  );
  const fits = 'node /home/someone/项目/flower-pty/bin/flower-pty.js';
  t.same(detach(fits)[1], `            ${fits} attach`, 'and a few of them still fit beneath');
  const tooLong = `node /${'very-long-folder-name/'.repeat(4)}flower-pty/bin/flower-pty.js`;
  t.same(
    detach(tooLong),
    ['  d         detach (the run goes on; its attach command is printed then)'],
    'no line could hold it: the detach message names it',
  );
  for (const words of ['flower-pty', own, wide, fits, tooLong])
    t.ok(
      helpText('C-]', words).every((l) => textWidth(l) <= HELP_LINE_MAX),
      `every line within ${HELP_LINE_MAX} cells: ${words}`,
    );
});

t.test('with a long node path, the box is drawn whole on an 80-column terminal', async (t) => {
  const tty = createVirtualTty(80, 30);
  const { screen } = openOuterScreen(tty.stdout, 'xterm-256color');
  t.teardown(() => screen.destroy());
  const own = 'node /home/someone/src/flower-pty/bin/flower-pty.js';
  const help = createHelpOverlay({ screen, prefix: 'C-]', own });
  help.show();
  screen.render();
  const shown = await tty.waitFor((s) => s.includes(`${own} attach`), 'the help with the command whole');
  const rows = shown.split('\n').filter((l) => l.includes('│'));
  t.ok(rows.length > 10, 'the box is on the screen');
  for (const row of rows) t.match(row.trimEnd(), /│$/, `its right border is on the screen: ${row.trim()}`);
  t.ok(
    shown.split('\n').some((l) => /┐$/.test(l.trimEnd())),
    'and its top right corner',
  );
});

t.test('a control in the bin path is shown inert, as every path flower-pty prints', async (t) => {
  const own = "node '/tmp/evil\u001b]0;owned\u0007/bin/flower-pty.js'";
  const lines = helpText('C-]', own);
  t.notOk(
    lines.some((l) => /[\u0000-\u001f]/.test(l)),
    'no control character reaches the terminal',
  );
  t.ok(
    lines.some((l) => l.includes('\\x1b]0;owned\\x07')),
    'it is there, escaped',
  );
});
