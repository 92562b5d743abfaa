// Generations: the run's start, a successor seeded from the frozen document, claude started (or not),
// claude's exit (a person leaving, a crash, a start that failed), the next generation after the review,
// the runaway brake and the run's end.

import { EXIT } from '../exit-code.js';
import { endGeneration, lastPlace, recordUsage, startGeneration } from '../manifest.js';
import { seedSuccessor } from '../handoff-lineage.js';
import { oversizedSeed } from '../seed-size.js';
import { EMPTY_SCOPE } from '../session-scope.js';
import { EMPTY_FAILURES, topFailures } from '../failure-record.js';
import { FAILURES_LISTED, watchList } from '../dead-end-watch.js';
import { NO_PLACE, type SessionPlace } from '../session-place.js';
import type { RunEvent, RunState } from '../run-state.js';
import { tick } from './clock.js';
import { rewriteBeforeSeed, usage } from './freezing.js';
import { degrade } from './handoff.js';
import { iso, type Out } from './out.js';

/** crashes in a row before the run stops instead of restarting forever */
export const MAX_CRASHES = 3;

export const BRAKE_MESSAGE =
  'stopped after {n} generations: the handoff threshold is probably below this session\'s start-up floor; raise --window, or run with --no-handoff';

export function brakeMessage(generations: number): string {
  return BRAKE_MESSAGE.replace('{n}', String(generations));
}

/** what a degraded document's reason says when its turn ran past the line into the wall with no boundary */
export const NO_BOUNDARY = 'past the handoff line with no boundary to cut at';

/** the brake's words for a run whose generations 1..`ended` all ran past the line into claude's own limit
 *  with no boundary: that is the cause, not the window. Any other run: `brakeMessage`. */
export function brakeMessageOf(s: RunState, generations: number, ended: number): string {
  const walled = (g: number) => s.manifest.errors.some((e) => e.generation === g && e.reason.includes(NO_BOUNDARY));
  const all = ended >= 1 && Array.from({ length: ended }, (_, i) => i + 1).every(walled);
  if (!all) return brakeMessage(generations);
  return `stopped after ${generations} generations: every one ran past the handoff line into claude's own limit ("Prompt is too long") with no boundary to cut it at (no tool call's end, no turn's end), so none could write its document; the window is not the cause: see the no-boundary events`;
}

// What a degraded document carries in its scene: the lineage's first human prompt.
export function originalPrompt(s: RunState): string {
  return s.manifest.original_prompt ?? s.firstPrompt ?? s.settings.prompt ?? '';
}

export function start(o: Out): void {
  const p = o.s.policy;
  o.emit('start', {
    window: p.window, windowSource: p.windowSource, at: p.at, warnAt: p.warnAt, maxGenerations: p.maxGenerations,
    handoff: o.s.settings.handoff, workbench: o.s.settings.workbench, step: o.s.settings.step,
  });
  // --continue: a fresh session seeded with the newest frozen document.
  if (o.generation > 0) o.do({ type: 'read-seed', generation: o.s.manifest.generations.length + 1 });
  else o.do({ type: 'spawn', generation: 1, successor: false, prompt: o.s.settings.prompt, window: o.s.policy.window, viaHook: false });
}

// The successor starts where its predecessor was (for --continue, where the manifest says it was).
function successorPlace(s: RunState): SessionPlace | null {
  if (s.gen) return s.gen.place;
  const recorded = lastPlace(s.manifest);
  return recorded ? { folder: recorded.folder, permissionMode: recorded.permission_mode, addedDirs: recorded.added_dirs } : null;
}

export function seedRead(o: Out, e: Extract<RunEvent, { type: 'seed-read' }>): void {
  if (rewriteBeforeSeed(o, e)) return;
  seed(o, e.generation, e.onDisk);
}

export function seed(o: Out, generation: number, onDisk: string | null): void {
  const s = o.s;
  const seed = seedSuccessor({ onDisk, kept: s.kept, frozen: s.frozen, path: s.settings.documentPath, originalPrompt: originalPrompt(s), step: s.settings.step, carried: s.carried });
  if (seed.missing.length > 0) o.emit('document-problem', { missing: seed.missing, path: s.settings.documentPath });
  if (seed.factsRestored) o.emit('facts-restored', { path: s.settings.documentPath });
  // A person changed it during review: keep the model's draft beside it and record how much.
  if (s.frozen && seed.humanEdit) o.do({ type: 'save-draft', generation: s.frozen.generation, text: s.frozen.text, changed: seed.humanEdit.changed });
  // More than the successor's window can hold: it is started all the same, but a person hears it first.
  const oversized = oversizedSeed(seed.prompt, o.s.policy.window);
  if (oversized) {
    const line = `${oversized}: trim ${s.settings.documentPath ?? 'the handoff document'} to what the next session needs`;
    o.emit('document-too-large', { generation, path: s.settings.documentPath, chars: seed.prompt.length, window: o.s.policy.window });
    o.do({ type: 'log', line });
    o.do({ type: 'show-message', text: `flower-pty: ${line}` });
    o.set({ note: line });
    o.alert('flower-pty: handoff document too large', line);
  }
  // The document never goes on the command line (any local user can read it there): the successor's
  // first UserPromptSubmit hook hands it to the model whole, when hooks run and it fits what a hook may carry.
  const viaHook = !s.hooksMissing && s.settings.handoff && seed.prompt.length <= (s.settings.hookContextChars ?? 0);
  // What the successor is watched for: its document's dead ends as seeded, and what its predecessor's writer was shown.
  const listed = s.gen ? topFailures(s.gen.failures, FAILURES_LISTED) : [];
  o.set({ seededText: seed.seededText, pendingEditNote: null, seedContext: viaHook ? seed.prompt : null, nextWatch: watchList(seed.seededText, listed) });
  o.do({ type: 'spawn', generation, successor: true, prompt: seed.prompt, window: o.s.policy.window, viaHook, place: successorPlace(s), personDirs: s.personDirs, personModes: s.personModes });
}

export function spawned(o: Out, e: Extract<RunEvent, { type: 'spawned' }>): void {
  o.set({
    gen: {
      n: e.generation, successor: e.successor, sessionId: e.sessionId, sessionSeen: false, transcriptPath: e.transcriptPath, spawnedAt: e.now,
      context: 0, peak: 0, readings: 0, costUsd: null, numTurns: 0, crashed: false, ended: false, hooks: 0, lastText: null, toolUses: [], turnEndAt: null,
      scope: EMPTY_SCOPE, transcriptFound: null, transcriptMissingSince: null, transcriptLost: false, place: NO_PLACE,
      failures: EMPTY_FAILURES, watch: e.successor ? o.s.nextWatch : [], repeats: 0,
    },
    forgotten: null,
    note: e.successor ? 'a new session took over from the handoff document' : 'working',
    boundaryWaits: [],
    waiting: null,
  });
  // An event announces what is already on disk: a kill right after it still finds the generation in the manifest.
  o.manifest(startGeneration(o.s.manifest, { generation: e.generation, sessionId: e.sessionId, now: iso(e.now), transcriptPath: e.transcriptPath }), true);
  // Only a run that hands off reads the transcript (--no-handoff leaves claude alone).
  if (o.s.settings.handoff) o.do({ type: 'follow-transcript', path: e.transcriptPath });
  o.cycle({
    phase: 'working', nearSent: false, line: o.s.policy.at, bornHigh: false, pendingCut: false, cutDueSince: null, writingSince: null, reviewUntil: null,
    pendingNote: false, idle: false, turnInRows: false, typed: false, stopBlocks: 0,
  });
  o.emit('generation-start', {
    generation: e.generation, session_id: e.sessionId, successor: e.successor, window: o.s.policy.window, at: o.s.policy.at,
    ...(e.folder !== undefined ? { folder: e.folder } : {}),
  });
  if (e.refused) {
    o.emit('place-refused', { generation: e.generation, reason: e.refused });
    o.set({ note: e.refused });
  }
}

// claude could not be started (binary gone, spawn error): the run cannot go on.
export function spawnFailed(o: Out, e: Extract<RunEvent, { type: 'spawn-failed' }>): void {
  o.emit('spawn-failed', { generation: e.generation, message: e.message });
  o.cycle({ phase: 'stopped' });
  stop(o, e.exitCode ?? EXIT.claudeMissing, e.now, e.message);
}

export function childExited(o: Out, e: Extract<RunEvent, { type: 'child-exit' }>): void {
  const g = o.s.gen;
  if (!g) return;
  o.gen({ ended: true });
  o.set({ seedContext: null });
  o.emit('child-exit', { generation: g.n, code: e.code, ...(e.signal ? { signal: e.signal } : {}) });
  const phase = o.s.cycle.phase;
  if (phase !== 'review' && phase !== 'respawning') o.alert('flower-pty: claude exited', `code ${e.code}`);
  o.manifest(recordUsage(o.s.manifest, usage(g, e.now)));
  if (phase === 'review') {
    o.do({ type: 'show-message', text: `${o.s.note}; the successor starts in ${Math.max(0, Math.ceil(((o.s.cycle.reviewUntil ?? e.now) - e.now) / 1000))}s` });
  }
  // Dead before any turn, in its first seconds: claude could not start (login, a flag, the network).
  const early =
    e.code !== 0 && e.signal === undefined && g.numTurns === 0 && g.context === 0 && e.now - g.spawnedAt < o.s.settings.earlyExitMs
      ? `claude exited with code ${e.code} ${Math.round((e.now - g.spawnedAt) / 100) / 10}s after it started, before its first turn; nothing to hand off. Its last lines: ${e.lastLines.trim() || '(none)'}`
      : undefined;
  // It is a failed attempt all the same (the manifest counts it).
  if (early) o.gen({ crashed: true });
  lifeEnded(o, e, early);
  // A review window of 0 (or one already over) goes on now, if it was waiting for the old claude to be gone.
  tick(o, e.now);
}

// What claude's exit means for the cycle. We ended it ourselves, or the run is over: nothing to decide.
function lifeEnded(o: Out, e: Extract<RunEvent, { type: 'child-exit' }>, early: string | undefined): void {
  const phase = o.s.cycle.phase;
  if (phase === 'review' || phase === 'respawning' || phase === 'stopped') return;
  // A clean exit is the person leaving (/exit, Ctrl-C twice): honour it.
  if (e.code === 0 && e.signal === undefined) {
    o.cycle({ phase: 'stopped' });
    return stop(o, EXIT.ok, e.now);
  }
  // Dead before its first turn (not logged in, a bad flag, no network): restarting cannot help, and
  // a degraded document of an empty session would only replace the last good one.
  if (early !== undefined) {
    o.cycle({ phase: 'stopped' });
    return stop(o, EXIT.crashLoop, e.now, early);
  }
  const crashes = o.s.cycle.crashes + 1;
  o.cycle({ crashes });
  o.emit('crash', { generation: o.generation, code: e.code, crashes, ...(e.signal !== undefined ? { signal: e.signal } : {}) });
  o.set({ note: `claude exited unexpectedly (code ${e.code})` });
  o.gen({ crashed: true });
  if (crashes >= MAX_CRASHES) {
    o.cycle({ phase: 'stopped' });
    const message = `claude crashed ${crashes} times in a row (last exit code ${e.code}); stopping instead of restarting in a loop: see the events file and the manifest's errors`;
    return stop(o, EXIT.crashLoop, e.now, message);
  }
  degrade(o, e.now, `claude exited with code ${e.code}${e.signal ? ` (signal ${e.signal})` : ''} during ${phase}`, null, false);
}

// The review is over: the next generation, unless the brake says the lineage runs away.
export function startNext(o: Out, now: number): void {
  const generation = o.generation + 1;
  if (generation > o.s.policy.maxGenerations) {
    o.cycle({ phase: 'stopped' });
    return stop(o, EXIT.brake, now, brakeMessageOf(o.s, o.generation, o.generation));
  }
  o.cycle({ phase: 'respawning', reviewUntil: null, held: false });
  o.do({ type: 'read-seed', generation });
}

export function stop(o: Out, exitCode: number, now: number, message?: string): void {
  if (message) o.emit('stopped', { exitCode, message });
  if (exitCode !== EXIT.ok) o.alert('flower-pty: stopped', message ?? `exit ${exitCode}`);
  // The crash that tripped the brake is a failed attempt like the ones before it.
  const cut = exitCode === EXIT.ok ? o.s.stopReason : null;
  const end = o.s.gen?.crashed ? 'crash' : exitCode === EXIT.ok && cut === null ? 'quit' : 'stopped';
  const reason = message ?? cut;
  o.manifest(endGeneration(o.s.manifest, { end, now: iso(now), ...(reason ? { reason } : {}) }), true);
  o.emit('ended', { exitCode, ...(message ? { message } : {}) });
  o.set({ finished: true, boundaryWaits: [], waiting: null });
  o.do({ type: 'finish', exitCode, ...(message ? { message } : {}) });
}
