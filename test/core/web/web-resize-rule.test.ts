// A page only watches: its terminal takes claude's size whatever its own box, and only its font
// follows the box, within the readable range (src/core/web/web-resize-rule.ts).
import t from 'tap';
import { pageFit, PAGE_FONT } from '../../../src/core/web/web-resize-rule.js';

t.test("the page's terminal is claude's size for every box, phone to desktop", async (t) => {
  const claude = { cols: 120, rows: 40 };
  for (const fitsCols of [null, 0, 20, 45, 80, 120, 200, 400]) {
    for (const fontSize of [8, 13, 14]) {
      const fit = pageFit(claude, { fontSize, fitsCols });
      t.same(
        { cols: fit.cols, rows: fit.rows },
        claude,
        `a box of ${fitsCols} columns at ${fontSize} px keeps claude's 120×40`,
      );
      t.ok(
        fit.fontSize >= PAGE_FONT.min && fit.fontSize <= PAGE_FONT.max,
        `font ${fit.fontSize} within the readable range`,
      );
    }
  }
});

t.test("the font fills the box with claude's columns, no smaller than readable, no larger than the cap", async (t) => {
  t.equal(
    pageFit({ cols: 80, rows: 24 }, { fontSize: 13, fitsCols: 80 }).fontSize,
    13,
    'a box that holds claude at this font keeps it',
  );
  t.equal(
    pageFit({ cols: 100, rows: 24 }, { fontSize: 13, fitsCols: 80 }).fontSize,
    10,
    'a narrower box: smaller, on the half-pixel below',
  );
  t.equal(
    pageFit({ cols: 200, rows: 50 }, { fontSize: 13, fitsCols: 45 }).fontSize,
    PAGE_FONT.min,
    'a phone with a wide claude: the smallest readable, the box scrolls',
  );
  t.equal(
    pageFit({ cols: 40, rows: 20 }, { fontSize: 13, fitsCols: 160 }).fontSize,
    PAGE_FONT.max,
    'a narrow claude on a wide box: capped',
  );
  t.equal(
    pageFit({ cols: 80, rows: 24 }, { fontSize: 12, fitsCols: null }).fontSize,
    12,
    'before layout: the font stays',
  );
});
