// The runtime: one serial event loop. Everything that happens becomes a RunInput, `decide()` (in the
// core) returns the new run and its effects, and the effects are carried out one after another
// through the ports. An effect's result, and its failure, comes back as an event: nothing here
// decides, and nothing can leave the run waiting on an effect that silently failed. The queue is
// run-queue.ts, the effects' executor effect-executor.ts; this file joins them to the face and the hooks.

import { toHookEvent } from '../claude-code/run-hook.js';
import type { RunState } from '../core/run/run-state.js';
import { createClaudeKeys, PERSON_KEYS, type ClaudeKeys } from './claude-keys.js';
import { createEffectExecutor, type RunResult } from './effect-executor.js';
import type { Face } from './face.js';
import type { Disposable, Ports } from './ports.js';
import { createRunQueue } from './run-queue.js';

export type { RunResult } from './effect-executor.js';

export interface RunLoop {
  /** a hook call from claude: resolves with what the hook prints */
  hook(event: string, payload: Record<string, unknown>): Promise<string>;
  /** ends the run as a quit would (a signal, a kill from a client) */
  quit(): void;
  readonly done: Promise<RunResult>;
  /** the run as it stands (for tests and the server's `ls`) */
  readonly state: RunState;
}

/** `keys`: the sink every key for claude goes through (claude-keys.ts), when the run's face hands keys
 * to it itself (the run server's clients); else one of the loop's own, for the face's onInput */
export interface RunLoopOptions {
  initial: RunState;
  ports: Ports;
  face: Face;
  keys?: ClaudeKeys;
}

export function startRunLoop({
  initial,
  ports,
  face,
  keys = createClaudeKeys({ echoFirst: false }),
}: RunLoopOptions): RunLoop {
  const now = () => ports.clock.now();
  let watch: Disposable | null = null;
  const executor = createEffectExecutor({
    ports,
    face,
    keys,
    post: (event) => queue.post(event),
    atEnd: () => watch?.dispose(),
  });
  const queue = createRunQueue(initial, executor.carryOut);
  const post = queue.post;

  // ---- the face: keys go to claude through the one sink, the run told after; sizes go straight to claude;
  // commands are events
  keys.connect({ child: executor.current, told: (data) => post({ type: 'typed', now: now(), data }) });
  face.onInput((data) => keys.send(data, PERSON_KEYS));
  face.onResize((cols, rows) => executor.current()?.resize(cols, rows));
  face.onCommand((command) => {
    if (command === 'force-handoff' || command === 'hold' || command === 'release' || command === 'quit')
      post({ type: 'command', now: now(), command });
  });
  watch = ports.documents.currentPath
    ? ports.documents.watch((text) => post({ type: 'document-changed', now: now(), text }))
    : null;

  post({ type: 'start', now: now() });

  return {
    hook(event, payload) {
      return new Promise<string>((resolve) => {
        // The reading that crossed the line may have landed a moment before the hook fired.
        executor.catchUp();
        const id = executor.awaitReply(resolve);
        post({ type: 'hook', now: now(), id, hook: toHookEvent(event, payload) });
      });
    },
    quit: () => post({ type: 'command', now: now(), command: 'quit' }),
    done: executor.done,
    get state() {
      return queue.state;
    },
  };
}
