// The exit codes, defined once with what each means: core/errors.ts, every command, --help and the README's
// list (held to it by test/readme.test.ts) read them here. And which code a run ends with: a signal that
// stopped the run wins over what the run itself returned, as a shell reports it (128 + the signal's
// number); `flower-pty kill` is not a signal of the run's own, so a killed run keeps the code the run
// returned. Pure.

const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

export function signalExitCode(signal: string): number {
  return 128 + (SIGNAL_NUMBERS[signal] ?? 0);
}

/** one row a code: its name in the code, the number, and what it means in the help's words */
export const EXIT_CODES = [
  { name: 'ok', code: 0, meaning: 'done' },
  { name: 'internal', code: 1, meaning: 'internal error' }, // a bug: the only case that prints a stack trace
  { name: 'usage', code: 2, meaning: 'bad usage' }, // bad flags, bad values, a config file, a missing file
  { name: 'brake', code: 3, meaning: 'runaway brake' }, // max generations, a session born above the line
  { name: 'crashLoop', code: 4, meaning: 'claude kept crashing' },
  { name: 'claudeMissing', code: 5, meaning: 'claude not found or too old' }, // the minimum release: src/claude-code/release.ts
  { name: 'doctor', code: 6, meaning: 'doctor found a problem' },
  { name: 'notEnded', code: 7, meaning: 'kill: the run did not end' },
  { name: 'writeFailed', code: 8, meaning: 'a file could not be written (a full disk)' }, // the line names it
  { name: 'serverLost', code: 9, meaning: 'the run server died without a word (killed)' }, // SIGKILL, the OOM killer: the client could not learn why
  { name: 'interrupted', code: signalExitCode('SIGINT'), meaning: 'interrupted' },
] as const;

type ExitName = (typeof EXIT_CODES)[number]['name'];

export const EXIT = Object.fromEntries(EXIT_CODES.map((row) => [row.name, row.code])) as {
  readonly [K in ExitName]: Extract<(typeof EXIT_CODES)[number], { name: K }>['code'];
};

/** the help's one line: "0 done · 1 internal error · …", then the codes of a signal */
export function exitCodesLine(): string {
  return `${EXIT_CODES.map((row) => `${row.code} ${row.meaning}`).join(' · ')} · 128+n the run server stopped by signal n.`;
}

/** `endedBy`: what ended the run from outside (a signal's name, 'kill'), or null when it ended by itself */
export function runExitCode(endedBy: string | null, returned: number): number {
  return endedBy !== null && endedBy !== 'kill' ? signalExitCode(endedBy) : returned;
}
