// Which exit code a run ends with. A signal that stopped the run wins over what the run itself returned,
// as a shell reports it (128 + the signal's number); `flower-pty kill` is not a signal of the run's own,
// so a killed run keeps the code the run returned. Pure.

const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

export function signalExitCode(signal: string): number {
  return 128 + (SIGNAL_NUMBERS[signal] ?? 0);
}

/** `endedBy`: what ended the run from outside (a signal's name, 'kill'), or null when it ended by itself */
export function runExitCode(endedBy: string | null, returned: number): number {
  return endedBy !== null && endedBy !== 'kill' ? signalExitCode(endedBy) : returned;
}
