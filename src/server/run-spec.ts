// What the client hands the run server it starts: the run's options, already validated, as a JSON
// file readable only by the user (written 0600 in the private socket folder, deleted once read).
// The environment is not in it: the server inherits the client's, so no token is ever written down.

import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { SuperviseOptions } from '../runtime/supervisor.js';
import { FlowerError } from '../core/errors.js';
import type { DemoSpec } from './demo-serve.js';

export interface RunSpec {
  /** the run's id: its socket is `<socket dir>/<id>.sock` */
  id: string;
  /** everything supervise() takes that survives JSON (no env, log, signal or notify) */
  options: Omit<SuperviseOptions, 'env' | 'log' | 'signal' | 'notify'>;
  /** the --log file, if any */
  logPath: string | null;
  /** bell and desktop notifications: sent to the attached terminals (none attached: nobody to ring) */
  notify: boolean;
  /** the first client's size: the first claude starts at it */
  cols: number;
  rows: number;
  /** `flower-pty demo`: the scripted model runs in the server, claude in the demo's throwaway folder */
  demo?: DemoSpec;
}

export function writeRunSpec(path: string, spec: RunSpec): void {
  writeFileSync(path, JSON.stringify(spec), { mode: 0o600, flag: 'wx' });
}

export function readRunSpec(path: string): RunSpec {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new FlowerError(
      `the run spec ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  } finally {
    rmSync(path, { force: true });
  }
  const spec = JSON.parse(text) as RunSpec;
  if (
    typeof spec?.id !== 'string' ||
    typeof spec.options !== 'object' ||
    !Number.isInteger(spec.cols) ||
    !Number.isInteger(spec.rows)
  ) {
    throw new FlowerError(`the run spec ${path} is not one flower-pty wrote`);
  }
  return spec;
}
