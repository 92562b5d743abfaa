// A run page's address names its run by key, one path segment: `ID` here, `HOST:ID` (URL-encoded) on
// another machine. Anything else names no run (null), so the server answers it as not found.

import { parseHostTarget, RUN_ID_RE } from '../hosts/host-name.js';

export function runKeyOfSegment(segment: string | undefined): string | null {
  if (segment === undefined || segment.length > 600) return null;
  let key: string;
  try {
    key = decodeURIComponent(segment);
  } catch {
    return null;
  }
  const target = parseHostTarget(key);
  if (target === null) return RUN_ID_RE.test(key) ? key : null;
  return 'problem' in target ? null : key;
}
