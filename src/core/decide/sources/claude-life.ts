// Claude's life as the run hears it: the run's start, a successor's seed read from disk (written once more
// first if it never got there), claude spawned or not, and claude's exit (a person leaving, a crash, a start
// that failed), each handed to the cycle stage it concerns.

import { EXIT } from '../../exit-code.js';
import { recordUsage, startGeneration } from '../../lineage/manifest.js';
import { EMPTY_SCOPE } from '../../document/session-scope.js';
import { EMPTY_FAILURES } from '../../dead-ends/failure-record.js';
import { NO_PLACE } from '../../lineage/session-place.js';
import type { RunInput } from '../../run/run-state.js';
import { rewriteBeforeSeed, usage } from '../stages/freezing.js';
import { seed, stop } from '../stages/generations.js';
import { degrade } from '../stages/freezing.js';
import { iso, type Out } from '../out.js';

/** crashes in a row before the run stops instead of restarting forever */
export const MAX_CRASHES = 3;

export function start(o: Out): void {
  const p = o.s.policy;
  o.emit('start', {
    window: p.window,
    windowSource: p.windowSource,
    at: p.at,
    warnAt: p.warnAt,
    maxGenerations: p.maxGenerations,
    handoff: o.s.settings.handoff,
    workbench: o.s.settings.workbench,
    step: o.s.settings.step,
  });
  // --continue: a fresh session seeded with the newest frozen document.
  if (o.generation > 0) o.do({ type: 'read-seed', generation: o.s.manifest.generations.length + 1 });
  else
    o.do({
      type: 'spawn',
      generation: 1,
      successor: false,
      prompt: o.s.settings.prompt,
      window: o.s.policy.window,
      viaHook: false,
    });
}

export function seedRead(o: Out, e: Extract<RunInput, { type: 'seed-read' }>): void {
  // Another user owns or can write the document: it is not read into a successor, nor replaced by the
  // copy in memory (the person must look first); the lineage stays whole for --continue.
  if (e.refused) return stop(o, EXIT.usage, e.now, e.refused);
  if (rewriteBeforeSeed(o, e)) return;
  seed(o, e.generation, e.onDisk);
}

export function spawned(o: Out, e: Extract<RunInput, { type: 'spawned' }>): void {
  o.set({
    gen: {
      n: e.generation,
      successor: e.successor,
      sessionId: e.sessionId,
      sessionSeen: false,
      transcriptPath: e.transcriptPath,
      spawnedAt: e.now,
      context: 0,
      peak: 0,
      readings: 0,
      costUsd: null,
      numTurns: 0,
      crashed: false,
      ended: false,
      hooks: 0,
      lastText: null,
      toolUses: [],
      turnEndAt: null,
      scope: EMPTY_SCOPE,
      transcriptFound: null,
      transcriptMissingSince: null,
      transcriptLost: false,
      place: NO_PLACE,
      failures: EMPTY_FAILURES,
      watch: e.successor ? o.s.nextWatch : [],
      repeats: 0,
    },
    forgotten: null,
    note: e.successor ? 'a new session took over from the handoff document' : 'working',
    boundaryWaits: [],
    waiting: null,
  });
  // An event announces what is already on disk: a kill right after it still finds the generation in the manifest.
  o.manifest(
    startGeneration(o.s.manifest, {
      generation: e.generation,
      sessionId: e.sessionId,
      now: iso(e.now),
      transcriptPath: e.transcriptPath,
    }),
    true,
  );
  // Only a run that hands off reads the transcript (--no-handoff leaves claude alone).
  if (o.s.settings.handoff) o.do({ type: 'follow-transcript', path: e.transcriptPath });
  o.cycle({
    phase: 'working',
    nearSent: false,
    line: o.s.policy.at,
    bornHigh: false,
    pendingCut: false,
    cutDueSince: null,
    writingSince: null,
    reviewUntil: null,
    pendingNote: false,
    idle: false,
    turnInRows: false,
    typed: false,
    stopBlocks: 0,
  });
  o.emit('generation-start', {
    generation: e.generation,
    session_id: e.sessionId,
    successor: e.successor,
    window: o.s.policy.window,
    at: o.s.policy.at,
    ...(e.folder !== undefined ? { folder: e.folder } : {}),
  });
  if (e.refused) {
    o.emit('place-refused', { generation: e.generation, reason: e.refused });
    o.set({ note: e.refused });
  }
}

// claude could not be started (binary gone, spawn error): the run cannot go on.
export function spawnFailed(o: Out, e: Extract<RunInput, { type: 'spawn-failed' }>): void {
  o.emit('spawn-failed', { generation: e.generation, message: e.message });
  o.cycle({ phase: 'stopped' });
  stop(o, e.exitCode ?? EXIT.claudeMissing, e.now, e.message);
}

export function childExited(o: Out, e: Extract<RunInput, { type: 'child-exit' }>): void {
  const g = o.s.gen;
  if (!g) return;
  o.gen({ ended: true });
  o.set({ seedContext: null });
  o.emit('child-exit', { generation: g.n, code: e.code, ...(e.signal ? { signal: e.signal } : {}) });
  const phase = o.s.cycle.phase;
  if (phase !== 'review' && phase !== 'respawning') o.alert('flower-pty: claude exited', `code ${e.code}`);
  o.manifest(recordUsage(o.s.manifest, usage(g, e.now)));
  // A held review has no countdown: "the successor starts in Ns" would be false, and would cover the status
  // bar's note (which says it is held) until the person lets it go.
  if (phase === 'review' && !o.s.cycle.held) {
    o.do({
      type: 'show',
      show: {
        t: 'message',
        text: `${o.s.note}; the successor starts in ${Math.max(0, Math.ceil(((o.s.cycle.reviewUntil ?? e.now) - e.now) / 1000))}s`,
      },
    });
  }
  // Dead before any turn, in its first seconds: claude could not start (login, a flag, the network).
  const early =
    e.code !== 0 &&
    e.signal === undefined &&
    g.numTurns === 0 &&
    g.context === 0 &&
    e.now - g.spawnedAt < o.s.settings.earlyExitMs
      ? `claude exited with code ${e.code} ${Math.round((e.now - g.spawnedAt) / 100) / 10}s after it started, ` +
        `before its first turn; nothing to hand off. Its last lines: ${e.lastLines.trim() || '(none)'}`
      : undefined;
  // It is a failed attempt all the same (the manifest counts it).
  if (early) o.gen({ crashed: true });
  lifeEnded(o, e, early);
}

// What claude's exit means for the cycle. We ended it ourselves, or the run is over: nothing to decide.
function lifeEnded(o: Out, e: Extract<RunInput, { type: 'child-exit' }>, early: string | undefined): void {
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
  o.emit('crash', {
    generation: o.generation,
    code: e.code,
    crashes,
    ...(e.signal !== undefined ? { signal: e.signal } : {}),
  });
  o.set({ note: `claude exited unexpectedly (code ${e.code})` });
  o.gen({ crashed: true });
  if (crashes >= MAX_CRASHES) {
    o.cycle({ phase: 'stopped' });
    const message =
      `claude crashed ${crashes} times in a row (last exit code ${e.code}); ` +
      `stopping instead of restarting in a loop: see the events file and the manifest's errors`;
    return stop(o, EXIT.crashLoop, e.now, message);
  }
  degrade(
    o,
    e.now,
    `claude exited with code ${e.code}${e.signal ? ` (signal ${e.signal})` : ''} during ${phase}`,
    null,
    false,
  );
}
