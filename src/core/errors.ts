// One error family for everything a person can get wrong or the world can break, each with
// its documented exit code. cli/main.ts maps them to one line on stderr; anything else is a bug.

// The codes themselves, with their meanings, are core's (core/exit-code.ts): one list for the code, --help
// and the README.
import { EXIT } from './exit-code.js';

export { EXIT };

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

/** a window, headroom or brake a person gave that the policy refuses (core/run/policy.ts, core/meter/token-format.ts) */
export class PolicyError extends Error {
  override name = 'PolicyError';
}

/** a file or folder another user owns or can write: not read into a successor; the line says what and how to fix it */
export class NotYours extends FlowerError {
  override name = 'NotYours';
}

// Returns the exit code after telling the person what happened (through `write`, a line at a time: the caller's
// stderr), in one line when it is theirs to fix.
export function reportFatal(error: unknown, write: (line: string) => void): number {
  if (error instanceof FlowerError) {
    write(`flower-pty: ${error.message}`);
    return error.exitCode;
  }
  if (error instanceof Error && error.name === 'PolicyError') {
    write(`flower-pty: ${error.message}`);
    return EXIT.usage;
  }
  write(
    `flower-pty: internal error (please report): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  return EXIT.internal;
}
