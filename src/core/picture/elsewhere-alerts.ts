// The bell and notification for the person's other runs: while a terminal shows one run, another that
// starts waiting for the person (a permission, a question, a file it could not write, a document in
// review) rings this terminal as the run in front would, once when it starts waiting, not on every look.
// The run in front rings itself (its own server's alerts), so it is left out; the person's `notify`
// setting (--no-notify, FLOWER_PTY_NOTIFY, the config's `notify`) silences these as it silences those.
// Pure: the watcher (server/elsewhere-watch.ts) brings the runs and rings.

import { oneLine } from '../one-line.js';
import { runState, type RunFacts } from './run-picture.js';

/** what each other run was waiting for at the last look (id → activity and words); null before the first */
export type ElsewhereSeen = ReadonlyMap<string, string> | null;

export interface ElsewhereAlert {
  title: string;
  body: string;
}

// A run that already waits when the terminal joins is said by the status bar's count, not rung: the
// person has just chosen where to be. A run that waits for something new (a permission after a
// question) rings again; one that keeps waiting for the same thing does not.
export function elsewhereAlerts(
  seen: ElsewhereSeen,
  runs: readonly Pick<RunFacts, 'id' | 'cwd' | 'phase' | 'status'>[],
  selfId: string | null,
  notify: boolean,
): { seen: ElsewhereSeen; alerts: ElsewhereAlert[] } {
  const now = new Map<string, string>();
  const alerts: ElsewhereAlert[] = [];
  for (const r of runs) {
    if (r.id === selfId) continue;
    const state = runState(r);
    if (!state.needsPerson) continue;
    // a review's words count its seconds down: the review itself is the news, not each second
    const key = state.activity === 'review' ? 'review' : `${state.activity}\u0000${state.words}`;
    now.set(r.id, key);
    if (notify && seen !== null && seen.get(r.id) !== key)
      alerts.push({ title: `flower-pty: run ${r.id} waits for you`, body: oneLine(`${state.words} (${r.cwd})`, 200) });
  }
  return { seen: now, alerts };
}
