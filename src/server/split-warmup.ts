// The split view made ready before a chooser switches to this run (docs/chooser.md, "The switch"). A run
// server loads the split view's code with its first split view, and the first face it opens runs cold
// (blessed's terminfo compiled for that $TERM, every draw function not yet optimised): 250 to 300 ms
// on a loaded machine where a warm one takes 60. A chooser that lists this run says so (a `query` hello
// with `chooser` and its $TERM): the server then loads that code and draws one throwaway split view
// into nothing, off the person's path, once per terminal name. A run nobody chooses from stays as
// light as before (docs/benchmarks.md: the idle server's memory).

import { PassThrough } from 'node:stream';
import type { StatusView } from '../runtime/face.js';

// How long the throwaway face lives: long enough for its frames (split-frames.ts paces them) to be drawn.
const DRAWN_AFTER_MS = 60;
// Its size: any will do, its code is the same at every size.
const SIZE = { cols: 120, rows: 40 };

export interface SplitWarmup {
  /** a chooser listed this run from a terminal of this name: have its split view ready */
  hint(term: string | undefined): void;
}

export function createSplitWarmup(o: {
  latest: () => StatusView | null;
  log: (line: string) => void;
  /** draws the throwaway split view (a test's stand-in) */
  draw?: (term: string, view: StatusView | null) => Promise<void>;
}): SplitWarmup {
  const draw = o.draw ?? drawSplitOnce;
  const warmed = new Set<string>();
  let queue: Promise<void> = Promise.resolve();
  return {
    hint(term) {
      const name = term || 'xterm-256color';
      if (warmed.has(name)) return;
      warmed.add(name);
      // one at a time, after the hello's answer is out
      queue = queue
        .then(() => new Promise<void>((later) => setImmediate(later)))
        .then(() => draw(name, o.latest()))
        .catch((error: unknown) =>
          o.log(`warming the split view for ${name} failed: ${error instanceof Error ? error.message : String(error)}`),
        );
    },
  };
}

// One split view on a terminal that takes every byte and shows none, drawing its own emulator's screen.
export async function drawSplitOnce(term: string, view: StatusView | null): Promise<void> {
  const [{ createSplitFace }, { createEmulator }] = await Promise.all([
    import('../faces/split-face.js'),
    import('../adapters/emulator.js'),
  ]);
  const screen = createEmulator({ ...SIZE, scrollback: 0 });
  const stdout = Object.assign(new PassThrough(), { columns: SIZE.cols, rows: SIZE.rows, isTTY: false });
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  stdout.resume(); // nobody reads it
  screen.term.write('\u001b[1mclaude\u001b[0m ready\r\n> ');
  const face = createSplitFace({
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: stdout as unknown as NodeJS.WriteStream,
    env: { TERM: term },
    documentPath: null,
    // nothing it draws is seen, and it has no person to type anything: the words are never read
    ownCommand: 'flower-pty',
    screen,
    onDetach: () => undefined,
  });
  try {
    face.show({ t: 'child', state: 'started' });
    if (view) face.show({ t: 'status', view });
    await new Promise((drawn) => setTimeout(drawn, DRAWN_AFTER_MS));
  } finally {
    face.restore();
    screen.dispose();
    stdout.destroy();
    stdin.destroy();
  }
}
