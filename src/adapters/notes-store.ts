// The workbench's notes folder: the current frozen document per step, and the archive of
// earlier generations (and the model's drafts when a person edited them). Never deletes a file.

import { readFile, rename, mkdir, stat, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { constants } from 'node:fs';
import { NO_FOLLOW, refuseLinks } from './no-follow.js';
import { writeFileAtomic, removeStaleTemps } from './atomic-file.js';

export const HANDOFF_DIR_NAME = '交接';

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
  return now.toISOString().replace(/[:]/g, '').replace(/\.(\d+)Z$/, '.$1Z');
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
        await mkdir(archiveDir, { recursive: true });
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
      try {
        return await readFile(currentPath, { encoding: 'utf8', flag: constants.O_RDONLY | NO_FOLLOW });
      } catch {
        return null;
      }
    },
    async saveDraft(text, now) {
      refuseLinks(workbench, join(archiveDir, 'x'), 'the archived document');
      await mkdir(archiveDir, { recursive: true });
      const path = await freeName(archiveDir, `${step}-${stamp(now)}`, '.draft.md');
      await writeFileAtomic(path, text, workbench);
      return path;
    },
  };
}
