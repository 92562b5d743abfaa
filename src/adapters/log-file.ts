// The optional --log file: diagnostic lines for a person debugging a run. Never stdout (claude
// owns the screen), never a token.

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendWithoutBlocking } from './append-file.js';
import { PRIVATE_DIR_MODE } from './private-dir.js';

export function openLog(path: string | null): { write: (line: string) => void; close: () => void } {
  if (!path) return { write: () => undefined, close: () => undefined };
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  return {
    write(line) {
      // a log that cannot be written (or a FIFO put in its place) must neither block nor end the run
      appendWithoutBlocking(path, `${new Date().toISOString()} ${line.replace(/(sk-ant-|Bearer\s+)\S+/g, '$1****')}\n`);
    },
    close() {},
  };
}
