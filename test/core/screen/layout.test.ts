// Pane geometry: side by side when wide, stacked when narrow, the session alone when hidden or cramped.
import t from 'tap';
import { computeLayout, WIDE_AT } from '../../../src/core/screen/layout.js';

t.test('wide: side by side, the session takes about 60%', async (t) => {
  const l = computeLayout({ cols: 160, rows: 40, documentVisible: true });
  t.equal(l.mode, 'side');
  t.same(l.session, { left: 0, top: 0, width: 96, height: 38 });
  t.same(l.document, { left: 96, top: 0, width: 64, height: 38 });
  t.same(l.status, { left: 0, top: 38, width: 160, height: 2 });
  t.same(l.inner, { cols: 94, rows: 36 }, 'claude gets the inside of the border');
});

t.test('the switch to side by side happens at WIDE_AT columns', async (t) => {
  t.equal(computeLayout({ cols: WIDE_AT - 1, rows: 40, documentVisible: true }).mode, 'stacked');
  t.equal(computeLayout({ cols: WIDE_AT, rows: 40, documentVisible: true }).mode, 'side');
});

t.test('narrow: stacked, the session on top, full width', async (t) => {
  const l = computeLayout({ cols: 100, rows: 40, documentVisible: true });
  t.equal(l.mode, 'stacked');
  t.same(l.session, { left: 0, top: 0, width: 100, height: 25 });
  t.same(l.document, { left: 0, top: 25, width: 100, height: 13 });
  t.same(l.inner, { cols: 98, rows: 23 });
});

t.test('hidden document: the session gets everything above the status bar', async (t) => {
  for (const cols of [100, 200]) {
    const l = computeLayout({ cols, rows: 40, documentVisible: false });
    t.equal(l.mode, 'session-only');
    t.equal(l.document, null);
    t.same(l.inner, { cols: cols - 2, rows: 36 });
  }
});

t.test('too short to stack: the session alone; tiny or bad sizes never give a zero pty', async (t) => {
  t.equal(computeLayout({ cols: 100, rows: 12, documentVisible: true }).mode, 'session-only');
  const tiny = computeLayout({ cols: 0, rows: Number.NaN, documentVisible: true });
  t.ok(tiny.inner.cols >= 1 && tiny.inner.rows >= 1, JSON.stringify(tiny.inner));
  t.equal(
    computeLayout({ cols: 80, rows: 8, documentVisible: false }).status.height,
    1,
    'one status line on a short terminal',
  );
});

t.test('the panes and the status bar tile the screen exactly', async (t) => {
  for (const [cols, rows] of [
    [160, 40],
    [100, 40],
    [139, 25],
    [300, 80],
    [80, 24],
  ] as const) {
    const l = computeLayout({ cols, rows, documentVisible: true });
    const area = [l.session, l.document, l.status].reduce((sum, r) => sum + (r ? r.width * r.height : 0), 0);
    t.equal(area, cols * rows, `${cols}x${rows}`);
  }
});
