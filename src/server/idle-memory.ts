// An idle run server's housekeeping: it hears of the run's activity (claude's output, clients coming,
// speaking, going) and, when core/server/memory-trim.ts says the run is quiet with no terminal attached, gives back
// the memory it holds for nothing (adapters/memory-trim.ts). Activity is a field written per chunk of
// claude's output, never a timer reset: one timer, armed only while the server is unattended, looks again
// when it fires. The timer never keeps the process alive.

import { active, nextTrim, trimDone, type TrimState } from '../core/server/memory-trim.js';

export interface IdleMemory {
  /** the run did something: claude wrote, a client spoke */
  activity(): void;
  /** a terminal was attached (its first paint) or went */
  attachedChanged(): void;
  dispose(): void;
}

export function createIdleMemory(o: {
  /** terminals attached now (the web face's watchers not counted) */
  attached: () => number;
  /** null: this build or system gives nothing back, and the server keeps no timer for it */
  trim: (() => { advisedBytes: number }) | null;
  log: (line: string) => void;
  now?: () => number;
  quietMs?: number;
}): IdleMemory {
  const { trim } = o;
  if (trim === null) return { activity: () => undefined, attachedChanged: () => undefined, dispose: () => undefined };
  const now = o.now ?? Date.now;
  let state: TrimState = active(now());
  let timer: NodeJS.Timeout | null = null;
  let disposed = false;
  // A server starts with no terminal attached; the count is asked for when a client comes or goes, not
  // per chunk of output.
  let attached = 0;

  const look = (): void => {
    timer = null;
    if (disposed) return;
    const step = nextTrim(state, now(), attached, o.quietMs);
    if (step.type === 'wait') {
      timer = setTimeout(look, step.ms);
      timer.unref();
    } else if (step.type === 'trim') {
      const { advisedBytes } = trim();
      state = trimDone(state);
      o.log(
        `idle: gave back the node binary's pages it was not using (${(advisedBytes / 1048576).toFixed(0)} MB of mappings) and malloc's free memory`,
      );
    }
  };

  look();
  return {
    activity() {
      state = active(now());
      if (timer === null && attached === 0 && !disposed) look();
    },
    attachedChanged() {
      state = active(now());
      attached = o.attached();
      if (timer === null && !disposed) look();
    },
    dispose() {
      disposed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
