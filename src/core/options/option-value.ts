// One value for one row of the options table, checked against the row's type and range, the same way
// whether it came from a flag, a FLOWER_PTY_* variable or a config file (a string is read as a person types
// it). The problem comes back in words without the option's name: the caller says where it came from. Pure.

import { parseTokenCount } from '../meter/token-format.js';
import type { OptionRow } from './options-table.js';

export type OptionValue = number | string | boolean;

const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = {
  '1': true,
  true: true,
  yes: true,
  on: true,
  '0': false,
  false: false,
  no: false,
  off: false,
};

function asNumber(raw: unknown): number {
  return typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
}

function checkSeconds(row: OptionRow, raw: unknown): { value: number } | { problem: string } {
  const n = asNumber(raw);
  const min = row.min ?? 0;
  const shown = shownValue(raw);
  if (!Number.isFinite(n) || n < min) {
    return {
      problem: `expects a number of seconds (${min === 0 ? '0 or more' : `at least ${min}: ${row.minWhy ?? ''}`}), got ${shown}`,
    };
  }
  if (row.max !== undefined && n > row.max)
    return { problem: `expects a number of seconds from ${min} to ${row.max} (a day at most), got ${shown}` };
  return { value: n };
}

function checkCount(row: OptionRow, raw: unknown): { value: number } | { problem: string } {
  const n = asNumber(raw);
  const min = row.min ?? 1;
  // a count is shown as typed (`got 0`), as the brake's own check in core/run/policy.ts words it
  const shown = typeof raw === 'string' && raw.trim() !== '' ? raw : shownValue(raw);
  if (!Number.isInteger(n) || n < min) return { problem: `expects a whole number of at least ${min}, got ${shown}` };
  if (row.max !== undefined && n > row.max)
    return { problem: `${n} is past the ceiling of ${row.max}${row.maxWhy ? `: ${row.maxWhy}` : ''}` };
  return { value: n };
}

// A share: 0.5 or 50%, from 0 (off) to 1.
function checkShare(raw: unknown): { value: number } | { problem: string } {
  const text = typeof raw === 'string' ? raw.trim() : raw;
  const percent = typeof text === 'string' && text.endsWith('%');
  const n = asNumber(percent ? (text as string).slice(0, -1) : text) / (percent ? 100 : 1);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    return { problem: `expects a share from 0 to 1 like 0.5 or 50% (0 = off), got ${shownValue(raw)}` };
  return { value: n };
}

/** a value as a one-line problem shows it: a list or an object by its kind only (one nested deep enough
 * would overflow the stack of a JSON.stringify), anything else as JSON, cut short */
export function shownValue(raw: unknown): string {
  if (Array.isArray(raw)) return 'a list';
  if (typeof raw === 'object' && raw !== null) return 'an object';
  const text = JSON.stringify(raw) ?? String(raw);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** the value of `raw` for `row`, or what is wrong with it */
export function checkOption(row: OptionRow, raw: unknown): { value: OptionValue } | { problem: string } {
  switch (row.type) {
    case 'tokens':
      if (typeof raw === 'number' || typeof raw === 'string') {
        try {
          return { value: parseTokenCount(row.name, raw) };
        } catch {
          // the same words below for every source
        }
      }
      return { problem: `expects a token count like 200000 or 200k, got ${shownValue(raw)}` };
    case 'seconds':
      return checkSeconds(row, raw);
    case 'count':
      return checkCount(row, raw);
    case 'share':
      return checkShare(raw);
    case 'string':
      if (typeof raw === 'string' && raw.trim() !== '') return { value: raw };
      return { problem: `expects a non-empty string, got ${shownValue(raw)}` };
    case 'boolean': {
      if (typeof raw === 'boolean') return { value: raw };
      const word = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
      if (Object.hasOwn(BOOLEAN_WORDS, word)) return { value: BOOLEAN_WORDS[word]! };
      return { problem: `expects true or false, got ${shownValue(raw)}` };
    }
  }
}
