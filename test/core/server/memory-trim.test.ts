// When an idle run server gives back memory: quiet long enough with no terminal attached, once per quiet stretch.
import t from 'tap';
import { active, nextTrim, trimDone, QUIET_BEFORE_TRIM_MS } from '../../../src/core/server/memory-trim.js';

t.test('quiet with no terminal attached: wait out the rest of the quiet, then trim', async (t) => {
  const s = active(1000);
  t.same(nextTrim(s, 1000, 0), { type: 'wait', ms: QUIET_BEFORE_TRIM_MS });
  t.same(nextTrim(s, 1000 + QUIET_BEFORE_TRIM_MS - 1, 0), { type: 'wait', ms: 1 });
  t.same(nextTrim(s, 1000 + QUIET_BEFORE_TRIM_MS, 0), { type: 'trim' });
  t.same(nextTrim(s, 1000 + 10 * QUIET_BEFORE_TRIM_MS, 0), { type: 'trim' });
});

t.test('a terminal attached: never, whatever the quiet', async (t) => {
  t.same(nextTrim(active(0), 10 * QUIET_BEFORE_TRIM_MS, 1), { type: 'none' });
  t.same(nextTrim(active(0), 10 * QUIET_BEFORE_TRIM_MS, 3), { type: 'none' });
});

t.test('once trimmed, nothing until the run is active again', async (t) => {
  const trimmed = trimDone(active(0));
  t.same(nextTrim(trimmed, 100 * QUIET_BEFORE_TRIM_MS, 0), { type: 'none' });
  const again = active(200 * QUIET_BEFORE_TRIM_MS);
  t.same(nextTrim(again, 200 * QUIET_BEFORE_TRIM_MS + 5, 0), { type: 'wait', ms: QUIET_BEFORE_TRIM_MS - 5 });
});

t.test('the quiet can be given', async (t) => {
  t.same(nextTrim(active(0), 40, 0, 50), { type: 'wait', ms: 10 });
  t.same(nextTrim(active(0), 50, 0, 50), { type: 'trim' });
});
