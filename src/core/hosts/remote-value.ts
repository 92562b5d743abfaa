// Checks of a value another machine sent (its `ls --json`, its `report --json`), field by field to the
// depth this machine uses it: numbers are finite numbers, times are times, words are from their known
// set, strings and lists are bounded. What passes is rebuilt from the named fields alone, so nothing the
// host added (a field nested 200,000 deep, a key no reader knows) goes on to a page, a table or a JSON
// printer. What fails names the first field that is wrong, in one line. Pure.

/** how a value is checked and rebuilt: the value, or a throw of RemoteShapeError naming where it is wrong */
export type Shape<T> = (value: unknown, at: string) => T;

/** a field that is not what this flower-pty reads: where (`generations[3].n`) and what it should be */
export class RemoteShapeError extends Error {
  constructor(
    readonly at: string,
    readonly want: string,
  ) {
    super(`${at} is not ${want}`);
  }
}

const fail = (at: string, want: string): never => {
  throw new RemoteShapeError(at === '' ? 'the answer' : at, want);
};

/** a number that is a number (no NaN, no Infinity: JSON has neither, but a cast might) */
export const finite: Shape<number> = (v, at) =>
  typeof v === 'number' && Number.isFinite(v) ? v : fail(at, 'a finite number');

/** a moment as milliseconds since the epoch, within the range a Date can hold (a chart prints it as a time) */
export const epochMs: Shape<number> = (v, at) =>
  typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 8.64e15 ? v : fail(at, 'a time in milliseconds');

/** a whole number, 0 or more */
export const count: Shape<number> = (v, at) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : fail(at, 'a whole number');

export const flag: Shape<boolean> = (v, at) => (typeof v === 'boolean' ? v : fail(at, 'true or false'));

/** a string of at most `max` characters */
export const text =
  (max: number): Shape<string> =>
  (v, at) =>
    typeof v === 'string' && v.length <= max ? v : fail(at, `a string of at most ${max} characters`);

// A time as toISOString writes it: the pages slice it by position, and a chart reads it with Date.parse.
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;
export const time: Shape<string> = (v, at) =>
  typeof v === 'string' && ISO_TIME.test(v) && Number.isFinite(Date.parse(v))
    ? v
    : fail(at, 'a time (2026-01-02T03:04:05.000Z)');

/** a string of this pattern (said as `want`) */
export const matching =
  (pattern: RegExp, want: string): Shape<string> =>
  (v, at) =>
    typeof v === 'string' && pattern.test(v) ? v : fail(at, want);

/** one of a known set of words */
export const oneOf =
  <W extends string | number>(words: readonly W[]): Shape<W> =>
  (v, at) =>
    words.includes(v as W) ? (v as W) : fail(at, `one of ${words.join(', ')}`);

export const orNull =
  <T>(shape: Shape<T>): Shape<T | null> =>
  (v, at) =>
    v === null ? null : shape(v, at);

/** an optional field: absent stays absent */
export const optional =
  <T>(shape: Shape<T>): Shape<T | undefined> =>
  (v, at) =>
    v === undefined ? undefined : shape(v, at);

/** a list of at most `max` items, each of `shape` */
export const listOf =
  <T>(shape: Shape<T>, max: number): Shape<T[]> =>
  (v, at) => {
    if (!Array.isArray(v) || v.length > max) return fail(at, `a list of at most ${max} items`);
    return v.map((item, i) => shape(item, `${at}[${i}]`));
  };

type Fields<T> = { [K in keyof T]-?: Shape<T[K]> };

/** an object with these fields, each checked; rebuilt with them alone (an absent optional field stays out) */
export const record =
  <T>(fields: Fields<T>): Shape<T> =>
  (v, at) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(at, 'an object');
    const source = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, shape] of Object.entries(fields) as Array<[string, Shape<unknown>]>) {
      const value = shape(Object.hasOwn(source, key) ? source[key] : undefined, at === '' ? key : `${at}.${key}`);
      if (value !== undefined) out[key] = value;
    }
    return out as T;
  };

/** a map of known keys (every one present) to values of one shape */
export const keyed = <K extends string, T>(keys: readonly K[], shape: Shape<T>): Shape<Record<K, T>> =>
  record(Object.fromEntries(keys.map((k) => [k, shape])) as Fields<Record<K, T>>);

/** the checked value, or the one line that says which field was wrong */
export function readRemote<T>(shape: Shape<T>, value: unknown): { value: T } | { problem: string } {
  try {
    return { value: shape(value, '') };
  } catch (error) {
    if (error instanceof RemoteShapeError) return { problem: error.message };
    // a RangeError of a list of lists too long to walk: still the host's answer, never ours to crash on
    return { problem: `the answer could not be read (${error instanceof Error ? error.name : 'error'})` };
  }
}
