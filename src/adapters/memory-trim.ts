// The idle run server's memory trim (native/memory-trim.c) behind one call: a full collection of V8's
// heap first (the server runs without V8's memory reducer, whose idle-time collections landed between a
// person's keys: server/start-server.ts), so what it frees is free by then, then drop the node binary's
// read-only pages the process is not using and glibc's free lists. Linux with glibc; elsewhere, and in a
// build without a C compiler, there is nothing to call and the server keeps its pages (null).

import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The same place from src/adapters and dist/adapters: the package root's dist/native.
const ADDON = fileURLToPath(new URL('../../dist/native/memory-trim.node', import.meta.url));

interface Addon {
  /** the bytes of the executable's mappings advised away */
  trim(): number;
  /** this build gives something back (Linux) */
  readonly supported: boolean;
}

let addon: Addon | null | undefined;

function load(): Addon | null {
  if (addon !== undefined) return addon;
  try {
    addon = existsSync(ADDON) ? (createRequire(import.meta.url)(ADDON) as Addon) : null;
  } catch {
    addon = null; // built for another Node or platform: nothing is given back
  }
  return addon;
}

/** a trim function when this build and system have one, else null */
export function memoryTrim(): (() => { advisedBytes: number }) | null {
  const native = load();
  if (!native?.supported) return null;
  // V8's collector, where the process was started with --expose-gc (the run server is)
  const collect = (globalThis as { gc?: () => void }).gc;
  return () => {
    collect?.();
    return { advisedBytes: native.trim() };
  };
}
