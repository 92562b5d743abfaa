// The seconds a person gives (--review, --write-timeout, --parked-retry, and their config keys and
// variables): one check with a floor and a ceiling per setting. A value past the ceiling is refused
// rather than passed on: Node's timers take at most 2^31-1 ms and fire at once above it, so
// `--review 1e308` would start the successor at once and `--write-timeout 1e308` degrade at once.

export type SecondsSetting = 'review' | 'write-timeout' | 'parked-retry';

/** a day: longer than any wait a run is meant to sit through, far below the timers' 24.8-day limit */
export const MAX_SECONDS = 86_400;

export const SECONDS_RANGE: Readonly<Record<SecondsSetting, { min: number; why: string }>> = {
  review: { min: 0, why: '0 = no review window' },
  // 0 s to write would degrade every handoff before the session could answer
  'write-timeout': { min: 1, why: 'the session needs time to write its document' },
  'parked-retry': { min: 0, why: '0 = type continue as soon as it parks' },
};

/** a number of seconds for `setting`, or the problem in words (without the setting's name) */
export function checkSeconds(setting: SecondsSetting, raw: unknown): { value: number } | { problem: string } {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  const { min, why } = SECONDS_RANGE[setting];
  const range = `${min} to ${MAX_SECONDS}`;
  const shown = JSON.stringify(raw);
  if (!Number.isFinite(n) || n < min) {
    return { problem: `expects a number of seconds (${min === 0 ? '0 or more' : `at least ${min}: ${why}`}), got ${shown}` };
  }
  if (n > MAX_SECONDS) return { problem: `expects a number of seconds from ${range} (a day at most), got ${shown}` };
  return { value: n };
}
