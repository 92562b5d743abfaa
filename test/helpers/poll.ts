// Waiting in tests for something another process or a timer brings: one sleep, one poll and one `until` for
// every test file instead of a copy in each. Each file keeps its own bound and pace (`untilWithin`).

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** checks `ok` every `everyMs` until it holds (true) or `ms` have passed (false) */
export async function poll(ok: () => boolean, ms: number, everyMs: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (!ok()) {
    if (performance.now() > end) return false;
    await sleep(everyMs);
  }
  return true;
}

/** waits until `ok` holds; after `ms` throws "timed out waiting for <what>" */
export async function until(what: string, ok: () => boolean, ms: number, everyMs = 10): Promise<void> {
  if (!(await poll(ok, ms, everyMs))) throw new Error(`timed out waiting for ${what}`);
}

/** a file's `until`: its own default bound and pace */
export function untilWithin(
  defaultMs: number,
  everyMs: number,
): (what: string, ok: () => boolean, ms?: number) => Promise<void> {
  return (what, ok, ms = defaultMs) => until(what, ok, ms, everyMs);
}
