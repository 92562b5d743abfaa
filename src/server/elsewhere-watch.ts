// While a terminal is attached to one run, how many of the person's other runs on this machine wait for
// them (a permission, a question, a document in review: the one picture of a run says which): asked every
// few seconds and told only when the count changes, so the split view's status bar can say so with the key
// to the chooser; and the bell and notification, once, when one of them starts waiting (the rule is
// core/picture/elsewhere-alerts.ts). A Node attach client asks (it is idle while the server draws its
// terminal); for a client that does not (the native one), the run server asks itself (elsewhere-faces.ts).

import { elsewhereAlerts, type ElsewhereAlert, type ElsewhereSeen } from '../core/picture/elsewhere-alerts.js';
import { runPicture } from '../core/picture/run-picture.js';
import { configFromEnv, readConfigFile, userConfigPath } from '../adapters/config-file.js';
import { listRuns } from './run-registry.js';

export const ELSEWHERE_EVERY_MS = 2_000;

// The person's own `notify` setting, as a run started here would take it (the variable over the user's
// config; a folder's config is the run's, not this terminal's). A setting that cannot be read rings
// nothing: the run started with it would have refused it in one line already.
export function personNotifies(env: Readonly<Record<string, string | undefined>>): boolean {
  try {
    return ({ ...readConfigFile(userConfigPath(env)), ...configFromEnv(env) }.notify ?? true) !== false;
  } catch {
    return false;
  }
}

/** counts the waiting runs other than `selfId` in socket folder `dir`, telling `onCount` of each change and `onAlert` of each run that starts waiting; returns stop */
export function watchElsewhere(o: {
  dir: string;
  selfId: () => string | null;
  onCount: (count: number) => void;
  onAlert?: (alert: ElsewhereAlert) => void;
  notify?: boolean;
  everyMs?: number;
}): () => void {
  let stopped = false;
  let last = 0;
  let seen: ElsewhereSeen = null;
  let timer: NodeJS.Timeout | null = null;
  const ask = async (): Promise<void> => {
    const { runs } = await listRuns(o.dir).catch(() => ({ runs: [] }));
    if (stopped) return;
    const count = runs.filter((r) => r.id !== o.selfId() && runPicture(r).needsPerson).length;
    if (count !== last) o.onCount((last = count));
    const looked = elsewhereAlerts(seen, runs, o.selfId(), Boolean(o.onAlert) && o.notify !== false);
    seen = looked.seen;
    for (const alert of looked.alerts) o.onAlert?.(alert);
    timer = setTimeout(() => void ask(), o.everyMs ?? ELSEWHERE_EVERY_MS);
    timer.unref();
  };
  void ask();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
