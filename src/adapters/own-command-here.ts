// Which way of typing flower-pty works in this folder (core/options/own-command.ts decides): whether
// `flower-pty` on the PATH is this same bin (links followed: a global install links it into npm's bin
// folder), and whether the folder is inside the package this bin belongs to.

import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownCommand } from '../core/options/own-command.js';
import { findOnPath } from './claude-binary.js';

const BIN = fileURLToPath(new URL('../../bin/flower-pty.js', import.meta.url));

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** `flower-pty`, `npx flower-pty` or `node /path/to/bin/flower-pty.js`: what runs this flower-pty from `cwd` */
export function ownCommandHere(env: NodeJS.ProcessEnv, cwd: string): string {
  const bin = real(BIN);
  const found = findOnPath('flower-pty', env);
  const packageRoot = dirname(dirname(bin));
  const fromRoot = relative(packageRoot, real(cwd));
  return ownCommand({
    onPath: found !== null && real(found) === bin,
    insidePackage: !fromRoot.startsWith('..') && !isAbsolute(fromRoot),
    bin,
  });
}
