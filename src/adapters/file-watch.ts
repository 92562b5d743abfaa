// Watches one file with chokidar. Editors save by rename, by truncate-and-write and by `sed -i`
// (a new inode); raw fs.watch follows the old inode and goes silent after a rename (docs/libraries.md §4),
// chokidar's atomic mode and awaitWriteFinish turn all of them into one settled event.

import { watch, type FSWatcher } from 'chokidar';

export type FileChange = 'changed' | 'removed';

export interface FileWatch {
  close(): Promise<void>;
}

export function watchFile(path: string, onChange: (kind: FileChange) => void): FileWatch {
  const watcher: FSWatcher = watch(path, {
    ignoreInitial: true,
    atomic: true,
    awaitWriteFinish: { stabilityThreshold: 80, pollInterval: 20 },
  });
  watcher.on('add', () => onChange('changed'));
  watcher.on('change', () => onChange('changed'));
  watcher.on('unlink', () => onChange('removed'));
  // A watch that fails (permissions, too many watchers) costs live updates, never the run.
  watcher.on('error', () => undefined);
  return { close: () => watcher.close() };
}
