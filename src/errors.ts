// One error family for everything a person can get wrong or the world can break, each with
// its documented exit code. cli.ts maps them to one line on stderr; anything else is a bug.

export const EXIT = {
  ok: 0,
  internal: 1, // a bug: the only case that prints a stack trace
  usage: 2, // bad flags, bad values, a missing file
  brake: 3, // the runaway brake (max generations, a session born above the line)
  crashLoop: 4, // claude kept crashing
  claudeMissing: 5, // no usable claude: not found, or older than the minimum release (src/claude-code/release.ts)
  doctor: 6, // flower-pty doctor found a FAIL
  notEnded: 7, // `flower-pty kill`: the run did not end when asked
  writeFailed: 8, // a file the run needed could not be written (a full disk, a read-only folder): the line names it
  serverLost: 9, // the run server died without a word (SIGKILL, the OOM killer): the client could not learn why
  interrupted: 130, // stopped by a signal
} as const;

export class FlowerError extends Error {
  override name = 'FlowerError';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// Returns the exit code after telling the person what happened, in one line when it is theirs to fix.
export function reportFatal(error: unknown, write: (line: string) => void = (l) => process.stderr.write(l + '\n')): number {
  if (error instanceof FlowerError) {
    write(`flower-pty: ${error.message}`);
    return error.exitCode;
  }
  if (error instanceof Error && error.name === 'PolicyError') {
    write(`flower-pty: ${error.message}`);
    return EXIT.usage;
  }
  write(`flower-pty: internal error (please report): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return EXIT.internal;
}
