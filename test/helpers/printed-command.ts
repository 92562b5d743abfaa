// A next step flower-pty printed, checked the way a person uses it: pasted into a shell in the folder the
// command ran in. Only its flower-pty part is run (with --version), so the check ends at once and starts
// no run, yet fails when the words printed would not find this flower-pty from there.
import type { Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';

/** run `own --version` from `cwd` as sh reads it (node's folder on the PATH, as a person's shell has it) */
export function runsAsPrinted(t: Test, own: string, cwd: string, env: Record<string, string | undefined>): void {
  const r = spawnSync('sh', ['-c', `${own} --version`], {
    cwd,
    encoding: 'utf8',
    env: { ...env, PATH: `${dirname(process.execPath)}:${env.PATH ?? '/usr/bin:/bin'}` },
    timeout: 60_000,
  });
  t.equal(r.status, 0, `${own} runs as printed from ${cwd}: ${r.stderr}`);
  t.match(r.stdout, /^\d+\.\d+\.\d+/, `${own} is flower-pty`);
}
