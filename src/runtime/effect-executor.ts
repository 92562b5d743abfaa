// The run loop's effect executor: carries out each effect `decide()` returned through the ports, and turns
// each result and each failure into an event it posts back. It keeps what the effects touch (the claude that
// runs and the ones on their way out, in claudes.ts; the pending hook answers, in hook-replies.ts; the
// wake-up, wake-timer.ts) and decides nothing. The handoff's own effects (the document, its facts, the
// seed) are handoff-effects.ts'.

import { hookStdout } from '../claude-code/hook-answer.js';
import type { RunEffect, RunInput } from '../core/run/run-state.js';
import type { Face } from './face.js';
import type { ChildHandle, Ports } from './ports.js';
import type { ClaudeKeys } from './claude-keys.js';
import { createClaudes } from './claudes.js';
import { holdHookReplies } from './hook-replies.js';
import { endSaved, manifestWrites } from './manifest-writes.js';
import { wakeTimer } from './wake-timer.js';
import { gatherFacts, readSeed, saveDraft, scoreDocument, writeDocument } from './handoff-effects.js';

export interface RunResult {
  exitCode: number;
  message?: string;
}

export interface EffectExecutor {
  /** one effect of a decision: at once when it only moves a value out, else after the ones before it */
  carryOut(effect: RunEffect): void;
  /** the claude that runs now (or ran last), for the keys and sizes the face sends it */
  current(): ChildHandle | null;
  /** reads the transcripts up to now: what a decision due now looks for is then in */
  catchUp(): void;
  /** a hook call waiting for its answer: the id its `hook` input carries, answered by a `reply` effect */
  awaitReply(resolve: (output: string) => void): number;
  readonly done: Promise<RunResult>;
}

/** `keys`: the sink the run's own keys go through; `post` takes an event back to the run's queue; `atEnd`
 * lets go of what the loop holds besides (its watch) */
export function createEffectExecutor(o: {
  ports: Ports;
  face: Face;
  keys: ClaudeKeys;
  post: (event: RunInput) => void;
  atEnd: () => void;
}): EffectExecutor {
  const { ports, face, post, atEnd } = o;
  let effects: Promise<void> = Promise.resolve();
  const claudes = createClaudes({ ports, face, keys: o.keys, post });
  const hooks = holdHookReplies();
  let finish!: (r: RunResult) => void;
  const done = new Promise<RunResult>((resolve) => (finish = resolve));
  const now = () => ports.clock.now();
  const handoff = { ports, face, post };
  // The transcript is read up to now before each tick: what a decision due now looks for (a held hook's
  // row) is then in, whatever the tail's own poll.
  const wake = wakeTimer(ports.clock, () => {
    claudes.catchUpAll();
    post({ type: 'tick', now: now() });
  });
  const writeManifest = manifestWrites({ lineage: ports.lineage, post, now });

  // Effects that only move a value out run at once (a hook's answer must not wait behind a disk
  // write); the ones that touch the world run in order, one after another.
  function carryOut(effect: RunEffect): void {
    switch (effect.type) {
      case 'reply':
        hooks.answer(effect.id, hookStdout(effect.answer));
        return;
      case 'show':
        face.show(effect.show);
        return;
      case 'alert':
        ports.alert(effect.title, effect.body);
        return;
      case 'tell-person':
        ports.tell(effect.event, now());
        return;
      case 'log':
        ports.log(effect.line);
        return;
      case 'wake-at':
        wake.set(effect.at);
        return;
      case 'score-document':
        // Off the effects' queue: the events and hook answers behind it never wait on a transcript's reading.
        void scoreDocument(effect, handoff);
        return;
      default:
        effects = effects
          .then(() => perform(effect))
          .catch((error: unknown) => ports.log(`effect ${effect.type} failed: ${String(error)}`));
    }
  }

  async function perform(effect: RunEffect): Promise<void> {
    switch (effect.type) {
      case 'emit':
        ports.events.emit(effect.name, effect.fields);
        return;
      case 'save-manifest': {
        const written = writeManifest(effect.manifest);
        if (effect.flush) await written;
        return;
      }
      case 'write-document':
        return writeDocument(effect, handoff);
      case 'gather-facts':
        return gatherFacts(effect, handoff);
      case 'read-seed':
        return readSeed(effect, handoff);
      case 'save-draft':
        return saveDraft(effect, handoff);
      case 'spawn':
        await claudes.spawn(effect);
        return;
      case 'end-child':
        claudes.endCurrent();
        return;
      case 'type-into-child':
        await claudes.typeInto(effect.request, effect.line);
        return;
      case 'follow-transcript':
        claudes.follow(effect.path, effect.carry);
        return;
      case 'finish':
        await end(effect.exitCode, effect.message);
        return;
      default:
        return;
    }
  }

  async function end(exitCode: number, message?: string): Promise<void> {
    wake.dispose();
    atEnd();
    hooks.releaseAll();
    await claudes.endAll();
    const result = await endSaved(ports.lineage, { exitCode, ...(message ? { message } : {}) });
    finish(result);
  }

  return {
    carryOut,
    current: claudes.current,
    catchUp: claudes.catchUp,
    awaitReply: (resolve) => hooks.await(resolve),
    done,
  };
}
