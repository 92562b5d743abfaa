// The --events file: one JSON object a line, appended, each one of core/run/run-events.ts's events. Carries
// flower-pty's own events only (never the environment or tokens), and never throws into the run.

import { dirname } from 'node:path';
import { appendWithoutBlocking } from './append-file.js';
import { FOLDER_ON_THE_WAY, makePrivateDir } from './private-dir.js';
import type { RunEventName, RunEventFields } from '../core/run/run-events.js';

export interface EventsLog {
  emit<K extends RunEventName>(event: K, fields: RunEventFields<K>): void;
}

export function openEventsLog(path: string | null, now: () => Date = () => new Date()): EventsLog {
  if (!path) return { emit() {} };
  makePrivateDir(dirname(path), FOLDER_ON_THE_WAY);
  return {
    emit(event, fields) {
      // Synchronous on purpose: the line must be on disk even if we are killed right after. Never
      // blocking (a FIFO put in its place), never throwing: a full disk must cost the log, not the run.
      appendWithoutBlocking(path, JSON.stringify({ ts: now().toISOString(), event, ...fields }) + '\n');
    },
  };
}
