// While a terminal is attached to one run, how many of the person's other runs on this machine wait for
// them (a permission, a question, a document in review: the one picture of a run says which): asked every
// few seconds and told only when the count changes, so the split view's status bar can say so with the key
// to the chooser. The attach client is idle while the server draws its terminal: the asking is its.

import { runPicture } from '../core/picture/run-picture.js';
import { listRuns } from '../server/run-registry.js';

export const ELSEWHERE_EVERY_MS = 2_000;

/** counts the waiting runs other than `selfId` in socket folder `dir`, telling `onCount` of each change; returns stop */
export function watchElsewhere(o: {
  dir: string;
  selfId: () => string | null;
  onCount: (count: number) => void;
  everyMs?: number;
}): () => void {
  let stopped = false;
  let last = 0;
  let timer: NodeJS.Timeout | null = null;
  const ask = async (): Promise<void> => {
    const { runs } = await listRuns(o.dir).catch(() => ({ runs: [] }));
    if (stopped) return;
    const count = runs.filter((r) => r.id !== o.selfId() && runPicture(r).needsPerson).length;
    if (count !== last) o.onCount((last = count));
    timer = setTimeout(() => void ask(), o.everyMs ?? ELSEWHERE_EVERY_MS);
    timer.unref();
  };
  void ask();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
