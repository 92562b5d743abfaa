// Whether a process id is alive, asked with signal 0 (nothing is sent). EPERM means it lives but
// belongs to someone else; only ESRCH means it is gone. A pid can be reused, so callers that must
// be sure (the workbench lock) also ask the process itself.

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
