// The run's one sink for keys into claude (src/runtime/claude-keys.ts), connected to a claude that only
// records what it is written and a run that only records what it is told, for the tests of the key path.
import { createClaudeKeys, type ClaudeKeys } from '../../src/runtime/claude-keys.js';

export interface RecordingKeys {
  keys: ClaudeKeys;
  /** what claude was written, write by write */
  written: string[];
  /** what the run was told (its `typed` inputs), in order */
  told: string[];
  /** claude ends: the sink writes it nothing more */
  exit(): void;
}

export function recordingKeys(o: { echoFirst: boolean }): RecordingKeys {
  const written: string[] = [];
  const told: string[] = [];
  let exited = false;
  const child = {
    get exited() {
      return exited;
    },
    write: (data: string) => void written.push(data),
  };
  const keys = createClaudeKeys(o);
  keys.connect({ child: () => child, told: (data) => void told.push(data) });
  return { keys, written, told, exit: () => void (exited = true) };
}
