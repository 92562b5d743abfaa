// A usage limit as Claude Code 2.1.332 records it (docs/claude-code.md §10): the synthetic transcript row of
// a refused request says until when, and whether Claude Code continues by itself (a subscription's limit,
// apiError usage_limit_reached; an API-key or token login's is not continued). A pure reader of a raw row.

import type { UsageLimit } from '../core/meter/transcript-record.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

// The synthetic assistant row of a refused request, or null for any other row.
export function usageLimitOfRow(row: unknown): UsageLimit | null {
  if (!isObj(row) || row.type !== 'assistant' || row.isApiErrorMessage !== true) return null;
  if (row.apiErrorStatus !== 429 && row.error !== 'rate_limit') return null;
  const params = isObj(row.apiErrorParams) ? row.apiErrorParams : {};
  const info = isObj(params.rate_limit_info) ? params.rate_limit_info : {};
  const resetsAt =
    typeof info.resetsAt === 'number' && Number.isFinite(info.resetsAt) && info.resetsAt > 0
      ? info.resetsAt * 1000
      : null;
  return {
    resetsAtMs: resetsAt,
    limitType: typeof info.rateLimitType === 'string' ? info.rateLimitType : null,
    autoContinues: row.apiError === 'usage_limit_reached',
  };
}
