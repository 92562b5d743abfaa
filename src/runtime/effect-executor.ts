// The run loop's effect executor: carries out each effect `decide()` returned through the ports, and turns
// each result and each failure into an event it posts back. It keeps what the effects touch (the claude that
// runs, the ones still on their way out, the pending hook answers, the wake-up) and decides nothing.

import { randomUUID } from 'node:crypto';
import stripAnsi from 'strip-ansi';
import { hookStdout } from '../claude-code/hook-answer.js';
import { ownResumeHint } from '../claude-code/resume-hint.js';
import { enterDueAt, KILL_GRACE_MS } from '../core/run/child-timing.js';
import { createTitleFilter } from '../core/screen/title-filter.js';
import { oneLine } from '../core/one-line.js';
import { cursorMovesAsWhitespace } from '../core/screen/cursor-text.js';
import { lineageUnsaved } from '../core/run/write-trouble.js';
import { EXIT, FlowerError, NotYours } from '../core/errors.js';
import type { RunEffect, RunInput } from '../core/run/run-state.js';
import type { CoverageScore } from '../core/eval/coverage-score.js';
import type { Face } from './face.js';
import type { ChildHandle, Disposable, Ports, TranscriptFollow } from './ports.js';

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

// What the child printed last, for a claude that dies before its first turn (its own error message).
const LAST_OUTPUT_BYTES = 2_000;

/** `post` takes an event back to the run's queue; `atEnd` lets go of what the loop holds besides (its watch) */
export function createEffectExecutor(o: { ports: Ports; face: Face; post: (event: RunInput) => void; atEnd: () => void }): EffectExecutor {
  const { ports, face, post, atEnd } = o;
  let effects: Promise<void> = Promise.resolve();
  type Child = { handle: ChildHandle; generation: number; tail: TranscriptFollow | null };
  let child: Child | null = null;
  // Old claudes still on their way out while a successor already runs (core/run/child-timing.ts): ended with the
  // run. Their transcripts are read until they are gone: the writing turn's row can come that late.
  const retiring = new Set<Child>();
  let lastOutput = '';
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
      case 'show-status':
        face.status(effect.view);
        return;
      case 'show-document':
        face.documentChanged(effect.path, effect.text);
        return;
      case 'show-message':
        face.message(effect.text);
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
        wake = effect.at === null ? null : ports.clock.wakeAt(effect.at, () => {
          for (const old of retiring) old.tail?.catchUp();
          child?.tail?.catchUp();
          post({ type: 'tick', now: now() });
        });
        return;
      case 'score-document':
        // Off the effects' queue: the events and hook answers behind it never wait on a transcript's reading.
        void scoreDocument(effect);
        return;
      default:
        effects = effects.then(() => perform(effect)).catch((error: unknown) => ports.log(`effect ${effect.type} failed: ${String(error)}`));
    }
  }

  async function scoreDocument(effect: Extract<RunEffect, { type: 'score-document' }>): Promise<void> {
    const answer = (score: CoverageScore | null, error: string | null): void => post({ type: 'document-scored', now: now(), generation: effect.generation, score, error });
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
          post({ type: 'document-written', now: now(), generation: effect.generation, path: written.path, archived: written.archived, error: null });
        } catch (error) {
          post({ type: 'document-written', now: now(), generation: effect.generation, path: null, archived: null, error: error instanceof Error ? error.message : String(error) });
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
            face.message(error.message);
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
        await spawn(effect);
        return;
      case 'end-child':
        // Not awaited: the exit arrives as an event, and hook answers must not queue behind it.
        if (child && !child.handle.exited) void child.handle.terminate(KILL_GRACE_MS);
        return;
      case 'type-into-child':
        await typeIntoChild(effect.request, effect.line);
        return;
      case 'follow-transcript':
        if (!child) return;
        if (effect.carry && child.tail?.repoint) {
          child.tail.repoint(effect.path);
          return;
        }
        child.tail?.dispose();
        child.tail = follow(effect.path, child.generation);
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

  // Each row says whose transcript it is: a retired claude's last rows can come after its successor started.
  function follow(path: string, generation: number): TranscriptFollow {
    return ports.transcript.follow(path, {
      signal: (signal, usage) => post({ type: 'transcript', now: now(), generation, signal, usage }),
      reset: (reason) => post({ type: 'transcript-reset', now: now(), generation, reason }),
      scope: (changes) => post({ type: 'scope', now: now(), generation, changes }),
      toolRun: (run) => post({ type: 'tool-run', now: now(), generation, run }),
      presence: (found) => post({ type: 'transcript-presence', now: now(), generation, found }),
      // the log only: the path came from a hook, and is no text for the person's terminal
      refused: (line) => ports.log(line),
    });
  }

  async function spawn(effect: Extract<RunEffect, { type: 'spawn' }>): Promise<void> {
    const { generation, successor, prompt, window, viaHook } = effect;
    const place = effect.place ?? null;
    const personDirs = effect.personDirs ?? [];
    const personModes = effect.personModes ?? [];
    const sessionId = randomUUID();
    const { cols, rows } = face.size();
    const titles = createTitleFilter();
    lastOutput = '';
    let self: typeof child = null;
    // An old claude still exiting: its transcript is read until it is gone, its rows marked with its own
    // generation; nothing else of it (output, exit) reaches the run once the successor is there.
    if (child && !child.handle.exited) {
      retiring.add(child);
      child.tail?.catchUp();
    }
    try {
      const handle = await ports.child.spawn(
        { generation, successor, sessionId, prompt, viaHook, window, place, personDirs, personModes, cols, rows },
        {
          data: (data) => {
            if (child !== self) return;
            // The face first: an echo goes out before the bookkeeping (a keystroke's latency).
            const { output, title } = titles.push(data);
            // claude's exit advice (claude --resume) is not flower-pty's: its own word is shown instead
            if (output) face.childOutput(ownResumeHint(output));
            if (title !== null) face.childTitle(title);
            lastOutput = (lastOutput + data).slice(-LAST_OUTPUT_BYTES);
          },
          exit: (exit) => {
            if (!self) return;
            retiring.delete(self);
            self.tail?.catchUp();
            self.tail?.dispose();
            if (child !== self) return;
            face.childEnded();
            post({ type: 'child-exit', now: now(), code: exit.code, ...(exit.signal ? { signal: exit.signal } : {}), lastLines: lastLines(lastOutput) });
          },
          recordFailed: (path, error) => post({ type: 'write-result', now: now(), what: 'record', path, error }),
        },
      );
      self = { handle, generation, tail: null };
      child = self;
      face.childStarted();
      const started = 'folder' in handle ? { folder: handle.folder, refused: handle.refused } : {};
      post({ type: 'spawned', now: now(), generation, successor, sessionId, transcriptPath: ports.child.transcriptPath(sessionId, started.folder), ...started });
    } catch (error) {
      const exitCode = error instanceof FlowerError ? { exitCode: error.exitCode } : {};
      post({ type: 'spawn-failed', now: now(), generation, message: error instanceof Error ? error.message : String(error), ...exitCode });
    }
  }

  async function typeIntoChild(request: string, line: string): Promise<void> {
    if (!child || child.handle.exited) return;
    const target = child.handle;
    const file = request === '' ? '' : await ports.child.writeRequest(child.generation, request);
    target.write(line.replace('{file}', file));
    // Enter as its own write, a moment later (core/run/child-timing.ts), on the run's clock: a fake one in tests.
    await new Promise<void>((resolve) => void ports.clock.wakeAt(enterDueAt(now()), resolve));
    if (!target.exited) target.write('\r');
  }

  async function end(exitCode: number, message?: string): Promise<void> {
    wake?.dispose();
    wake = null;
    atEnd();
    for (const resolve of pendingHooks.values()) resolve('');
    pendingHooks.clear();
    await Promise.all([...(child && !child.handle.exited ? [child] : []), ...retiring].map((c) => c.handle.terminate(KILL_GRACE_MS)));
    for (const c of [child, ...retiring]) c?.tail?.dispose();
    // A lineage that could not be saved is not a clean end: --continue would start from an older state.
    const unsaved = await ports.lineage.flush();
    const result = lineageUnsaved({ exitCode, ...(message ? { message } : {}) }, unsaved, ports.lineage.path, EXIT.writeFailed);
    finish(result);
  }

  return {
    carryOut,
    current: () => child?.handle ?? null,
    catchUp: () => child?.tail?.catchUp(),
    awaitReply(resolve) {
      const id = nextHookId++;
      pendingHooks.set(id, resolve);
      return id;
    },
    done,
  };
}

// The last few non-empty lines a dying claude printed, without escapes, for a one-line message.
function lastLines(output: string): string {
  const lines = stripAnsi(cursorMovesAsWhitespace(output))
    .split(/[\r\n]+/)
    .map((l) => l.trim().replace(/ {2,}/g, ' '))
    .filter((l) => l !== '');
  return oneLine(lines.slice(-3).join(' / '), 400);
}
