// The split view's document: shown in its pane as the run writes it, and "prefix e": the person's
// editor on it while the terminal is handed over (no frame drawn meanwhile), read back when it is done.

import { readFileSync } from 'node:fs';

import type { FaceCommand } from '../../runtime/face.js';
import type { DocumentPane } from '../../tui/document-pane.js';
import type { OuterModes } from '../../tui/outer-modes.js';
import type { OuterScreen } from '../../tui/outer-screen.js';
import type { SplitFrames } from '../../tui/split-frames.js';
import { handOverTerminal, runEditor } from '../../tui/editor.js';

export interface DocumentEditing {
  show(path: string, text: string | null): void;
  /** the document at `path` as it is on disk, shown; false when it cannot be read */
  showFile(path: string): boolean;
  edit(): Promise<void>;
}

function readDocument(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export function createDocumentEditing(o: {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  env: Record<string, string | undefined>;
  documentPane: DocumentPane;
  outerScreen: OuterScreen;
  outer: OuterModes;
  frames: SplitFrames;
  /** the path the run's status names, else the one the face was opened with */
  documentPath: () => string | null;
  edit?: (path: string) => Promise<{ ok: boolean; problem?: string }>;
  command: (command: FaceCommand) => void;
  flash: (text: string) => void;
}): DocumentEditing {
  const { documentPane, frames } = o;

  function show(path: string, text: string | null): void {
    documentPane.showDocument(path, text);
    frames.redraw();
  }

  return {
    show,
    showFile(path) {
      const text = readDocument(path);
      if (text === null) return false;
      show(path, text);
      return true;
    },
    async edit() {
      const path = documentPane.path || o.documentPath();
      if (!path) {
        o.flash('no document file: this run has no workbench');
        return;
      }
      o.command('edit-document');
      const result = await handOverTerminal(
        {
          stdin: o.stdin,
          leave() {
            frames.suspend(true);
            o.stdout.write(o.outer.off());
            o.outerScreen.leave();
          },
          ours: () => !frames.disposed,
          enter() {
            o.outerScreen.enter();
            frames.suspend(false);
          },
        },
        () => (o.edit ? o.edit(path) : runEditor(path, o.env)),
      );
      if (frames.disposed) return;
      show(path, readDocument(path));
      if (!result.ok && result.problem) o.flash(result.problem);
      frames.redraw();
    },
  };
}
