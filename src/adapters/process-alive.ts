// Whether a process id is alive, asked with signal 0 (nothing is sent). EPERM means it lives but
// belongs to someone else; only ESRCH means it is gone. A zombie answers signal 0 too: where PID 1
// does not reap orphans (many containers), a SIGKILLed run server stays a zombie and would look alive
// to the workbench lock, so on Linux its /proc state ("Z") counts as gone. A pid can be reused, so
// callers that must be sure (the workbench lock) also ask the process itself.

import { readFileSync } from 'node:fs';

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // "<pid> (<comm>) <state> ...": comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // no /proc (macOS): signal 0 is all there is
  }
}
