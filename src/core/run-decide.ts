// decide(): everything that happens to a run (a hook, a transcript reading, claude's exit, a file
// edit, an effect's result, the clock) in, the new run and the effects to carry out, out. Every
// decision of a run lives here or in the machine it drives; the runtime only moves values.

import { transition, type Effect, type MachineInput, type Notice } from './machine.js';
import { resolvePolicy } from './policy.js';
import { endGeneration, lastPlace, recordHumanEdit, recordOriginalPrompt, recordPlace, recordUsage, startGeneration, type Manifest } from './manifest.js';
import { documentToFreeze, editNote, seedSuccessor } from './handoff-lineage.js';
import { parseDocument } from './handoff-parse.js';
import { handoffRequest } from './handoff-prompts.js';
import { statusLine } from './status-text.js';
import { runView, nextWake, continueAt, machineWaitsOnEvent } from './run-view.js';
import { notifyEventOf } from './notify-policy.js';
import { afterClear, applyScopeChanges, EMPTY_SCOPE } from './session-scope.js';
import type { RunEventName, RunEventFields, RunEventOf } from './run-events.js';
import type { HookEvent, SessionWhere } from './hook-event.js';
import { NO_PLACE, placeAfter, placeChanges, type SessionPlace } from './session-place.js';
import type { GenerationFacts, RunEffect, RunEmit, RunEvent, RunState } from './run-state.js';
import { troubleFields, troubleText, type WriteTrouble } from './write-trouble.js';
import { oversizedSeed } from './seed-size.js';

export interface Decision {
  state: RunState;
  effects: RunEffect[];
}

const iso = (now: number) => new Date(now).toISOString();

// The one line typed into claude's prompt when no hook can carry the request; the request itself is in the file.
export const TYPED_REQUEST_LINE =
  'flower-pty: your context window is nearly full. Read the file {file} now and do exactly what it asks: reply with your handoff document.';

// A small builder so each branch reads as a list of what happens.
class Out {
  effects: RunEffect[] = [];
  constructor(public s: RunState) {}
  set(patch: Partial<RunState>): void {
    this.s = { ...this.s, ...patch };
  }
  gen(patch: Partial<GenerationFacts>): void {
    if (this.s.gen) this.s = { ...this.s, gen: { ...this.s.gen, ...patch } };
  }
  do(effect: RunEffect): void {
    this.effects.push(effect);
  }
  emit<K extends RunEventName>(name: K, fields: RunEventFields<K>): void {
    // One name K, so one member of each union: TypeScript cannot see through the generic.
    this.do({ type: 'emit', name, fields } as RunEmit);
    const tell = notifyEventOf({ event: name, ...fields } as RunEventOf);
    if (tell) this.do({ type: 'tell-person', event: tell });
  }
  manifest(next: Manifest, flush = false): void {
    this.set({ manifest: next });
    this.do({ type: 'save-manifest', manifest: next, flush });
  }
  alert(title: string, body: string): void {
    this.do({ type: 'alert', title, body });
  }
}

export function decide(state: RunState, event: RunEvent): Decision {
  const o = new Out(state);
  if (state.finished) {
    if (event.type === 'hook') o.do({ type: 'reply', id: event.id, output: '' });
    return { state, effects: o.effects };
  }
  route(o, event);
  // Every decision ends with the face's view (only when it changed) and the next wake-up.
  const view = runView(o.s, event.now);
  const key = JSON.stringify(view);
  if (!o.s.freezing && key !== o.s.lastView) {
    o.set({ lastView: key });
    o.do({ type: 'show-status', view });
  }
  const wake = nextWake(o.s, event.now);
  // A tick is the armed timer firing: it is spent. Node's timers can fire a little before their
  // moment (nodejs/node#26578), and the moment then asked for again must get a new timer.
  const armed = event.type === 'tick' ? null : o.s.wake;
  if (wake !== armed) {
    o.set({ wake });
    o.do({ type: 'wake-at', at: wake });
  }
  return { state: o.s, effects: o.effects };
}

function route(o: Out, event: RunEvent): void {
  switch (event.type) {
    case 'start':
      return onStart(o);
    case 'spawned':
      return onSpawned(o, event);
    case 'spawn-failed':
      o.emit('spawn-failed', { generation: event.generation, message: event.message });
      feed(o, { type: 'spawn-failed', now: event.now, message: event.message, ...(event.exitCode !== undefined ? { exitCode: event.exitCode } : {}) });
      return;
    case 'write-result':
      if (event.error === null) return writeRecovered(o, event.what, event.path);
      return writeFailed(o, { what: event.what, path: event.path, reason: event.error });
    case 'child-exit':
      return onChildExit(o, event);
    case 'transcript':
      return onTranscript(o, event);
    case 'transcript-reset':
      if (o.s.gen) o.emit('transcript-reset', { generation: o.s.gen.n, reason: event.reason });
      return;
    case 'scope':
      if (o.s.gen && !o.s.gen.ended) o.gen({ scope: applyScopeChanges(o.s.gen.scope, event.changes) });
      return;
    case 'transcript-presence':
      return onTranscriptPresence(o, event.found);
    case 'hook':
      return onHook(o, event.id, event.hook, event.now);
    case 'document-written':
      return onDocumentWritten(o, event);
    case 'seed-read':
      return onSeedRead(o, event);
    case 'draft-saved':
      o.manifest(recordHumanEdit(o.s.manifest, event.generation, { changedSections: event.changed, draftPath: event.path, now: iso(event.now) }));
      o.emit('human-edit', { generation: event.generation, changed: event.changed, draft: event.path });
      return;
    case 'document-changed':
      return onDocumentChanged(o, event.text, event.now);
    case 'facts-gathered':
      return onFacts(o, event);
    case 'typed':
      // A person at the keyboard of a parked session decides when to continue it.
      if (o.s.waiting?.kind === 'parked' && !o.s.waiting.continued) o.set({ waiting: { ...o.s.waiting, continued: true } });
      feed(o, { type: 'typed', now: event.now });
      return;
    case 'command':
      if (event.command === 'force-handoff') {
        o.set({ note: 'handoff armed: it happens at the next message boundary (typed at once if claude is idle)' });
      }
      // Stopped mid-handoff: the generation did not end as a person's quit ends it.
      if (event.command === 'quit' && (o.s.machine.phase === 'writing' || o.s.freezing)) {
        o.set({ stopReason: 'flower-pty was stopped while the handoff document was being written' });
      }
      feed(o, { type: event.command, now: event.now });
      return;
    case 'tick':
      return onTick(o, event.now);
  }
}

// ---- the machine, and what its effects mean for the run

function feed(o: Out, input: MachineInput): Effect[] {
  const step = transition(o.s.machine, input);
  o.set({ machine: step.state });
  const answers: Effect[] = [];
  for (const effect of step.effects) {
    switch (effect.type) {
      case 'answer':
        answers.push(effect);
        break;
      case 'notify':
        notice(o, effect.notice);
        break;
      case 'freeze':
        freeze(o, effect);
        break;
      case 'end-child':
        o.do({ type: 'end-child' });
        break;
      case 'spawn':
        o.do({ type: 'read-seed', generation: effect.generation });
        break;
      case 'type-request':
        o.do({ type: 'type-into-child', request: request(o), line: TYPED_REQUEST_LINE });
        break;
      case 'stop':
        stop(o, effect.exitCode, input.now, effect.message);
        break;
    }
  }
  return answers;
}

function request(o: Out): string {
  return handoffRequest({ used: o.s.gen?.context ?? 0, window: o.s.policy.window });
}

// The hook's stdout for the machine's answer.
function answerText(o: Out, answers: Effect[]): string {
  const decision = answers.find((e): e is Extract<Effect, { type: 'answer' }> => e.type === 'answer')?.decision ?? 'pass';
  switch (decision) {
    case 'block-handoff':
      return JSON.stringify({ decision: 'block', reason: request(o) });
    case 'block-note': {
      const reason = o.s.pendingEditNote;
      if (!reason) return '';
      o.set({ pendingEditNote: null });
      o.emit('edit-sent', { generation: o.s.machine.generation });
      return JSON.stringify({ decision: 'block', reason });
    }
    case 'block-compact':
      o.emit('compaction-blocked', { generation: o.s.machine.generation, context: o.s.gen?.context ?? 0 });
      o.set({ note: 'an automatic compaction was blocked: the session hands off instead' });
      return JSON.stringify({ decision: 'block', reason: 'flower-pty hands this session off with a handoff document instead of compacting it.' });
    case 'pass':
      return '';
  }
}

function notice(o: Out, n: Notice): void {
  const { name } = n;
  // 'done' and 'generation-start' are emitted once the manifest that records them is on disk.
  if (n.name !== 'done' && n.name !== 'generation-start') {
    const { name: event, ...fields } = n;
    o.emit(event, { generation: o.s.machine.generation, ...fields });
  }
  if (name === 'near') o.set({ note: 'getting close to the handoff line' });
  else if (name === 'writing') o.set({ note: n.cut === 'typed' ? 'claude was idle: the handoff request was typed into its prompt' : 'the session is writing its handoff document' });
  else if (name === 'born-high') o.set({ note: 'this session started above the line; its line was lifted' });
  else if (name === 'crash') {
    o.set({ note: `claude exited unexpectedly (code ${n.code})` });
    o.gen({ crashed: true });
  }
}

// A freeze first gathers what flower-pty knows for certain (the Scene's facts), then writes.
function freeze(o: Out, effect: Extract<Effect, { type: 'freeze' }>): void {
  o.set({ freezing: true, pendingFreeze: { generation: effect.generation, modelText: effect.text, text: null, degraded: effect.degraded, reason: effect.reason ?? null } });
  o.do({ type: 'gather-facts', generation: effect.generation, folder: o.s.gen?.place.folder ?? null });
}

function onFacts(o: Out, e: Extract<RunEvent, { type: 'facts-gathered' }>): void {
  const pending = o.s.pendingFreeze;
  if (!pending || pending.generation !== e.generation || pending.text !== null) return;
  const { text } = documentToFreeze({
    text: pending.modelText,
    degraded: pending.degraded,
    ...(pending.reason ? { reason: pending.reason } : {}),
    seededText: o.s.seededText,
    originalPrompt: originalPrompt(o),
    step: o.s.settings.step,
    facts: { transcriptPath: o.s.gen?.transcriptPath ?? null, git: e.git, scope: o.s.gen?.scope ?? null },
  });
  o.set({ pendingFreeze: { ...pending, text }, carried: o.s.gen?.scope ?? null });
  o.do({ type: 'write-document', generation: e.generation, text });
}

function onDocumentWritten(o: Out, e: Extract<RunEvent, { type: 'document-written' }>): void {
  if (o.s.rewriting !== null && o.s.rewriting === e.generation) return onRewritten(o, e);
  const pending = o.s.pendingFreeze;
  if (!pending || pending.generation !== e.generation || pending.text === null) return;
  const failed: WriteTrouble | null = e.error ? { what: 'document', path: o.s.settings.documentPath ?? '(no path)', reason: e.error } : null;
  if (failed) writeFailed(o, failed);
  if (e.archived) o.emit('archived', { path: e.archived });
  const doc = parseDocument(pending.text).doc;
  const g = o.s.gen;
  const used = g ? recordUsage(o.s.manifest, usage(g, e.now)) : o.s.manifest;
  o.manifest(
    endGeneration(used, {
      end: g?.crashed ? 'crash' : pending.degraded ? 'degraded' : 'handoff',
      now: iso(e.now),
      handoffPath: e.path,
      degraded: pending.degraded,
      ...(pending.reason ? { reason: pending.reason } : failed ? { reason: `the handoff document could not be written: ${failed.reason}` } : {}),
    }),
    true,
  );
  const sections = Object.entries(doc).filter(([, body]) => body.trim() !== '').map(([key]) => key);
  o.emit('done', {
    generation: e.generation,
    context: g?.context ?? 0,
    window: o.s.policy.window,
    degraded: pending.degraded,
    ...(pending.reason ? { reason: pending.reason } : {}),
    path: e.path,
    ...(failed ? { written: false } : {}),
    sections,
  });
  o.set({
    frozen: { text: pending.text, doc, generation: e.generation, path: e.path },
    kept: pending.text,
    freezing: false,
    // Never "written" when it was not: the note says where the document is.
    note: failed ? troubleText(failed) : pending.degraded ? `degraded handoff: ${pending.reason}` : `handoff written${e.path ? ` to ${e.path}` : ''}`,
    pendingFreeze: null,
  });
  if (!failed) o.alert(pending.degraded ? 'flower-pty: degraded handoff' : 'flower-pty: handoff done', pending.degraded ? (pending.reason ?? '') : (e.path ?? 'document ready'));
  o.emit(pending.degraded ? 'degraded' : 'review', { generation: e.generation, path: e.path, ...(pending.reason ? { reason: pending.reason } : {}) });
  o.do({ type: 'show-document', path: e.path ?? o.s.settings.documentPath ?? '', text: pending.text });
  // With no review window (or an expired one) the successor may start now.
  onTick(o, e.now);
}

// ---- writes that fail: said at once, on screen and in the events; a document is never lost to one

function writeFailed(o: Out, t: WriteTrouble): void {
  const line = troubleText(t);
  o.do({ type: 'log', line });
  o.emit('write-failed', troubleFields(t));
  o.set({ trouble: t, note: line });
  o.alert('flower-pty: could not write a file', line);
}

function writeRecovered(o: Out, what: WriteTrouble['what'], path: string): void {
  o.emit('write-recovered', { what, path });
  if (o.s.trouble) o.set({ trouble: null, note: `${path} is written again` });
}

// The successor is about to start and the frozen document never reached the disk: one more try (a
// person may have freed space during the review), so the path it is told about exists.
function rewriteBeforeSeed(o: Out, e: Extract<RunEvent, { type: 'seed-read' }>): boolean {
  const f = o.s.frozen;
  if (e.onDisk !== null || !f || f.path !== null || o.s.kept === null || !o.s.settings.documentPath || o.s.rewriting !== null) return false;
  o.set({ rewriting: e.generation });
  o.do({ type: 'write-document', generation: e.generation, text: o.s.kept });
  return true;
}

function onRewritten(o: Out, e: Extract<RunEvent, { type: 'document-written' }>): void {
  const f = o.s.frozen;
  o.set({ rewriting: null });
  if (e.error) {
    writeFailed(o, { what: 'document', path: o.s.settings.documentPath ?? '(no path)', reason: e.error });
  } else {
    if (f) o.set({ frozen: { ...f, path: e.path } });
    writeRecovered(o, 'document', e.path ?? '');
  }
  seed(o, e.generation, e.error ? null : o.s.kept);
}

function usage(g: GenerationFacts, now: number): { context: number; costUsd?: number; numTurns: number; now: string } {
  return { context: g.context, ...(g.costUsd !== null ? { costUsd: g.costUsd } : {}), numTurns: g.numTurns, now: iso(now) };
}

// What a degraded document carries in its scene: the lineage's first human prompt.
function originalPrompt(o: Out): string {
  return o.s.manifest.original_prompt ?? o.s.firstPrompt ?? o.s.settings.prompt ?? '';
}

function stop(o: Out, exitCode: number, now: number, message?: string): void {
  if (message) o.emit('stopped', { exitCode, message });
  if (exitCode !== 0) o.alert('flower-pty: stopped', message ?? `exit ${exitCode}`);
  // The crash that tripped the brake is a failed attempt like the ones before it.
  const cut = exitCode === 0 ? o.s.stopReason : null;
  const end = o.s.gen?.crashed ? 'crash' : exitCode === 0 && cut === null ? 'quit' : 'stopped';
  const reason = message ?? cut;
  o.manifest(endGeneration(o.s.manifest, { end, now: iso(now), ...(reason ? { reason } : {}) }), true);
  o.emit('ended', { exitCode, ...(message ? { message } : {}) });
  o.set({ finished: true, stopWait: null, waiting: null });
  o.do({ type: 'finish', exitCode, ...(message ? { message } : {}) });
}

// ---- generations

function onStart(o: Out): void {
  const p = o.s.policy;
  o.emit('start', {
    window: p.window, windowSource: p.windowSource, at: p.at, warnAt: p.warnAt, maxGenerations: p.maxGenerations,
    handoff: o.s.settings.handoff, workbench: o.s.settings.workbench, step: o.s.settings.step,
  });
  // --continue: a fresh session seeded with the newest frozen document.
  if (o.s.machine.generation > 0) o.do({ type: 'read-seed', generation: o.s.manifest.generations.length + 1 });
  else o.do({ type: 'spawn', generation: 1, successor: false, prompt: o.s.settings.prompt, window: o.s.policy.window, viaHook: false });
}

// The successor starts where its predecessor was (for --continue, where the manifest says it was).
function successorPlace(s: RunState): SessionPlace | null {
  if (s.gen) return s.gen.place;
  const recorded = lastPlace(s.manifest);
  return recorded ? { folder: recorded.folder, permissionMode: recorded.permission_mode, addedDirs: recorded.added_dirs } : null;
}

function onSeedRead(o: Out, e: Extract<RunEvent, { type: 'seed-read' }>): void {
  if (rewriteBeforeSeed(o, e)) return;
  seed(o, e.generation, e.onDisk);
}

function seed(o: Out, generation: number, onDisk: string | null): void {
  const s = o.s;
  const seed = seedSuccessor({ onDisk, kept: s.kept, frozen: s.frozen, path: s.settings.documentPath, originalPrompt: originalPrompt(o), step: s.settings.step, carried: s.carried });
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
  o.set({ seededText: seed.seededText, pendingEditNote: null, seedContext: viaHook ? seed.prompt : null });
  o.do({ type: 'spawn', generation, successor: true, prompt: seed.prompt, window: o.s.policy.window, viaHook, place: successorPlace(s) });
}

function onSpawned(o: Out, e: Extract<RunEvent, { type: 'spawned' }>): void {
  o.set({
    gen: {
      n: e.generation, sessionId: e.sessionId, transcriptPath: e.transcriptPath, spawnedAt: e.now, context: 0, costUsd: null,
      numTurns: 0, crashed: false, ended: false, hooks: 0, lastText: null, turnEndAt: null, scope: EMPTY_SCOPE,
      transcriptFound: null, transcriptMissingSince: null, transcriptLost: false, place: NO_PLACE,
    },
    note: e.successor ? 'a new session took over from the handoff document' : 'working',
    stopWait: null,
    waiting: null,
  });
  // An event announces what is already on disk: a kill right after it still finds the generation in the manifest.
  o.manifest(startGeneration(o.s.manifest, { generation: e.generation, sessionId: e.sessionId, now: iso(e.now) }), true);
  // Only a run that hands off reads the transcript (--no-handoff leaves claude alone).
  if (o.s.settings.handoff) o.do({ type: 'follow-transcript', path: e.transcriptPath });
  feed(o, { type: 'spawned', now: e.now, generation: e.generation, successor: e.successor });
  o.emit('generation-start', {
    generation: e.generation, session_id: e.sessionId, successor: e.successor, window: o.s.policy.window, at: o.s.policy.at,
    ...(e.folder !== undefined ? { folder: e.folder } : {}),
  });
  if (e.refused) {
    o.emit('place-refused', { generation: e.generation, reason: e.refused });
    o.set({ note: e.refused });
  }
}

function onChildExit(o: Out, e: Extract<RunEvent, { type: 'child-exit' }>): void {
  const g = o.s.gen;
  if (!g) return;
  o.gen({ ended: true });
  o.set({ seedContext: null });
  o.emit('child-exit', { generation: g.n, code: e.code, ...(e.signal ? { signal: e.signal } : {}) });
  const phase = o.s.machine.phase;
  if (phase !== 'review' && phase !== 'respawning') o.alert('flower-pty: claude exited', `code ${e.code}`);
  o.manifest(recordUsage(o.s.manifest, usage(g, e.now)));
  if (phase === 'review') {
    o.do({ type: 'show-message', text: `${o.s.note}; the successor starts in ${Math.max(0, Math.ceil(((o.s.machine.reviewUntil ?? e.now) - e.now) / 1000))}s` });
  }
  // Dead before any turn, in its first seconds: claude could not start (login, a flag, the network).
  const early =
    e.code !== 0 && e.signal === undefined && g.numTurns === 0 && g.context === 0 && e.now - g.spawnedAt < o.s.settings.earlyExitMs
      ? `claude exited with code ${e.code} ${Math.round((e.now - g.spawnedAt) / 100) / 10}s after it started, before its first turn; nothing to hand off. Its last lines: ${e.lastLines.trim() || '(none)'}`
      : undefined;
  // It is a failed attempt all the same (the manifest counts it).
  if (early) o.gen({ crashed: true });
  feed(o, { type: 'child-exit', now: e.now, code: e.code, ...(e.signal ? { signal: e.signal } : {}), ...(early ? { early } : {}) });
  // A review window of 0 (or one already over) goes on as soon as the old claude is gone.
  onTick(o, e.now);
}

// ---- the transcript

function onTranscript(o: Out, e: Extract<RunEvent, { type: 'transcript' }>): void {
  const g = o.s.gen;
  if (!g || g.ended) return;
  const signal = e.signal;
  switch (signal.kind) {
    case 'reading':
      o.gen({ context: e.usage.context, costUsd: e.usage.costUsd, numTurns: e.usage.numTurns });
      feed(o, { type: 'reading', now: e.now, context: signal.context });
      o.manifest(recordUsage(o.s.manifest, usage(o.s.gen!, e.now)));
      return;
    case 'assistant-text':
      o.gen({ lastText: signal.text });
      if (o.s.stopWait && sameText(signal.text, o.s.stopWait.text)) {
        // The turn's last response has landed: the Stop hook can be answered with it counted.
        const wait = o.s.stopWait;
        o.set({ stopWait: null });
        o.emit('stop-waited', { generation: g.n, ms: e.now - wait.since, landed: true });
        answerStop(o, wait.id, wait.text, e.now);
      }
      return;
    case 'overflow':
      o.emit('overflow', { generation: g.n, text: signal.text.slice(0, 300) });
      feed(o, { type: 'overflow', now: e.now, text: signal.text });
      return;
    case 'user-prompt':
      humanPrompt(o, signal.text);
      feed(o, { type: 'prompt', now: e.now });
      return;
    case 'session':
      if (signal.sessionId === g.sessionId) feed(o, { type: 'session', now: e.now, sessionId: signal.sessionId });
      return;
    case 'compaction':
      o.emit('compaction', { generation: g.n, preTokens: signal.preTokens, meter: signal.meterBefore });
      return;
    case 'usage-limit':
      // The transcript's row is the exact word: until when, and whether the session goes on by itself.
      park(o, e.now, signal.resetsAtMs, signal.autoContinues);
      return;
    case 'interrupt':
      // A refused permission (or a question dismissed) fires no hook: its only trace is this interrupt row.
      clearWaiting(o, ['permission', 'question']);
      return;
    case 'turn-end':
      if (o.s.hooksMissing) {
        turnEnd(o, o.s.gen?.lastText ?? '', e.now, 'transcript');
      } else if (g.hooks === 0 || o.s.machine.phase === 'writing') {
        o.gen({ turnEndAt: e.now });
      }
      return;
    default:
      return;
  }
}

function humanPrompt(o: Out, text: string): void {
  if (o.s.settings.dialect.isOwnPrompt(text) || text.startsWith('flower-pty: ')) return;
  if (o.s.firstPrompt === null) o.set({ firstPrompt: text });
  // On disk before anything after it (the handoff's start): a run killed then still has the prompt
  // its successor or a degraded document needs (a CI run killed right after 'writing' lost it).
  if (o.s.gen?.n === 1 && o.s.manifest.original_prompt === null) o.manifest(recordOriginalPrompt(o.s.manifest, text), true);
}

// The Stop payload's text and the transcript's row of it: the same reply, modulo surrounding whitespace.
function sameText(a: string, b: string): boolean {
  const x = a.trim();
  const y = b.trim();
  return x === y || (x.length > 0 && y.length > 0 && (x.endsWith(y) || y.endsWith(x)));
}

// ---- hooks: exact message boundaries, and the trusted channel for the handoff request

function onHook(o: Out, id: number, hook: HookEvent, now: number): void {
  const reply = (output: string) => o.do({ type: 'reply', id, output });
  const g = o.s.gen;
  if (hook.kind === 'statusline') return reply(onStatusLine(o, hook, now));
  if (!g || g.ended) return reply('');
  if (o.s.hooksMissing) {
    o.set({ hooksMissing: false, note: 'hooks are arriving again' });
    o.emit('hooks-back', { generation: g.n });
  }
  o.gen({ hooks: g.hooks + 1, turnEndAt: null });
  if (hook.kind === 'session-start') {
    if (hook.sessionId && hook.sessionId !== g.sessionId) {
      // /clear: a new id and a new file in the same process; follow it.
      o.emit('session-changed', { generation: g.n, from: g.sessionId, to: hook.sessionId, source: hook.source });
      o.gen({ scope: afterClear(g.scope) });
      o.gen({ sessionId: hook.sessionId, lastText: null });
      if (hook.transcriptPath) {
        o.gen({ transcriptPath: hook.transcriptPath });
        o.do({ type: 'follow-transcript', path: hook.transcriptPath });
      }
    }
    followSession(o, hook.where, false, now);
    if (hook.sessionId) feed(o, { type: 'session', now, sessionId: hook.sessionId });
    return reply('');
  }
  if (hook.sessionId !== null && hook.sessionId !== o.s.gen!.sessionId) return reply(''); // a stale hook from a retired session
  followSession(o, hook.where, false, now);
  if (TURN_HOOKS.has(hook.kind)) noteTurnWithoutTranscript(o, now);
  switch (hook.kind) {
    case 'prompt-submit': {
      if (hook.prompt !== null) humanPrompt(o, hook.prompt);
      resumeIfParked(o, now);
      clearWaiting(o, ['permission', 'question', 'idle']);
      feed(o, { type: 'prompt', now });
      // The successor's first prompt (the positional one that names it): the document goes in as its context.
      const seed = o.s.seedContext;
      if (seed === null) return reply('');
      o.set({ seedContext: null });
      o.emit('seed-delivered', { generation: g.n, via: 'hook', chars: seed.length });
      return reply(JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: seed } }));
    }
    case 'pre-tool':
      return reply('');
    case 'post-tool':
      // An answered question ends its tool call as an approval does.
      clearWaiting(o, ['permission', 'question', 'idle']);
      resumeIfParked(o, now);
      // A subagent's tool call is not the main thread's boundary: blocking it would hand the request to the subagent.
      if (hook.subagent) return reply('');
      return reply(answerText(o, feed(o, { type: 'tool-boundary', now })));
    case 'permission-request':
      if (hook.question !== null) {
        o.set({ waiting: { kind: 'question', text: hook.question } });
        o.emit('question', { generation: o.s.machine.generation, tool: hook.tool, question: hook.question });
        return reply('');
      }
      o.set({ waiting: { kind: 'permission', what: hook.summary } });
      o.emit('needs-permission', { generation: o.s.machine.generation, tool: hook.tool, what: hook.summary });
      return reply('');
    case 'notification':
      return reply(onNotification(o, hook, now));
    case 'pre-compact':
      return reply(answerText(o, feed(o, { type: 'pre-compact', now, trigger: hook.trigger })));
    case 'stop': {
      clearWaiting(o, ['permission', 'question']);
      resumeIfParked(o, now);
      const last = o.s.gen!.lastText;
      // The Stop hook can run before the turn's last response reaches the transcript: wait for it
      // (bounded), so a crossing made by that response is decided at this boundary, not after it.
      if (hook.lastMessage.trim() !== '' && (last === null || !sameText(last, hook.lastMessage)) && o.s.machine.phase === 'working') {
        o.set({ stopWait: { id, text: hook.lastMessage, since: now, until: now + o.s.settings.stopWaitMs } });
        return;
      }
      answerStop(o, id, hook.lastMessage, now);
      return;
    }
    case 'stop-failure':
      return reply(onStopFailure(o, hook, now));
    default:
      return reply('');
  }
}

// ---- following the session: Claude Code moves it (EnterWorktree, `claude -w`), and says so in every payload

// Re-point the meter at the transcript the payload names (the whole file moved: the readings carry over),
// and keep where the session is for its successor. A status line only fills in the place of the transcript
// being followed: one built before a move can arrive after it, and must not move the meter back.
function followSession(o: Out, where: SessionWhere | undefined, fromStatusLine: boolean, now: number): void {
  const g = o.s.gen;
  if (!g || g.ended || !where) return;
  const path = where.transcriptPath;
  if (fromStatusLine && path !== null && path !== g.transcriptPath) return;
  const moved = !fromStatusLine && path !== null && path !== '' && path !== g.transcriptPath;
  if (moved) {
    o.emit('transcript-moved', { generation: g.n, from: g.transcriptPath, to: path, cwd: where.cwd });
    o.gen({ transcriptPath: path, transcriptFound: null });
    if (o.s.settings.handoff) o.do({ type: 'follow-transcript', path, carry: true });
  }
  const place = placeAfter(g.place, where, { fromStatusLine, moved });
  if (place === g.place) return;
  o.gen({ place });
  o.emit('session-place', { generation: g.n, folder: place.folder, permissionMode: place.permissionMode, addedDirs: [...place.addedDirs], changed: placeChanges(g.place, place) });
  o.manifest(recordPlace(o.s.manifest, { folder: place.folder, permission_mode: place.permissionMode, added_dirs: [...place.addedDirs] }, iso(now)));
}

// Hooks that mean a turn is under way: its transcript must exist by now (the prompt's row comes first).
const TURN_HOOKS: ReadonlySet<HookEvent['kind']> = new Set(['prompt-submit', 'pre-tool', 'post-tool', 'stop']);

function noteTurnWithoutTranscript(o: Out, now: number): void {
  const g = o.s.gen;
  if (!g || !o.s.settings.handoff || g.transcriptFound === true || g.transcriptMissingSince !== null) return;
  o.gen({ transcriptMissingSince: now });
}

function onTranscriptPresence(o: Out, found: boolean): void {
  const g = o.s.gen;
  if (!g || g.ended) return;
  o.gen({ transcriptFound: found, ...(found ? { transcriptMissingSince: null } : {}) });
  if (found && g.transcriptLost) o.emit('transcript-found', { generation: g.n, path: g.transcriptPath });
}

// A live session whose transcript cannot be found is not metered: rather than let it run into the wall
// (auto-compact is off), say so once and hand off at the next boundary, with the document its hooks carry.
function checkTranscript(o: Out, now: number): void {
  const g = o.s.gen;
  if (!g || g.ended || g.transcriptLost || g.transcriptMissingSince === null) return;
  if (now - g.transcriptMissingSince < o.s.settings.transcriptLostAfterMs) return;
  o.gen({ transcriptLost: true });
  const after = Math.round((now - g.transcriptMissingSince) / 1000);
  o.emit('transcript-lost', { generation: g.n, path: g.transcriptPath, after });
  o.do({ type: 'log', line: `claude's transcript is not at ${g.transcriptPath} ${after}s into a turn: the context is not metered, so the session hands off at its next boundary` });
  o.alert('flower-pty: transcript not found', 'the session hands off at its next boundary');
  o.set({ note: "claude's transcript cannot be found, so its context is not metered: it hands off at the next boundary" });
  feed(o, { type: 'force-handoff', now });
}

function answerStop(o: Out, id: number, text: string, now: number): void {
  o.do({ type: 'reply', id, output: turnEnd(o, text, now, 'hook') });
}

// A turn ended (a Stop hook, or the transcript when hooks are missing): the machine decides.
function turnEnd(o: Out, text: string, now: number, via: 'hook' | 'transcript'): string {
  o.gen({ turnEndAt: null });
  if (o.s.machine.phase === 'writing') {
    const parsed = parseDocument(text);
    return answerText(o, feed(o, { type: 'turn-end', now, via, document: { text, complete: parsed.missing.length === 0, missing: parsed.missing } }));
  }
  return answerText(o, feed(o, { type: 'turn-end', now, via }));
}

function onStopFailure(o: Out, hook: Extract<HookEvent, { kind: 'stop-failure' }>, now: number): string {
  const details = `${hook.details} ${hook.lastMessage}`;
  o.emit('api-error', { generation: o.s.machine.generation, error: hook.error, details: details.slice(0, 300) });
  if (hook.overflow) {
    feed(o, { type: 'overflow', now, text: details.trim() });
    return '';
  }
  if (hook.usageLimit) {
    // The transcript row, if it comes, says until when exactly.
    park(o, now, null, hook.usageLimit.autoContinues);
    return '';
  }
  if (o.s.machine.phase === 'writing') feed(o, { type: 'turn-end', now });
  return '';
}

// Parked, not idle, not crashed, not a boundary: whatever is pending stays pending. Said once per park;
// a later word (the transcript row, the status line) only adds the reset time.
function park(o: Out, now: number, until: number | null, autoContinue: boolean): void {
  const w = o.s.waiting;
  if (w?.kind === 'parked') {
    o.set({ waiting: { ...w, until: until ?? w.until, autoContinue: until !== null ? autoContinue : w.autoContinue } });
    return;
  }
  o.set({ waiting: { kind: 'parked', since: now, until, autoContinue, continued: false }, note: 'parked on a usage limit' });
  o.emit('parked', { generation: o.s.machine.generation, until: until === null ? null : iso(until), ...(until !== null ? { untilMs: until } : {}), autoContinue });
}

function onNotification(o: Out, hook: Extract<HookEvent, { kind: 'notification' }>, now: number): string {
  if (hook.type === 'idle_prompt' && o.s.waiting === null) {
    o.set({ waiting: { kind: 'idle' } });
    o.emit('idle', { generation: o.s.machine.generation, message: hook.message });
  } else if (hook.type === 'permission_prompt' && o.s.waiting?.kind !== 'permission' && o.s.waiting?.kind !== 'question') {
    o.set({ waiting: { kind: 'permission', what: 'a tool' } });
    o.emit('needs-permission', { generation: o.s.machine.generation, what: hook.message });
  } else if (hook.type === 'quota_auto_resume_fired') {
    resumeIfParked(o, now);
  }
  return '';
}

function resumeIfParked(o: Out, now: number): void {
  if (o.s.waiting?.kind !== 'parked') return;
  o.set({ waiting: null, note: 'resumed after the usage limit' });
  o.emit('resumed', { generation: o.s.machine.generation, at: iso(now) });
}

function clearWaiting(o: Out, kinds: Array<'permission' | 'question' | 'idle'>): void {
  const w = o.s.waiting;
  if (w && (kinds as string[]).includes(w.kind)) o.set({ waiting: null });
}

// Claude Code reports its real window (and its usage limits) to the status line; an explicit --window still wins.
function onStatusLine(o: Out, hook: Extract<HookEvent, { kind: 'statusline' }>, now: number): string {
  if (o.s.gen && (hook.sessionId === null || hook.sessionId === o.s.gen.sessionId)) followSession(o, hook.where, true, now);
  const s = o.s;
  if (hook.windowSize !== null && s.settings.policy.window === undefined && hook.windowSize !== s.policy.window) {
    try {
      const policy = resolvePolicy({ ...s.settings.policy, reportedWindow: hook.windowSize });
      o.set({ policy });
      feed(o, { type: 'window', now, window: policy.window, at: policy.at, warnAt: policy.warnAt });
      o.manifest({ ...o.s.manifest, window: policy.window, at: policy.at });
      o.emit('window', { window: policy.window, source: 'claude', at: policy.at, warnAt: policy.warnAt });
    } catch (error) {
      o.do({ type: 'log', line: `ignoring the reported window ${hook.windowSize}: ${String(error)}` });
    }
  }
  if (hook.rateLimitResetsAt !== null && o.s.waiting?.kind === 'parked' && o.s.waiting.until === null) {
    o.set({ waiting: { ...o.s.waiting, until: hook.rateLimitResetsAt * 1000 } });
  }
  return statusLine(runView(o.s, now));
}

// ---- the document on disk: a person may edit it at any time

function onDocumentChanged(o: Out, text: string | null, now: number): void {
  const s = o.s;
  const path = s.settings.documentPath;
  if (!path) return;
  o.do({ type: 'show-document', path, text });
  if (text === null) {
    o.emit('document-removed', { path, phase: s.machine.phase });
    o.set({ note: 'the document was removed; the successor will get the copy flower-pty kept' });
    return;
  }
  if (s.frozen && text === s.frozen.text && s.machine.phase === 'review') return; // our own freeze
  const parsed = parseDocument(text);
  if (parsed.missing.length > 0) {
    o.emit('document-problem', { path, missing: parsed.missing });
    o.set({ note: `the edited document lacks ${parsed.missing.join(', ')}: the successor gets what parses and a note` });
  } else {
    o.set({ note: 'the document was edited' });
  }
  if (s.machine.phase === 'working' && s.machine.successor && s.seededText !== null && text !== s.seededText) {
    const edit = editNote(path, s.seededText, text);
    if (!edit) return;
    o.set({ pendingEditNote: edit.note, seededText: text });
    o.emit('edit-pending', { generation: s.machine.generation, changed: edit.changed });
    if (s.frozen) o.manifest(recordHumanEdit(o.s.manifest, s.frozen.generation, { changedSections: edit.changed, draftPath: null, now: iso(now) }));
  }
  feed(o, { type: 'human-edit', now });
}

// ---- the clock

function onTick(o: Out, now: number): void {
  const s = o.s;
  if (s.finished) return;
  if (s.stopWait && now >= s.stopWait.until) {
    // The response never showed up in time: decide from what the transcript holds.
    const wait = s.stopWait;
    o.set({ stopWait: null });
    o.do({ type: 'log', line: `the Stop hook's last response did not reach the transcript within ${o.s.settings.stopWaitMs} ms` });
    o.emit('stop-waited', { generation: o.s.machine.generation, ms: now - wait.since, landed: false });
    answerStop(o, wait.id, wait.text, now);
  }
  checkHooks(o, now);
  checkTranscript(o, now);
  continueAfterReset(o, now);
  // The successor waits for the document on disk and for the old claude to be gone.
  if (machineWaitsOnEvent(o.s)) return;
  feed(o, { type: 'tick', now });
}

// No hook came: hooks disabled by a policy, ignored by this release, or a broken hook command. Say so
// once, and from now on take the transcript's turn ends as the boundaries (the request gets typed).
function checkHooks(o: Out, now: number): void {
  const g = o.s.gen;
  if (!g || g.ended || g.hooks > 0 || o.s.hooksMissing || !o.s.settings.handoff) return;
  const silentStart = now - g.spawnedAt >= o.s.settings.hooklessAfterMs;
  const silentTurn = g.turnEndAt !== null && now - g.turnEndAt >= o.s.settings.turnHooklessAfterMs;
  if (!silentStart && !silentTurn) return;
  const already = o.s.manifest.errors.some((e) => e.reason.startsWith('no hook arrived'));
  o.set({ hooksMissing: true, note: "no hook from claude: handoffs are typed into claude's prompt when it is idle" });
  if (!already) {
    o.emit('hooks-missing', { generation: g.n, after: silentTurn ? 'a turn ended with no Stop hook' : `${Math.round((now - g.spawnedAt) / 1000)}s without any hook` });
    o.do({ type: 'log', line: 'no hook arrived from claude (disabled by a policy, or a broken hook command): falling back to typed requests at idle prompts' });
    o.alert('flower-pty: hooks missing', 'handoffs will be typed into the idle prompt');
  }
  // A turn already ended: it is the boundary the hooks did not bring.
  if (silentTurn) turnEnd(o, g.lastText ?? '', now, 'transcript');
}

// An API-key session parked on a limit does not continue by itself: continue it once after the reset.
function continueAfterReset(o: Out, now: number): void {
  const w = o.s.waiting;
  if (w?.kind !== 'parked' || w.autoContinue || w.continued || now < continueAt(w, o.s.settings.parkedRetryMs)) return;
  o.set({ waiting: { ...w, continued: true }, note: 'the usage limit reset: continuing the session once' });
  o.do({ type: 'type-into-child', request: '', line: 'continue' });
}

