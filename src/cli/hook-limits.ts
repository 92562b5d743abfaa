// The hook client's limits, one home for its two builds: src/cli/hook-client.ts reads them here and
// native/hook-client.c gets them through the build (scripts/build-native.mjs). Pure and tiny: the Node
// client loads it on every hook.
import { HOOK_TIMEOUT_S } from '../claude-code/launch.js';

export const HOOK_LIMITS = {
  /** how long it waits for the run's answer when FLOWER_PTY_HOOK_TIMEOUT_MS gives no whole number of ms */
  defaultTimeoutMs: 15_000,
  /** and at most, whatever the variable says: claude kills the hook by then, so longer is waiting for nothing */
  maxTimeoutMs: HOOK_TIMEOUT_S * 1000,
  /** the person's own status-line command gets this long */
  userStatusLineCapMs: 5_000,
  /** the server's own limit: a larger payload would only be refused after the cost of sending it */
  maxPayloadBytes: 8 * 1024 * 1024,
  /** a payload with a value inside more arrays and objects than this is not sent (the native reader recurses
   * once per level, and Node's JSON.stringify runs out of stack a few thousand deep) */
  maxPayloadDepth: 512,
} as const;

/** the wait for the run's answer FLOWER_PTY_HOOK_TIMEOUT_MS asks for (digits alone, not 0), at most the ceiling */
export function hookTimeoutMs(text: string | undefined): number {
  if (!text || !/^[0-9]+$/.test(text) || Number(text) === 0) return HOOK_LIMITS.defaultTimeoutMs;
  return Math.min(Number(text), HOOK_LIMITS.maxTimeoutMs);
}

/** whether a JSON text (already known valid) holds a value inside more than `max` arrays and objects: the
 * text's nesting, not the parsed value's (a duplicate key JSON.parse drops still counts, as it does natively) */
export function nestedDeeperThan(json: Buffer, max: number): boolean {
  let open = 0;
  let inString = false;
  let escaped = false;
  for (const byte of json) {
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === 0x5c) escaped = true;
      else if (byte === 0x22) inString = false;
      continue;
    }
    if (byte === 0x7d || byte === 0x5d) open--;
    else if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte === 0x2c || byte === 0x3a)
      continue;
    else if (open > max)
      return true; // a value (or a key) inside a container at depth `max`: one level too deep
    else if (byte === 0x7b || byte === 0x5b) open++;
    else if (byte === 0x22) inString = true;
  }
  return false;
}
