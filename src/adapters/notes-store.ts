// The workbench's notes folder: the current frozen document per step, and the archive of
// earlier generations (and the model's drafts when a person edited them). Never deletes a file.

import { rename, stat, copyFile } from 'node:fs/promises';
import { FlowerError } from '../core/errors.js';
import { join } from 'node:path';
import { refuseLinks } from './no-follow.js';
import { makePrivateDir, openOwnFile, STATE_DIR } from './private-dir.js';
import { ownCommandHere } from './own-command-here.js';
import { writeFileAtomic, removeStaleTemps } from './atomic-file.js';

export const HANDOFF_DIR_NAME = '交接';

/** a handoff document read back (after a person's edit, for --continue) is at most this: a model writes a
 * few KB, and a file of 100 MB would be held twice in memory and sent twice in the successor's prompt */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

/** the document on disk is over MAX_DOCUMENT_BYTES: not read; said in one line */
export class DocumentTooLarge extends FlowerError {
  constructor(
    readonly path: string,
    readonly size: number,
  ) {
    super(
      `${path} is ${(size / 1024 / 1024).toFixed(1)} MB, more than the ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB a handoff document may be: ` +
        `it was not read (the model's version seeds the successor; your file is kept as it is); trim it to what the next session needs`,
    );
  }
}

export interface NotesStore {
  readonly currentPath: string;
  readonly archiveDir: string;
  /** archive the previous document (if any) and write this one atomically */
  freeze(text: string, now: Date): Promise<{ path: string; archived: string | null }>;
  /** the current document as it is on disk now, or null when there is none */
  read(): Promise<string | null>;
  /** keep the model's original beside the archive, for the lineage of human edits */
  saveDraft(text: string, now: Date): Promise<string>;
}

function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/[:]/g, '')
    .replace(/\.(\d+)Z$/, '.$1Z');
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

// A free name in the archive: two freezes in the same millisecond must not overwrite each other.
async function freeName(dir: string, base: string, ext: string): Promise<string> {
  for (let i = 0; ; i++) {
    const candidate = join(dir, `${base}${i === 0 ? '' : `-${i}`}${ext}`);
    if (!(await exists(candidate))) return candidate;
  }
}

export function openNotesStore(workbench: string, step: string): NotesStore {
  const notesDir = join(workbench, 'notes');
  const currentPath = join(notesDir, `${HANDOFF_DIR_NAME}-${step}.md`);
  const archiveDir = join(notesDir, 'archive', HANDOFF_DIR_NAME);
  // Temps a killed predecessor left behind, swept once before this run's first write.
  let swept: Promise<unknown> | null = null;
  const sweep = () => (swept ??= Promise.all([removeStaleTemps(notesDir), removeStaleTemps(archiveDir)]));
  return {
    currentPath,
    archiveDir,
    async freeze(text, now) {
      await sweep();
      let archived: string | null = null;
      refuseLinks(workbench, currentPath, 'the handoff document');
      if (await exists(currentPath)) {
        refuseLinks(workbench, join(archiveDir, 'x'), 'the archived document');
        makePrivateDir(archiveDir, STATE_DIR);
        refuseLinks(workbench, join(archiveDir, 'x'), 'the archived document');
        archived = await freeName(archiveDir, `${step}-${stamp(now)}`, '.md');
        // rename keeps a person's edits byte for byte; copy only if the archive is on another device.
        await rename(currentPath, archived).catch(async () => {
          await copyFile(currentPath, archived as string);
        });
      }
      await writeFileAtomic(currentPath, text, workbench);
      return { path: currentPath, archived };
    },
    async read() {
      await sweep();
      // a document that is a link (a cloned repository's) is never read into a prompt
      refuseLinks(workbench, currentPath, 'the handoff document');
      // nor one another user owns or can write (checked on the descriptor read, so nothing is swapped in between)
      const handle = await openOwnFile(currentPath, `${ownCommandHere(process.env, process.cwd())} --continue`);
      if (!handle) return null;
      try {
        const size = (await handle.stat()).size;
        if (size > MAX_DOCUMENT_BYTES) throw new DocumentTooLarge(currentPath, size);
        return await handle.readFile('utf8');
      } catch (error) {
        if (error instanceof DocumentTooLarge) throw error;
        return null;
      } finally {
        await handle.close();
      }
    },
    async saveDraft(text, now) {
      refuseLinks(workbench, join(archiveDir, 'x'), 'the archived document');
      makePrivateDir(archiveDir, STATE_DIR);
      const path = await freeName(archiveDir, `${step}-${stamp(now)}`, '.draft.md');
      await writeFileAtomic(path, text, workbench);
      return path;
    },
  };
}
