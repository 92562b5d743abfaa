// Generations: a successor seeded from the frozen document, the next generation after the review, the
// runaway brake and the run's end. The events of claude's own life (started, exited) are sources/claude-life.ts.

import { EXIT } from '../../exit-code.js';
import { endGeneration, lastPlace } from '../../lineage/manifest.js';
import { seedSuccessor } from '../../lineage/handoff-lineage.js';
import { oversizedSeed } from '../../document/seed-size.js';
import { topFailures } from '../../dead-ends/failure-record.js';
import { FAILURES_LISTED, watchList } from '../../dead-ends/dead-end-watch.js';
import type { SessionPlace } from '../../lineage/session-place.js';
import type { RunState } from '../../run/run-state.js';
import { iso, type Out } from '../out.js';

export const BRAKE_MESSAGE =
  "stopped after {n} generations: the handoff threshold is probably below this session's start-up floor; raise --window, or run with --no-handoff";

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
  return (
    `stopped after ${generations} generations: every one ran past the handoff line into claude's own limit ` +
    `("Prompt is too long") with no boundary to cut it at (no tool call's end, no turn's end), ` +
    `so none could write its document; the window is not the cause: see the no-boundary events`
  );
}

// What a degraded document carries in its scene: the lineage's first human prompt.
export function originalPrompt(s: RunState): string {
  return s.manifest.original_prompt ?? s.firstPrompt ?? s.settings.prompt ?? '';
}

// The successor starts where its predecessor was (for --continue, where the manifest says it was).
function successorPlace(s: RunState): SessionPlace | null {
  if (s.gen) return s.gen.place;
  const recorded = lastPlace(s.manifest);
  return recorded
    ? { folder: recorded.folder, permissionMode: recorded.permission_mode, addedDirs: recorded.added_dirs }
    : null;
}

export function seed(o: Out, generation: number, onDisk: string | null): void {
  const s = o.s;
  const seed = seedSuccessor({
    onDisk,
    kept: s.kept,
    frozen: s.frozen,
    path: s.settings.documentPath,
    originalPrompt: originalPrompt(s),
    step: s.settings.step,
    carried: s.carried,
  });
  if (seed.missing.length > 0) o.emit('document-problem', { missing: seed.missing, path: s.settings.documentPath });
  if (seed.factsRestored) o.emit('facts-restored', { path: s.settings.documentPath });
  // A person changed it during review: keep the model's draft beside it and record how much.
  if (s.frozen && seed.humanEdit)
    o.do({ type: 'save-draft', generation: s.frozen.generation, text: s.frozen.text, changed: seed.humanEdit.changed });
  // More than the successor's window can hold: it is started all the same, but a person hears it first.
  const oversized = oversizedSeed(seed.prompt, o.s.policy.window);
  if (oversized) {
    const line = `${oversized}: trim ${s.settings.documentPath ?? 'the handoff document'} to what the next session needs`;
    o.emit('document-too-large', {
      generation,
      path: s.settings.documentPath,
      chars: seed.prompt.length,
      window: o.s.policy.window,
    });
    o.do({ type: 'log', line });
    o.do({ type: 'show', show: { t: 'message', text: `flower-pty: ${line}` } });
    o.set({ note: line });
    o.alert('flower-pty: handoff document too large', line);
  }
  // The document never goes on the command line (any local user can read it there): the successor's
  // first UserPromptSubmit hook hands it to the model whole, when hooks run and it fits what a hook may carry.
  const viaHook = !s.hooksMissing && s.settings.handoff && seed.prompt.length <= (s.settings.hookContextChars ?? 0);
  // What the successor is watched for: its document's dead ends as seeded, and what its predecessor's writer was shown.
  const listed = s.gen ? topFailures(s.gen.failures, FAILURES_LISTED) : [];
  o.set({
    seededText: seed.seededText,
    pendingEditNote: null,
    seedContext: viaHook ? seed.prompt : null,
    nextWatch: watchList(seed.seededText, listed),
  });
  o.do({
    type: 'spawn',
    generation,
    successor: true,
    prompt: seed.prompt,
    window: o.s.policy.window,
    viaHook,
    place: successorPlace(s),
    personDirs: s.personDirs,
    personModes: s.personModes,
  });
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
