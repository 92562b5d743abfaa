// The optional --log file: diagnostic lines for a person debugging a run. Never stdout (claude
// owns the screen), never a token.

import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export function openLog(path: string | null): { write: (line: string) => void; close: () => void } {
  if (!path) return { write: () => undefined, close: () => undefined };
  mkdirSync(dirname(path), { recursive: true });
  return {
    write(line) {
      try {
        appendFileSync(path, `${new Date().toISOString()} ${line.replace(/(sk-ant-|Bearer\s+)\S+/g, '$1****')}\n`, { mode: 0o644 });
      } catch {
        // a log that cannot be written must not end the run
      }
    },
    close() {},
  };
}
