// What the native clients get from src/ through the compiler's -D flags, so each name, word and limit has
// one home in TypeScript: scripts/build-native.mjs builds the programs with them, scripts/fuzz.mjs its
// harnesses (native/fuzz/). Both read the tsc output in dist/, which must be built first.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const load = (root, path) => import(pathToFileURL(join(root, 'dist', path)).href);

/** native/hook-client.c: the variables it reads (src/claude-code/launch.ts) and its limits (src/cli/hook-limits.ts) */
export async function hookDefines(root) {
  const { HOOK_ENV, FLOWER_ENV_PREFIX, STATUSLINE_EVENT } = await load(root, 'claude-code/launch.js');
  const { HOOK_LIMITS } = await load(root, 'cli/hook-limits.js');
  const names = {
    HOOK_ENV_SOCKET: HOOK_ENV.socket,
    HOOK_ENV_TOKEN: HOOK_ENV.token,
    HOOK_ENV_TIMEOUT_MS: HOOK_ENV.timeoutMs,
    HOOK_ENV_USER_STATUSLINE: HOOK_ENV.userStatusLine,
    FLOWER_ENV_PREFIX,
    STATUSLINE_EVENT,
  };
  const limits = {
    DEFAULT_TIMEOUT_MS: HOOK_LIMITS.defaultTimeoutMs,
    MAX_TIMEOUT_MS: HOOK_LIMITS.maxTimeoutMs,
    USER_STATUSLINE_CAP_MS: HOOK_LIMITS.userStatusLineCapMs,
    MAX_PAYLOAD_BYTES: HOOK_LIMITS.maxPayloadBytes,
    MAX_DEPTH: HOOK_LIMITS.maxPayloadDepth,
  };
  return [
    ...Object.entries(names).map(([name, value]) => `-D${name}=${JSON.stringify(value)}`),
    ...Object.entries(limits).map(([name, value]) => `-D${name}=${value}L`),
  ];
}

/** native/fast-relay.c: the ceiling of keys waiting for claude (src/core/server/input-ceiling.ts) */
export async function relayDefines(root) {
  const { MAX_PENDING_INPUT_BYTES } = await load(root, 'core/server/input-ceiling.js');
  return [`-DMAX_PENDING_INPUT=${MAX_PENDING_INPUT_BYTES}u`];
}

/** native/attach-client.c: the wire's version, the exit codes and the outcome's words */
export async function attachDefines(root) {
  const { WIRE_VERSION } = await load(root, 'server/wire.js');
  const { EXIT } = await load(root, 'core/exit-code.js');
  const { OUTCOME_WORDS } = await load(root, 'client/attach-outcome.js');
  const { GIVE_BACK } = await load(root, 'client/attach-client.js');
  // The keys --detach-key takes, as parsePrefix reads them: C-x for each x listed (upper case).
  const { parsePrefix } = await load(root, 'core/screen/keymap.js');
  const detachKeys = Array.from({ length: 0x60 - 0x40 }, (_, i) => String.fromCharCode(0x40 + i))
    .filter((x) => 'byte' in parsePrefix(`C-${x}`))
    .join('');
  const attach = {
    WIRE_VERSION,
    EXIT_OK: EXIT.ok,
    EXIT_SERVER_LOST: EXIT.serverLost,
    EXIT_INTERRUPTED: EXIT.interrupted,
    OUTCOME_DETACHED: cString(OUTCOME_WORDS.detached),
    OUTCOME_LOST: cString(OUTCOME_WORDS.lost),
    OUTCOME_KILLED: cString(OUTCOME_WORDS.killed),
    OUTCOME_LINEAGE: cString(OUTCOME_WORDS.lineage),
    OUTCOME_INTERRUPTED: cString(OUTCOME_WORDS.interrupted),
    GIVE_BACK: cString(GIVE_BACK),
    DETACH_KEYS: cString(detachKeys),
  };
  return Object.entries(attach).map(([name, value]) => `-D${name}=${value}`);
}

// A C string literal: quotes and backslashes escaped, anything outside printable ASCII as three octal digits
// (a hex escape would swallow the hex digits after it).
function cString(text) {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    if (byte === 0x22 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\${byte.toString(8).padStart(3, '0')}`;
  }
  return `${out}"`;
}
