// A file flower-pty could not write (a full disk, a read-only folder): what it was, where, why, what it
// costs and what to do, as the words the status bar and the events carry. A document the model wrote is
// never lost to it: the run keeps it in memory and the successor starts from that copy. Pure.

import { EXIT } from '../exit-code.js';

export type WriteWhat = 'document' | 'manifest' | 'record' | 'prompt';

export interface WriteTrouble {
  what: WriteWhat;
  path: string;
  /** the system's own words, e.g. "ENOSPC: no space left on device, write" */
  reason: string;
}

const NAMES: Record<WriteWhat, string> = {
  document: 'the handoff document',
  manifest: 'the lineage (manifest.json)',
  record: "the report's copy of a successor's first prompt",
  prompt: "the successor's first prompt",
};

const COSTS: Record<WriteWhat, string> = {
  document: 'the successor starts from the copy flower-pty keeps in memory',
  manifest: 'the lineage on disk is behind until a write succeeds',
  record: 'only the report misses it; the run goes on',
  prompt: 'the successor cannot be started',
};

// What a person can do about it, from the system's reason.
export function writeAdvice(reason: string): string {
  if (/ENOSPC|EDQUOT|no space|quota/i.test(reason)) return 'free some space on that disk';
  if (/EROFS|read-only/i.test(reason)) return 'the disk is mounted read-only: remount it writable';
  if (/EACCES|EPERM|permission/i.test(reason)) return 'make that folder writable for you';
  return 'check that the folder exists and can be written';
}

// The one line a face shows and a log keeps: "could not write the handoff document /p/x.md: ENOSPC …".
export function troubleText(t: WriteTrouble): string {
  return `could not write ${NAMES[t.what]} ${t.path}: ${t.reason}; ${COSTS[t.what]}; ${writeAdvice(t.reason)}`;
}

// The fields of the `write-failed` event.
export function troubleFields(t: WriteTrouble): {
  what: string;
  path: string;
  reason: string;
  cost: string;
  advice: string;
} {
  return { what: t.what, path: t.path, reason: t.reason, cost: COSTS[t.what], advice: writeAdvice(t.reason) };
}

// The status bar's short word while a write is failing (the full line is in the note and the events).
export function troubleAttention(t: WriteTrouble): string {
  return `disk trouble: ${NAMES[t.what]} not written (${t.reason.split(',')[0]})`;
}

// The run's end when its last manifest write failed: a clean end (0) becomes `code`, with the line that
// says which file and why; any other end keeps its own code and message.
export function lineageUnsaved(
  result: { exitCode: number; message?: string },
  error: string | null,
  path: string | null,
  code: number,
): { exitCode: number; message?: string } {
  if (error === null || path === null || result.exitCode !== EXIT.ok) return result;
  return { exitCode: code, message: troubleText({ what: 'manifest', path, reason: error }) };
}
