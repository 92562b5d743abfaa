// The Wilson score interval for a pass rate: honest at the small k an eval of real sessions can afford
// (3 passes of 3 is not "100 %", it is 44–100 % at 95 %). Pure.

/** z for a two-sided 95 % interval */
export const Z95 = 1.959964;

export interface Rate {
  passes: number;
  n: number;
  /** passes / n (0 with n 0) */
  rate: number;
  low: number;
  high: number;
}

export function wilson95(passes: number, n: number): Rate {
  if (n <= 0) return { passes: 0, n: 0, rate: 0, low: 0, high: 1 };
  const p = passes / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { passes, n, rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** "67 % (21–94 %)" */
export function rateText(r: Rate): string {
  const pct = (x: number): string => `${Math.round(x * 100)}`;
  return r.n === 0 ? '— (no probe)' : `${pct(r.rate)} % (${pct(r.low)}–${pct(r.high)} %)`;
}
