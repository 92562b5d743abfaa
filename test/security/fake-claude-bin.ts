// The person's own claude for a command-level test: the fake (test/faults/fake-flower.ts) on PATH in a
// folder of its own, and `flower-pty` run in a project with everything it reads kept under `root`.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FLOWER_BIN } from '../helpers/flower-run.js';
import { FAKE_CLAUDE } from '../faults/fake-flower.js';

export function fakeClaudeBin(
  root: string,
): (cwd: string, args: string[]) => { code: number | null; out: string; err: string } {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\nexec "${process.execPath}" "${FAKE_CLAUDE}" "$@"\n`);
  chmodSync(join(bin, 'claude'), 0o755);
  const script = join(root, 'script.json');
  writeFileSync(script, JSON.stringify({ default: { steps: [{ turn: 8_000 }, { exit: 0 }] } }));
  return (cwd, args) => {
    const r = spawnSync(process.execPath, [FLOWER_BIN, ...args], {
      cwd,
      encoding: 'utf8',
      input: '',
      timeout: 60_000,
      env: {
        PATH: `${bin}:/usr/bin:/bin`,
        HOME: join(root, 'home'),
        XDG_CONFIG_HOME: join(root, 'xdg'),
        XDG_RUNTIME_DIR: root,
        CLAUDE_CONFIG_DIR: join(root, 'cc'),
        FAKE_CLAUDE_SCRIPT: script,
        FAKE_CLAUDE_STATE: join(root, 'state'),
      },
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
}
