// The claudes a run's effects start, type into, follow and end: the one that runs, and the ones still on
// their way out while a successor already runs (core/run/child-timing.ts), whose transcripts are read until
// they are gone (the writing turn's row can come that late). Each result comes back to the run as an event.

import { randomUUID } from 'node:crypto';
import stripAnsi from 'strip-ansi';
import { ownResumeHint } from '../claude-code/resume-hint.js';
import { enterDueAt, KILL_GRACE_MS } from '../core/run/child-timing.js';
import { createTitleFilter } from '../core/screen/title-filter.js';
import { oneLine } from '../core/one-line.js';
import { cursorMovesAsWhitespace } from '../core/screen/cursor-text.js';
import { FlowerError } from '../core/errors.js';
import type { RunEffect, RunInput } from '../core/run/run-state.js';
import type { Face } from './face.js';
import type { ChildHandle, Ports, TranscriptFollow } from './ports.js';
import { RUN_KEYS, type ClaudeKeys } from './claude-keys.js';

export interface Claudes {
  /** a claude started for the `spawn` effect; the one before it, if it is still exiting, retires */
  spawn(effect: Extract<RunEffect, { type: 'spawn' }>): Promise<void>;
  /** the running claude asked to end; its exit arrives as an event */
  endCurrent(): void;
  /** a line typed into the running claude (`{file}`: the request written for it), then Enter a moment later */
  typeInto(request: string, line: string): Promise<void>;
  /** the running claude's transcript followed at `path` (`carry`: the same reader, moved) */
  follow(path: string, carry: boolean | undefined): void;
  /** the running claude's transcript read up to now */
  catchUp(): void;
  /** every transcript still read (the retiring claudes' too) up to now */
  catchUpAll(): void;
  /** the claude that runs now (or ran last) */
  current(): ChildHandle | null;
  /** at the run's end: every claude ended, every transcript let go */
  endAll(): Promise<void>;
}

// What the child printed last, for a claude that dies before its first turn (its own error message).
const LAST_OUTPUT_BYTES = 2_000;

/** `keys`: the sink every key for claude goes through, the run's own too (claude-keys.ts) */
export function createClaudes(o: {
  ports: Ports;
  face: Face;
  keys: ClaudeKeys;
  post: (event: RunInput) => void;
}): Claudes {
  const { ports, face, keys, post } = o;
  const now = () => ports.clock.now();
  type Child = { handle: ChildHandle; generation: number; tail: TranscriptFollow | null };
  let child: Child | null = null;
  const retiring = new Set<Child>();
  let lastOutput = '';

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
            if (title !== null) face.show({ t: 'title', title });
            lastOutput = (lastOutput + data).slice(-LAST_OUTPUT_BYTES);
          },
          exit: (exit) => {
            if (!self) return;
            // A claude retired by a successor's spawn says nothing more, even when it goes while that spawn
            // is still under way (`child` is still this one then): its exit would end the successor's start.
            const retired = retiring.delete(self);
            self.tail?.catchUp();
            self.tail?.dispose();
            if (child !== self || retired) return;
            face.show({ t: 'child', state: 'ended' });
            post({
              type: 'child-exit',
              now: now(),
              code: exit.code,
              ...(exit.signal ? { signal: exit.signal } : {}),
              lastLines: lastLines(lastOutput),
            });
          },
          recordFailed: (path, error) => post({ type: 'write-result', now: now(), what: 'record', path, error }),
        },
      );
      self = { handle, generation, tail: null };
      child = self;
      face.show({ t: 'child', state: 'started' });
      const started = 'folder' in handle ? { folder: handle.folder, refused: handle.refused } : {};
      post({
        type: 'spawned',
        now: now(),
        generation,
        successor,
        sessionId,
        transcriptPath: ports.child.transcriptPath(sessionId, started.folder),
        ...started,
      });
    } catch (error) {
      post(spawnFailed(generation, now(), error));
    }
  }

  async function typeIntoChild(request: string, line: string): Promise<void> {
    if (!child || child.handle.exited) return;
    const target = child.handle;
    const file = request === '' ? '' : await ports.child.writeRequest(child.generation, request);
    // Through the one sink, as a person's keys: a key of theirs sent meanwhile keeps its place. The effects
    // run one after another, so the claude the sink writes to is still `target`.
    keys.send(line.replace('{file}', file), RUN_KEYS);
    // Enter as its own write, a moment later (core/run/child-timing.ts), on the run's clock: a fake one in tests.
    await new Promise<void>((resolve) => void ports.clock.wakeAt(enterDueAt(now()), resolve));
    if (!target.exited) keys.send('\r', RUN_KEYS);
  }

  return {
    spawn,
    endCurrent() {
      // Not awaited: the exit arrives as an event, and hook answers must not queue behind it.
      if (child && !child.handle.exited) void child.handle.terminate(KILL_GRACE_MS);
    },
    typeInto: typeIntoChild,
    follow(path, carry) {
      if (!child) return;
      if (carry && child.tail?.repoint) {
        child.tail.repoint(path);
        return;
      }
      child.tail?.dispose();
      child.tail = followTranscript(ports, post, path, child.generation);
    },
    catchUp: () => child?.tail?.catchUp(),
    catchUpAll() {
      for (const old of retiring) old.tail?.catchUp();
      child?.tail?.catchUp();
    },
    current: () => child?.handle ?? null,
    async endAll() {
      await Promise.all(
        [...(child && !child.handle.exited ? [child] : []), ...retiring].map((c) => c.handle.terminate(KILL_GRACE_MS)),
      );
      for (const c of [child, ...retiring]) c?.tail?.dispose();
    },
  };
}

// Each row says whose transcript it is: a retired claude's last rows can come after its successor started.
function followTranscript(
  ports: Ports,
  post: (event: RunInput) => void,
  path: string,
  generation: number,
): TranscriptFollow {
  const now = () => ports.clock.now();
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

// A claude that could not be started, as the run's event (a FlowerError's exit code kept).
function spawnFailed(generation: number, at: number, error: unknown): RunInput {
  const exitCode = error instanceof FlowerError ? { exitCode: error.exitCode } : {};
  return {
    type: 'spawn-failed',
    now: at,
    generation,
    message: error instanceof Error ? error.message : String(error),
    ...exitCode,
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
