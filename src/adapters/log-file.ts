// The optional --log file: diagnostic lines for a person debugging a run. Never stdout (claude
// owns the screen), never a token.

import { dirname } from 'node:path';
import { appendWithoutBlocking } from './append-file.js';
import { FOLDER_ON_THE_WAY, makePrivateDir } from './private-dir.js';

export function openLog(path: string | null): { write: (line: string) => void; close: () => void } {
  if (!path) return { write: () => undefined, close: () => undefined };
  makePrivateDir(dirname(path), FOLDER_ON_THE_WAY);
  return {
    write(line) {
      // a log that cannot be written (or a FIFO put in its place) must neither block nor end the run
      appendWithoutBlocking(path, `${new Date().toISOString()} ${line.replace(/(sk-ant-|Bearer\s+)\S+/g, '$1****')}\n`);
    },
    close() {},
  };
}
