// The run as one value: where it is in the handoff cycle, the policy, the manifest, the documents and
// what is known of the current generation; the events that happen to a run and the effects it asks
// for. One vocabulary: `decide()` (decide.ts, a router over the reducers in decide/) is the only
// function that moves it.

import { resolvePolicy, type Policy, type PolicyInput } from './policy.js';
import type { RunOptionValues, SecondsInMs } from '../options/options-table.js';
import type { Tunables } from '../options/tunables.js';
import { createManifest, endGeneration, type Manifest } from '../lineage/manifest.js';
import type { FrozenDocument } from '../lineage/handoff-lineage.js';
import type { MeterSignal } from '../meter/context-meter.js';
import type { HookAnswer, HookEvent } from './hook-event.js';
import type { SectionKey } from '../document/handoff-doc.js';
import type { RunShow } from '../picture/run-show.js';
import type { NotifyEvent } from './notify-policy.js';
import type { GitFacts } from '../document/scene-facts.js';
import type { ScopeChange, SessionScope } from '../document/session-scope.js';
import type { RunEventName, RunEventFields } from './run-events.js';
import type { WriteTrouble } from './write-trouble.js';
import type { SessionPlace } from '../lineage/session-place.js';
import type { RunDialect } from './run-dialect.js';
import type { FailureRecord } from '../dead-ends/failure-record.js';
import type { WatchedDeadEnd } from '../dead-ends/dead-end-watch.js';
import type { ToolRun } from '../dead-ends/tool-run.js';
import type { CoverageScore } from '../coverage/coverage-score.js';
import type { Category } from '../coverage/successor-facts.js';

/** the check of a generation's document for what it leaves out, before it is frozen (decide/stages/coverage-check.ts) */
export interface CoverageCheck {
  generation: number;
  /** `scoring`: the first document is being scored; `asked`: the session was asked to amend it; `rescoring`:
   * the amended one is being scored; `done`: the document to freeze is chosen */
  stage: 'scoring' | 'asked' | 'rescoring' | 'done';
  /** when the stage began */
  since: number;
  /** the document the session wrote first */
  first: string;
  /** the amended document, while it is scored */
  amendedText: string | null;
  /** the score of the document frozen (or being scored); null: not scored */
  score: CoverageScore | null;
  /** the categories below the threshold in the first document */
  below: readonly Category[];
  /** the frozen document is the amended one */
  amended: boolean;
  /** why the document was not checked, or not amended (null: it was) */
  skipped: string | null;
}

/** what the run works by, built from the resolved options by core/run/settings-from-options.ts: the seconds
 * options in ms (`reviewMs`, `writeTimeoutMs`, `parkedRetryMs`), the handoff switches, the tunables
 * (core/options/tunables.ts) and the facts of this run */
export interface RunSettings
  extends SecondsInMs,
    Tunables,
    Pick<RunOptionValues, 'handoff' | 'keepAutoCompact' | 'coverageCheck'> {
  step: string;
  cwd: string;
  workbench: string | null;
  /** the current document's path in the workbench (null without one) */
  documentPath: string | null;
  /** the --events file, recorded in the manifest for the report (null: none) */
  eventsPath: string | null;
  /** generation 1's prompt (null: claude starts at an empty prompt) */
  prompt: string | null;
  /** everything the policy is resolved from except Claude Code's own report */
  policy: Omit<PolicyInput, 'reportedWindow'>;
  /** blocks in a row the CLI honours from a stop hook before it overrides the next: the dialect's value */
  stopBlockCap: number;
  /** a successor's first prompt up to this long reaches the model through its first UserPromptSubmit hook
   * (never the command line); longer, or absent, through a private file its short prompt names */
  hookContextChars?: number;
  /** what the CLI does by itself, as its dialect says (claude-code/run-dialect.ts) */
  dialect: RunDialect;
}

export interface GenerationFacts {
  n: number;
  /** started from a predecessor's document */
  successor: boolean;
  sessionId: string;
  /** the session said it is there (its first row or its SessionStart hook): only then can it hand off */
  sessionSeen: boolean;
  /** the transcript Claude Code says it writes (a guess from the folder until the first hook says) */
  transcriptPath: string;
  /** whether that file was there at the last look (null: not looked at yet) */
  transcriptFound: boolean | null;
  /** a turn began while the transcript was not to be found: since when */
  transcriptMissingSince: number | null;
  /** the missing transcript was said (once) and a handoff asked for */
  transcriptLost: boolean;
  /** where the session is by Claude Code's word: the successor starts there */
  place: SessionPlace;
  spawnedAt: number;
  /** the newest reading, and the highest, and how many there were */
  context: number;
  peak: number;
  readings: number;
  costUsd: number | null;
  numTurns: number;
  crashed: boolean;
  ended: boolean;
  /** hook calls seen from this generation (0: maybe hooks are not running) */
  hooks: number;
  /** the newest response text in the transcript, to match the reply a stop hook carries */
  lastText: string | null;
  /** the newest tool calls the transcript showed (a few dozen), to match the call id a tool's hook carries */
  toolUses: readonly string[];
  /** when the transcript last showed a turn end, if no Stop hook has followed it yet */
  turnEndAt: number | null;
  /** what the session has set up in itself so far (tasks, a /loop, crons, a goal, monitors, shells) */
  scope: SessionScope;
  /** what failed in its main thread so far (core/dead-ends/failure-record.ts) */
  failures: FailureRecord;
  /** the dead ends of the document it started from, and the failures listed to that document's writer */
  watch: readonly WatchedDeadEnd[];
  /** its calls that repeated one of them */
  repeats: number;
}

/** a hook held until the transcript shows the row it follows, or until `until` */
export interface BoundaryWait {
  id: number;
  since: number;
  until: number;
  awaits: { kind: 'reply'; text: string } | { kind: 'tool-use'; toolUseId: string };
}

/** what a person may need to know at once, beside the meter */
export type Waiting =
  /** `until`: the reset, when Claude Code said (subscription logins); `continued`: typed once, or a person is there */
  | { kind: 'parked'; since: number; until: number | null; autoContinue: boolean; continued: boolean }
  | { kind: 'permission'; what: string }
  /** claude asks its person a question: "Which parser? (A / B)" */
  | { kind: 'question'; text: string }
  | { kind: 'idle' };

export type Phase = 'starting' | 'working' | 'writing' | 'review' | 'respawning' | 'stopped';

/** where the run is in the handoff cycle: the phase, and what is pending at the next boundary */
export interface HandoffCycle {
  readonly phase: Phase;
  readonly nearSent: boolean;
  /** this generation's handoff line: the policy's `at`, or lifted for a session born above it */
  readonly line: number;
  readonly bornHigh: boolean;
  /** crossed the line mid-turn: cut at the next boundary */
  readonly pendingCut: boolean;
  /** since when the pending cut has waited for a boundary (null: none pending) */
  readonly cutDueSince: number | null;
  readonly writingSince: number | null;
  readonly reviewUntil: number | null;
  readonly held: boolean;
  /** crashes in a row (a turn that ends resets it) */
  readonly crashes: number;
  /** a person edited the document this successor started from: tell it at the next boundary */
  readonly pendingNote: boolean;
  /** the turn ended and no prompt has been submitted since: claude sits at its prompt */
  readonly idle: boolean;
  /** the transcript's rows show a turn begun (a prompt's row) and not yet ended (a turn-end or interrupt row).
   * Hooks say when claude goes idle, but a prompt typed while a Stop hook runs is queued and starts its turn
   * with no UserPromptSubmit after that Stop: only its row says claude is busy again */
  readonly turnInRows: boolean;
  /** a person typed into claude's prompt since it went idle: never type over their draft */
  readonly typed: boolean;
  /** Stop hooks answered with a block in a row (Claude Code overrides the one past its cap) */
  readonly stopBlocks: number;
}

export interface RunState {
  readonly settings: RunSettings;
  readonly cycle: HandoffCycle;
  readonly policy: Policy;
  readonly manifest: Manifest;
  readonly gen: GenerationFacts | null;
  /** the document as frozen (before any human edit), to detect and record edits */
  readonly frozen: (FrozenDocument & { generation: number; path: string | null }) | null;
  /** the newest document, kept in memory: the successor's seed when the file is gone or there is no workbench */
  readonly kept: string | null;
  /** the text the running successor started from, to describe a later edit */
  readonly seededText: string | null;
  /** the successor's whole first prompt, waiting for its first UserPromptSubmit hook to carry it */
  readonly seedContext: string | null;
  readonly pendingEditNote: string | null;
  /** the retired session's scope as read at its freeze: what its successor is told to re-arm */
  readonly carried: SessionScope | null;
  /** the frozen document's failures it does not mention (shown during the review); null before a freeze */
  readonly forgotten: number | null;
  /** what the next successor is watched for: its document's dead ends and the listed failures */
  readonly nextWatch: readonly WatchedDeadEnd[];
  readonly firstPrompt: string | null;
  readonly note: string;
  /** the newest generation's coverage check at its freeze (null: none yet) */
  readonly coverage: CoverageCheck | null;
  /** a freeze is on its way to disk: the face keeps the old view until the document is there */
  readonly freezing: boolean;
  /** a freeze waiting for its facts (`text` null) or for the disk */
  readonly pendingFreeze: {
    generation: number;
    modelText: string | null;
    text: string | null;
    degraded: boolean;
    reason: string | null;
  } | null;
  /** hooks waiting for the transcript row they follow (a Stop hook its turn's last response, a PostToolUse
   * hook its tool call), so that a crossing made by that row is decided at this boundary, not after it */
  readonly boundaryWaits: readonly BoundaryWait[];
  /** directories the person added with their own `/add-dir`, as the transcripts show it: a successor may be given them */
  readonly personDirs: readonly string[];
  /** permission modes claude's transcripts showed the session in (the person's shift+tab): a successor may be started in them */
  readonly personModes: readonly string[];
  readonly hooksMissing: boolean;
  /** a transcript row's usage was out of any sane range and ignored: said in the log once a run */
  readonly insaneUsageSaid: boolean;
  readonly waiting: Waiting | null;
  /** the newest write that failed, until a write succeeds again: shown at once, beside the meter */
  readonly trouble: WriteTrouble | null;
  /** the frozen document could not be written and is being written again before the successor starts */
  readonly rewriting: number | null;
  /** why a quit is not an ordinary one (a stop while the document was being written) */
  readonly stopReason: string | null;
  readonly lastView: string;
  readonly wake: number | null;
  readonly finished: boolean;
}

export type RunCommand = 'force-handoff' | 'hold' | 'release' | 'quit';

// Everything that happens to a run, as decide() takes it: a hook, a transcript signal, claude's life, an
// effect's result, a person's command or key, the clock. (The --events file's vocabulary is another thing:
// run-events.ts, what a run says happened.)
export type RunInput =
  | { type: 'start'; now: number }
  /** `folder`: where claude was started; `refused`: why the place asked for could not be used (it is gone) */
  | {
      type: 'spawned';
      now: number;
      generation: number;
      successor: boolean;
      sessionId: string;
      transcriptPath: string;
      folder?: string;
      refused?: string | null;
    }
  /** `exitCode`: what the failure means (core/errors.ts); absent, claude could not be found or run */
  | { type: 'spawn-failed'; now: number; generation: number; message: string; exitCode?: number }
  /** a write the run goes on without (the manifest, a record for the report): said when it fails, and
   * when it works again after failing */
  | { type: 'write-result'; now: number; what: 'manifest' | 'record'; path: string; error: string | null }
  | { type: 'child-exit'; now: number; code: number; signal?: number; lastLines: string }
  /** `generation`: whose transcript it is (a retired claude's last rows can come after its successor started) */
  | {
      type: 'transcript';
      now: number;
      generation: number;
      signal: MeterSignal;
      usage: { context: number; costUsd: number | null; numTurns: number };
    }
  | { type: 'transcript-reset'; now: number; generation: number; reason: string }
  /** the session's own state changed, as its transcript tells (claude-code/session-scope.ts) */
  | { type: 'scope'; now: number; generation: number; changes: ScopeChange[] }
  /** a main-thread tool call and its result, as its transcript tells (claude-code/tool-runs.ts) */
  | { type: 'tool-run'; now: number; generation: number; run: ToolRun }
  /** the followed transcript appeared, or went away (moved by claude, or never written) */
  | { type: 'transcript-presence'; now: number; generation: number; found: boolean }
  | { type: 'hook'; now: number; id: number; hook: HookEvent }
  | {
      type: 'document-written';
      now: number;
      generation: number;
      path: string | null;
      archived: string | null;
      error: string | null;
    }
  | {
      type: 'seed-read';
      now: number;
      generation: number;
      onDisk: string | null /** the document on disk is not the person's alone: the line that says so; the run stops */;
      refused?: string | null;
    }
  | { type: 'draft-saved'; now: number; generation: number; changed: SectionKey[]; path: string | null }
  | { type: 'document-changed'; now: number; text: string | null }
  | { type: 'facts-gathered'; now: number; generation: number; git: GitFacts | null }
  /** the document's coverage of what its transcript shows (null: it could not be scored, `error` says why) */
  | { type: 'document-scored'; now: number; generation: number; score: CoverageScore | null; error: string | null }
  /** input from a face, on its way to claude: `data`, to tell a person's keys from the terminal's own reports */
  | { type: 'typed'; now: number; data: string }
  | { type: 'command'; now: number; command: RunCommand }
  | { type: 'tick'; now: number };

/** a line for the events file: one of core/run/run-events.ts's events with its fields */
export type RunEmit = { [K in RunEventName]: { type: 'emit'; name: K; fields: RunEventFields<K> } }[RunEventName];

export type RunEffect =
  /** the answer to hook call `id` (the dialect writes it as the hook's stdout) */
  | { type: 'reply'; id: number; answer: HookAnswer }
  | { type: 'write-document'; generation: number; text: string }
  /** what flower-pty knows for certain at a freeze (git HEAD, changed files); answered by `facts-gathered` */
  | { type: 'gather-facts'; generation: number; folder?: string | null }
  /** score `text` against what the generation's transcript shows so far; answered by `document-scored` */
  | { type: 'score-document'; generation: number; text: string; transcriptPath: string }
  /** the --notify-command, for an event worth a person's attention (rate-limited by the notifier) */
  | { type: 'tell-person'; event: NotifyEvent }
  | { type: 'read-seed'; generation: number }
  | { type: 'save-draft'; generation: number; text: string; changed: SectionKey[] }
  /** start claude; answered by `spawned` or `spawn-failed`. `viaHook`: the first UserPromptSubmit hook
   * carries `prompt` to the model (the command line only names it). `place`: where the predecessor was (its
   * folder, permission mode, added directories); null: the run's own */
  | {
      type: 'spawn';
      generation: number;
      successor: boolean;
      prompt: string | null;
      window: number;
      viaHook: boolean;
      place?: SessionPlace | null;
      personDirs?: readonly string[];
      personModes?: readonly string[];
    }
  | { type: 'end-child' }
  /** put `request` in a file and type `line` (with `{file}` replaced by its path) into claude's prompt, then Enter */
  | { type: 'type-into-child'; request: string; line: string }
  /** `carry`: the same session's transcript at a new path (moved whole): keep the readings and the offset */
  | { type: 'follow-transcript'; path: string; carry?: boolean }
  | { type: 'save-manifest'; manifest: Manifest; flush: boolean }
  | RunEmit
  /** what the run shows now (its status view, its document, a line for the person): to the face as it is */
  | { type: 'show'; show: RunShow }
  | { type: 'alert'; title: string; body: string }
  | { type: 'log'; line: string }
  /** the next moment something is due (null: nothing; no timer fires while nothing is due) */
  | { type: 'wake-at'; at: number | null }
  | { type: 'finish'; exitCode: number; message?: string };

/** the generation the run is in: the current one, or the last the lineage recorded before one starts */
export function currentGeneration(s: RunState): number {
  return s.gen?.n ?? s.manifest.generations.length;
}

// A new run, or a lineage picked up with --continue (`resume`: its manifest and newest document).
export function createRun(
  settings: RunSettings,
  now: string,
  resume: { manifest: Manifest; document: string | null } | null,
): RunState {
  const policy = resolvePolicy(settings.policy);
  // A lineage picked up after flower-pty was killed: close the generation it could not close.
  const closed = endGeneration(
    // a lineage continued under another --step writes its next documents, and records them, under that one
    resume
      ? { ...resume.manifest, step: settings.step }
      : createManifest({ step: settings.step, cwd: settings.cwd, window: policy.window, at: policy.at, now }),
    { end: 'stopped', now, reason: 'flower-pty stopped before this generation ended' },
  );
  const manifest = settings.eventsPath ? { ...closed, events_path: settings.eventsPath } : closed;
  return {
    settings,
    cycle: {
      phase: 'starting',
      nearSent: false,
      line: policy.at,
      bornHigh: false,
      pendingCut: false,
      cutDueSince: null,
      writingSince: null,
      reviewUntil: null,
      held: false,
      crashes: 0,
      pendingNote: false,
      idle: false,
      turnInRows: false,
      typed: false,
      stopBlocks: 0,
    },
    policy,
    manifest,
    gen: null,
    frozen: null,
    kept: resume?.document ?? null,
    seededText: null,
    seedContext: null,
    pendingEditNote: null,
    carried: null,
    forgotten: null,
    nextWatch: [],
    firstPrompt: null,
    note: 'starting claude',
    coverage: null,
    freezing: false,
    pendingFreeze: null,
    boundaryWaits: [],
    personDirs: [],
    personModes: [],
    hooksMissing: false,
    insaneUsageSaid: false,
    waiting: null,
    trouble: null,
    rewriting: null,
    stopReason: null,
    lastView: '',
    wake: null,
    finished: false,
  };
}
