// node:crypto, loaded the first time a file is hashed or a temp name drawn, not when a module that
// might do so loads: it costs a light entry (`flower-pty attach`, which reaches the trust store through
// the config) several milliseconds of start-up, and an attach hashes and writes nothing.

import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');
let crypto: Crypto | null = null;
// A builtin through require is synchronous, as the callers are (an ESM import() is not).
const load = (): Crypto => (crypto ??= createRequire(import.meta.url)('node:crypto') as Crypto);

export function sha256Hex(data: Buffer | string): string {
  return load().createHash('sha256').update(data).digest('hex');
}

export function randomHex(bytes: number): string {
  return load().randomBytes(bytes).toString('hex');
}
