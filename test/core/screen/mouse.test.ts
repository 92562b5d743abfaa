// Mouse routing in the split view: coordinates translated into the pane, the child's tracking
// mode respected, its encoding used, the wheel over the document scrolls it.
import t from 'tap';
import { extractMouse, routeMouse, encodeMouse } from '../../../src/core/screen/mouse.js';
import { computeLayout } from '../../../src/core/screen/layout.js';

const wide = computeLayout({ cols: 160, rows: 40, documentVisible: true });

t.test('extract SGR reports and keep the keys', async (t) => {
  const { events, rest } = extractMouse('a\u001b[<0;10;5Mb\u001b[<0;10;5mc\u001b[A');
  t.same(events, [
    { button: 0, x: 10, y: 5, release: false },
    { button: 0, x: 10, y: 5, release: true },
  ]);
  t.equal(rest, 'abc\u001b[A');
});

t.test('a click in the session pane reaches claude in pane coordinates', async (t) => {
  const x = wide.session.left + 1 + 4 + 1; // 5th column of the pane, 1-based outer
  const y = wide.session.top + 1 + 2 + 1;
  const r = routeMouse({ button: 0, x, y, release: false }, wide, { tracking: 'vt200', sgr: true });
  t.same(r, { to: 'child', data: '\u001b[<0;5;3M' });
  t.same(
    routeMouse({ button: 0, x, y, release: true }, wide, { tracking: 'vt200', sgr: false }),
    { to: 'child', data: '\u001b[M#%#' },
    'legacy release',
  );
  t.equal(
    routeMouse({ button: 0, x, y, release: false }, wide, { tracking: 'none', sgr: true }),
    null,
    'a child without tracking gets nothing',
  );
  t.equal(
    routeMouse({ button: 32, x, y, release: false }, wide, { tracking: 'vt200', sgr: true }),
    null,
    'no motion in vt200',
  );
  t.same(
    routeMouse({ button: 35, x, y, release: false }, wide, { tracking: 'any', sgr: true }),
    { to: 'child', data: '\u001b[<35;5;3M' },
    'motion in any-event mode',
  );
  t.equal(
    routeMouse({ button: 0, x, y, release: true }, wide, { tracking: 'x10', sgr: true }),
    null,
    'x10 has no release',
  );
  t.equal(
    routeMouse({ button: 0, x: wide.session.left + 1, y, release: false }, wide, { tracking: 'any', sgr: true }),
    null,
    'the border is not the pane',
  );
});

t.test('the wheel over the document scrolls it; a click there does nothing', async (t) => {
  const d = wide.document!;
  const at = { x: d.left + 3, y: d.top + 3 };
  t.same(routeMouse({ button: 64, ...at, release: false }, wide, { tracking: 'any', sgr: true }), {
    to: 'document',
    scroll: 'up',
  });
  t.same(routeMouse({ button: 65, ...at, release: false }, wide, { tracking: 'none', sgr: true }), {
    to: 'document',
    scroll: 'down',
  });
  t.equal(routeMouse({ button: 0, ...at, release: false }, wide, { tracking: 'any', sgr: true }), null);
});

t.test('legacy encoding caps coordinates', async (t) => {
  t.equal(encodeMouse({ button: 0, x: 1, y: 1, release: false }, 300, 2, false), '\u001b[M \u00ff"');
});
