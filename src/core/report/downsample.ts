// Downsampling a context curve to a bounded number of points, streaming and in bounded memory.
// Pure. Readings fall into buckets of equal count; each bucket keeps its lowest and its highest
// reading in order, and buckets merge pairwise (doubling their width) when there are too many: peaks
// (the reading a handoff was asked at) and drops (a compaction) survive any length of transcript.

export interface CurvePoint {
  /** milliseconds since the epoch */
  t: number;
  /** tokens */
  v: number;
  /** the transcript line it was read from */
  line: number;
}

export const DEFAULT_MAX_POINTS = 600;

interface Seen {
  p: CurvePoint;
  i: number;
}

interface Bucket {
  lo: Seen;
  hi: Seen;
}

export interface CurveSampler {
  add(p: CurvePoint): void;
  /** at most maxPoints points in reading order; every point when there were no more than that */
  points(): CurvePoint[];
  readonly count: number;
}

function merge(a: Bucket, b: Bucket | undefined): Bucket {
  if (!b) return a;
  return { lo: b.lo.p.v < a.lo.p.v ? b.lo : a.lo, hi: b.hi.p.v > a.hi.p.v ? b.hi : a.hi };
}

export function createCurveSampler(maxPoints: number = DEFAULT_MAX_POINTS): CurveSampler {
  if (!(maxPoints >= 4)) throw new RangeError(`downsample: expected maxPoints >= 4, got ${maxPoints}`);
  const bucketLimit = Math.floor((maxPoints - 2) / 2);
  let raw: CurvePoint[] | null = [];
  let buckets: Bucket[] = [];
  let width = 1;
  let inCurrent = 0;
  let first: Seen | null = null;
  let last: Seen | null = null;
  let count = 0;

  return {
    add(p) {
      const seen = { p, i: count++ };
      first ??= seen;
      last = seen;
      if (raw !== null) {
        raw.push(p);
        if (raw.length > maxPoints) raw = null; // from now on only the buckets
      }
      if (buckets.length === 0 || inCurrent === width) {
        buckets.push({ lo: seen, hi: seen });
        inCurrent = 1;
        if (buckets.length > bucketLimit) {
          const odd = buckets.length % 2 === 1;
          const merged: Bucket[] = [];
          for (let k = 0; k < buckets.length; k += 2) merged.push(merge(buckets[k] as Bucket, buckets[k + 1]));
          buckets = merged;
          inCurrent = odd ? 1 : width + 1;
          width *= 2;
        }
      } else {
        const b = buckets[buckets.length - 1] as Bucket;
        if (p.v < b.lo.p.v) b.lo = seen;
        if (p.v > b.hi.p.v) b.hi = seen;
        inCurrent += 1;
      }
    },
    points() {
      if (raw !== null) return raw.slice();
      if (first === null || last === null) return [];
      const out: Seen[] = [first];
      for (const b of buckets) {
        for (const s of b.lo.i <= b.hi.i ? [b.lo, b.hi] : [b.hi, b.lo]) {
          if (s.i > (out[out.length - 1] as Seen).i && s.i < last.i) out.push(s);
        }
      }
      out.push(last);
      return out.map((s) => s.p);
    },
    get count() {
      return count;
    },
  };
}

// The whole array at once: the same sampler.
export function downsample(points: readonly CurvePoint[], maxPoints: number = DEFAULT_MAX_POINTS): CurvePoint[] {
  const sampler = createCurveSampler(maxPoints);
  for (const p of points) sampler.add(p);
  return sampler.points();
}
