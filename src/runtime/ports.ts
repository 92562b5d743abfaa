// The runtime's narrow ports: everything a run touches in the world, each a small interface whose
// subscriptions return something to dispose. Real adapters sit behind them (real-ports.ts); the
// middle layer of tests puts fakes and a fake clock here and runs a whole lineage in milliseconds.

import type { SessionPlace } from '../core/lineage/session-place.js';
import type { Manifest } from '../core/lineage/manifest.js';
import type { MeterSignal } from '../core/meter/context-meter.js';
import type { ScopeChange } from '../core/document/session-scope.js';
import type { ToolRun } from '../core/dead-ends/tool-run.js';
import type { CoverageScore } from '../core/coverage/coverage-score.js';
import type { RunEventName, RunEventFields } from '../core/run/run-events.js';
import type { NotifyEvent } from '../core/run/notify-policy.js';
import type { GitFacts } from '../core/document/scene-facts.js';

export interface Disposable {
  dispose(): void;
}

export interface ChildExit {
  code: number;
  signal?: number;
}

/** one running claude */
export interface ChildHandle {
  readonly exited: boolean;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** SIGTERM, then SIGKILL after graceMs; resolves when it is gone */
  terminate(graceMs: number): Promise<void>;
}

export interface ChildSpec {
  generation: number;
  /** seeded from a handoff document (its first prompt is kept in the workbench for the report) */
  successor: boolean;
  sessionId: string;
  prompt: string | null;
  /** the first UserPromptSubmit hook carries `prompt` to the model: the command line only names it */
  viaHook: boolean;
  /** the policy window: claude's own refusal line is lifted to it */
  window: number;
  /** where the predecessor was: the successor starts in its folder, with its mode and added directories */
  place: SessionPlace | null;
  /** directories the person added with `/add-dir`, as the transcripts show it: the successor may be given them */
  personDirs?: readonly string[];
  /** permission modes claude's transcripts showed the session in (the person's shift+tab): the successor may be started in them */
  personModes?: readonly string[];
  cols: number;
  rows: number;
}

export interface ChildStarted extends ChildHandle {
  /** the folder claude was started in */
  readonly folder: string;
  /** why the place asked for could not be used (its folder is gone), or null */
  readonly refused: string | null;
}

export interface ChildPort {
  /** throws a one-line Error when claude cannot be started (binary gone, spawn failure) */
  spawn(
    spec: ChildSpec,
    on: {
      data(data: string): void;
      exit(exit: ChildExit): void /** a record the run goes on without could not be written */;
      recordFailed(path: string, error: string): void;
    },
  ): Promise<ChildHandle | ChildStarted>;
  /** where Claude Code will most likely write this session's transcript in `folder`; the first hook says for sure */
  transcriptPath(sessionId: string, folder?: string): string;
  /** a file for a request typed into claude's prompt (the prompt gets one line naming it) */
  writeRequest(generation: number, text: string): Promise<string>;
}

export interface TranscriptFollow extends Disposable {
  /** read what was appended so far, synchronously (signals are delivered before this returns) */
  catchUp(): void;
  /** go on at `path`, the same transcript moved there whole: same reader, same offset */
  repoint?(path: string): void;
}

export interface TranscriptPort {
  follow(
    path: string,
    on: {
      signal(signal: MeterSignal, usage: { context: number; costUsd: number | null; numTurns: number }): void;
      reset(reason: string): void;
      /** the session's own state changed (tasks, a /loop, crons, a goal, monitors, shells) */
      scope?(changes: ScopeChange[]): void;
      /** a main-thread tool call and its result (claude-code/tool-runs.ts) */
      toolRun?(run: ToolRun): void;
      /** the file is there (true) or not (false), said when that changes */
      presence?(found: boolean): void;
      /** the transcript's path is not a regular file (a link, a FIFO, a device): one line, once a path */
      refused?(line: string): void;
    },
  ): TranscriptFollow;
}

export interface DocumentPort {
  /** null without a workbench: the document then lives only in memory */
  readonly currentPath: string | null;
  freeze(text: string, now: Date): Promise<{ path: string | null; archived: string | null }>;
  read(): Promise<string | null>;
  saveDraft(text: string, now: Date): Promise<string | null>;
  watch(onChange: (text: string | null) => void): Disposable;
}

export interface LineagePort {
  /** where the manifest goes (null without a workbench) */
  readonly path: string | null;
  /** resolves with why the write failed, in the system's words, or null once it is on disk */
  write(manifest: Manifest): Promise<string | null>;
  /** resolves when every write so far is done, with the last one's failure or null */
  flush(): Promise<string | null>;
}

export interface EventsPort {
  emit<K extends RunEventName>(name: K, fields: RunEventFields<K>): void;
}

export interface ClockPort {
  now(): number;
  /** one wake-up at `at` (ms since the epoch) */
  wakeAt(at: number, fire: () => void): Disposable;
}

export interface Ports {
  child: ChildPort;
  transcript: TranscriptPort;
  documents: DocumentPort;
  lineage: LineagePort;
  events: EventsPort;
  clock: ClockPort;
  log(line: string): void;
  /** bell and desktop notification, or nothing */
  alert(title: string, body: string): void;
  /** the --notify-command (rate-limited there), or nothing */
  /** `now`: the run's clock, which the rate limit counts on */
  tell(event: NotifyEvent, now: number): void;
  /** the git work tree's HEAD and changed files, or null outside one */
  /** in `folder` (the session's worktree, say), else the run's own */
  gitFacts(folder?: string | null): Promise<GitFacts | null>;
  /** `text`'s coverage of what the transcript at `path` shows (adapters/transcript-coverage.ts); none: a run
   * that cannot score (its documents are frozen unchecked, and that is said) */
  coverage?(path: string, text: string): Promise<CoverageScore>;
}
