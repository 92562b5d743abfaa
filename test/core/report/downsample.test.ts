// The curve sampler: bounded output, every point when few, peaks and drops kept when many.
import t from 'tap';
import { createCurveSampler, downsample, type CurvePoint } from '../../../src/core/report/downsample.js';

const pts = (values: number[]): CurvePoint[] => values.map((v, i) => ({ t: 1000 + i, v, line: i + 1 }));

t.test('few points come back unchanged', async (t) => {
  const p = pts([1, 5, 3]);
  t.same(downsample(p, 10), p);
  t.same(downsample([], 10), []);
});

t.test('many points: at most maxPoints, in order, first and last kept, the peak and the drop kept', async (t) => {
  const values = Array.from({ length: 100_003 }, (_, i) => (i % 1000) * 10);
  values[54_321] = 999_999; // one spike
  values[77_777] = -5; // one dip
  const out = downsample(pts(values), 200);
  t.ok(out.length <= 200, `${out.length} points`);
  t.ok(out.length >= 150, 'the budget is used');
  t.same(out[0], { t: 1000, v: 0, line: 1 });
  t.equal(out.at(-1)?.line, 100_003);
  t.ok(
    out.every((p, i) => i === 0 || p.line > (out[i - 1] as CurvePoint).line),
    'strictly in reading order',
  );
  t.ok(
    out.some((p) => p.v === 999_999 && p.line === 54_322),
    'the spike survives',
  );
  t.ok(
    out.some((p) => p.v === -5),
    'the dip survives',
  );
});

t.test('the streaming sampler agrees with the array form and counts what it saw', async (t) => {
  const s = createCurveSampler(50);
  const values = Array.from({ length: 5000 }, (_, i) => Math.sin(i / 100) * 1000);
  for (const p of pts(values)) s.add(p);
  t.equal(s.count, 5000);
  t.same(s.points(), downsample(pts(values), 50));
  t.ok(s.points().length <= 50);
});

t.test('a budget below 4 is refused', async (t) => {
  t.throws(() => createCurveSampler(3), /expected maxPoints >= 4, got 3/);
});
