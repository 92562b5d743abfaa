// The run loop's effect executor: carries out each effect `decide()` returned through the ports, and turns
// each result and each failure into an event it posts back. It keeps what the effects touch (the claude that
// runs and the ones on their way out, in claudes.ts; the pending hook answers, the wake-up) and decides nothing.

import { hookStdout } from '../claude-code/hook-answer.js';
import { oneLine } from '../core/one-line.js';
import { lineageUnsaved } from '../core/run/write-trouble.js';
import { EXIT, FlowerError, NotYours } from '../core/errors.js';
import type { RunEffect, RunInput } from '../core/run/run-state.js';
import type { CoverageScore } from '../core/coverage/coverage-score.js';
import type { Face } from './face.js';
import type { ChildHandle, Disposable, Ports } from './ports.js';
import type { ClaudeKeys } from './claude-keys.js';
import { createClaudes } from './claudes.js';

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
  let wake: Disposable | null = null;
  let nextHookId = 1;
  const pendingHooks = new Map<number, (output: string) => void>();
  let finish!: (r: RunResult) => void;
  const done = new Promise<RunResult>((resolve) => (finish = resolve));
  const now = () => ports.clock.now();

  // Effects that only move a value out run at once (a hook's answer must not wait behind a disk
  // write); the ones that touch the world run in order, one after another.
  function carryOut(effect: RunEffect): void {
    switch (effect.type) {
      case 'reply': {
        const resolve = pendingHooks.get(effect.id);
        pendingHooks.delete(effect.id);
        resolve?.(hookStdout(effect.answer));
        return;
      }
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
        wake?.dispose();
        // The transcript is read up to now before each tick: what a decision due now looks for (a held hook's
        // row) is then in, whatever the tail's own poll.
        wake =
          effect.at === null
            ? null
            : ports.clock.wakeAt(effect.at, () => {
                claudes.catchUpAll();
                post({ type: 'tick', now: now() });
              });
        return;
      case 'score-document':
        // Off the effects' queue: the events and hook answers behind it never wait on a transcript's reading.
        void scoreDocument(effect);
        return;
      default:
        effects = effects
          .then(() => perform(effect))
          .catch((error: unknown) => ports.log(`effect ${effect.type} failed: ${String(error)}`));
    }
  }

  async function scoreDocument(effect: Extract<RunEffect, { type: 'score-document' }>): Promise<void> {
    const answer = (score: CoverageScore | null, error: string | null): void =>
      post({ type: 'document-scored', now: now(), generation: effect.generation, score, error });
    if (!ports.coverage) return answer(null, 'this run has no scorer');
    try {
      answer(await ports.coverage(effect.transcriptPath, effect.text), null);
    } catch (error) {
      answer(null, oneLine(error instanceof Error ? error.message : String(error)));
    }
  }

  async function perform(effect: RunEffect): Promise<void> {
    switch (effect.type) {
      case 'emit':
        ports.events.emit(effect.name, effect.fields);
        return;
      case 'save-manifest': {
        const written = ports.lineage.write(effect.manifest).then((error) => manifestWritten(error));
        if (effect.flush) await written;
        return;
      }
      case 'write-document':
        try {
          const written = await ports.documents.freeze(effect.text, new Date(now()));
          post({
            type: 'document-written',
            now: now(),
            generation: effect.generation,
            path: written.path,
            archived: written.archived,
            error: null,
          });
        } catch (error) {
          post({
            type: 'document-written',
            now: now(),
            generation: effect.generation,
            path: null,
            archived: null,
            error: error instanceof Error ? error.message : String(error),
          });
        }
        return;
      case 'gather-facts': {
        const git = await ports.gitFacts(effect.folder).catch(() => null);
        post({ type: 'facts-gathered', now: now(), generation: effect.generation, git });
        return;
      }
      case 'read-seed': {
        let refused: string | null = null;
        const onDisk = await ports.documents.read().catch((error: unknown) => {
          // another user's file: nothing seeds a successor, the run stops with the line
          if (error instanceof NotYours) {
            refused = error.message;
            return null;
          }
          // an edit over the ceiling: the model's version seeds the successor, and the person hears why
          if (error instanceof FlowerError) {
            ports.log(error.message);
            face.show({ t: 'message', text: error.message });
          }
          return null;
        });
        post({ type: 'seed-read', now: now(), generation: effect.generation, onDisk, refused });
        return;
      }
      case 'save-draft': {
        const path = await ports.documents.saveDraft(effect.text, new Date(now())).catch((error: unknown) => {
          ports.log(`could not keep the model's draft: ${String(error)}`);
          return null;
        });
        post({ type: 'draft-saved', now: now(), generation: effect.generation, changed: effect.changed, path });
        return;
      }
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

  // Every manifest write answers; the run hears only the changes (failing, written again), not each one.
  let manifestError: string | null = null;
  function manifestWritten(error: string | null): void {
    if (error === manifestError) return;
    manifestError = error;
    post({ type: 'write-result', now: now(), what: 'manifest', path: ports.lineage.path ?? '', error });
  }

  async function end(exitCode: number, message?: string): Promise<void> {
    wake?.dispose();
    wake = null;
    atEnd();
    for (const resolve of pendingHooks.values()) resolve('');
    pendingHooks.clear();
    await claudes.endAll();
    // A lineage that could not be saved is not a clean end: --continue would start from an older state.
    const unsaved = await ports.lineage.flush();
    const result = lineageUnsaved(
      { exitCode, ...(message ? { message } : {}) },
      unsaved,
      ports.lineage.path,
      EXIT.writeFailed,
    );
    finish(result);
  }

  return {
    carryOut,
    current: claudes.current,
    catchUp: claudes.catchUp,
    awaitReply(resolve) {
      const id = nextHookId++;
      pendingHooks.set(id, resolve);
      return id;
    },
    done,
  };
}
