// The runtime: turns everything that happens (pty output and exit, transcript bytes, hooks,
// ticks, keys) into machine inputs, and carries out the effects the machine returns.
// It decides nothing itself; every decision is in core/machine.ts.

import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { createMachine, transition, reviewRemaining, type Effect, type MachineInput, type MachineState, type Notice } from './core/machine.js';
import { resolvePolicy, type Policy } from './core/policy.js';
import type { Meter, MeterSignal } from './core/context-meter.js';
import { createTranscriptReader, type TranscriptReader } from './core/transcript-reader.js';
import { isOverflowText } from './core/overflow.js';
import { transcriptPathFor } from './core/claude-paths.js';
import { parseDocument } from './core/handoff-parse.js';
import { handoffRequest } from './core/handoff-prompts.js';
import { documentToFreeze, seedSuccessor, editNote, type FrozenDocument } from './core/handoff-lineage.js';
import { statusLine } from './core/status-text.js';
import { createTitleFilter } from './core/title-filter.js';
import {
  createManifest, startGeneration, recordUsage, endGeneration, recordHumanEdit, recordOriginalPrompt, type Manifest,
} from './core/manifest.js';
import { openHookChannel, type HookChannel, type HookMessage } from './adapters/hook-channel.js';
import { writeRunSettings, findUserStatusLine, defaultHookCommand } from './adapters/run-settings.js';
import { spawnPty, type PtySession } from './adapters/pty-session.js';
import { openTranscriptTail, type TranscriptTail } from './adapters/transcript-tail.js';
import { openNotesStore, type NotesStore } from './adapters/notes-store.js';
import { createManifestWriter } from './adapters/manifest-store.js';
import { openEventsLog, type EventsLog } from './adapters/events-log.js';
import { launchArgs, launchEnv, promptArgument, type LaunchInput } from './child-launch.js';
import { watchFile, type FileWatch } from './adapters/file-watch.js';
import { notificationSequence } from './core/notification.js';
import type { Host, StatusView } from './hosts/host.js';

export interface SuperviseOptions {
  claude: string;
  claudeArgs: string[];
  prompt: string | null;
  cwd: string;
  env: Record<string, string | undefined>;
  window?: number;
  headroom?: number;
  maxGenerations?: number;
  handoff: boolean;
  keepAutoCompact: boolean;
  workbench: string | null;
  step: string;
  reviewMs: number;
  writeTimeoutMs: number;
  quietMs: number;
  eventsPath: string | null;
  /** resume a lineage: the manifest and the newest frozen document from the workbench */
  resume: { manifest: Manifest; document: string | null } | null;
  log: (line: string) => void;
  /** aborting ends the run cleanly (SIGTERM, SIGHUP, SIGINT) */
  signal?: AbortSignal;
  /** where bell and desktop notifications go (null: --no-notify or not a terminal) */
  notify: ((sequence: string) => void) | null;
  /** --notify-command: run for each event worth a person's attention (adapters/notify-command.ts); null or absent: none */
  notifyCommand?: string | null;
}

export interface SuperviseResult {
  exitCode: number;
  message?: string;
}

interface Generation {
  n: number;
  sessionId: string;
  pty: PtySession;
  tail: TranscriptTail | null;
  reader: TranscriptReader;
  ended: boolean;
  crashed: boolean;
}

function configDirOf(env: Record<string, string | undefined>): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
}

export async function supervise(opts: SuperviseOptions, host: Host): Promise<SuperviseResult> {
  let policy: Policy = resolvePolicy({
    ...(opts.window !== undefined ? { window: opts.window } : {}),
    ...(opts.headroom !== undefined ? { headroom: opts.headroom } : {}),
    ...(opts.maxGenerations !== undefined ? { maxGenerations: opts.maxGenerations } : {}),
    env: opts.env,
  });
  const events: EventsLog = openEventsLog(opts.eventsPath);
  const notes: NotesStore | null = opts.workbench ? openNotesStore(opts.workbench, opts.step) : null;
  const manifestWriter = opts.workbench ? createManifestWriter(opts.workbench, (e) => opts.log(`manifest write failed: ${e}`)) : null;
  const cwdReal = realpathSync(opts.cwd);
  const configDir = configDirOf(opts.env);
  const runDir = await mkdtemp(join(tmpdir(), 'flower-pty-run-'));

  let manifest: Manifest =
    opts.resume?.manifest ??
    createManifest({ step: opts.step, cwd: cwdReal, window: policy.window, at: policy.at, now: new Date().toISOString() });
  // A lineage picked up after flower-pty was killed: close the generation it could not close.
  manifest = endGeneration(manifest, { end: 'stopped', now: new Date().toISOString(), reason: 'flower-pty stopped before this generation ended' });
  let state: MachineState = createMachine(
    {
      handoff: opts.handoff,
      window: policy.window,
      at: policy.at,
      warnAt: policy.warnAt,
      maxGenerations: policy.maxGenerations,
      writeTimeoutMs: opts.writeTimeoutMs,
      reviewMs: opts.reviewMs,
      quietMs: opts.quietMs,
      maxCrashes: 3,
    },
    { generation: opts.resume ? manifest.generations.length : 0, attempts: manifest.attempts },
  );
  let gen: Generation | null = null;
  let note = 'starting claude';
  /** the document as frozen (before any human edit), to detect and record edits */
  let frozen: (FrozenDocument & { generation: number; path: string | null }) | null = null;
  /** without a workbench the document lives only here, on its way to the successor */
  let inMemoryDocument: string | null = opts.resume?.document ?? null;
  let firstPrompt: string | null = null;
  let finish!: (r: SuperviseResult) => void;
  const finished = new Promise<SuperviseResult>((resolve) => (finish = resolve));
  let stopped = false;
  let effectChain: Promise<void> = Promise.resolve();

  function saveManifest(next: Manifest): void {
    manifest = next;
    manifestWriter?.write(manifest);
  }

  function view(): StatusView {
    const now = Date.now();
    const phase: StatusView['phase'] =
      state.phase === 'working' && state.nearSent ? 'near' : state.phase;
    return {
      phase,
      context: gen?.reader.meter.context ?? 0,
      window: policy.window,
      at: state.line,
      warnAt: policy.warnAt,
      generation: Math.max(1, state.generation),
      maxGenerations: policy.maxGenerations,
      handoff: opts.handoff,
      reviewLeft: reviewRemaining(state, now),
      held: state.held,
      workbench: opts.workbench,
      documentPath: notes?.currentPath ?? null,
      note,
    };
  }
  // The tick runs four times a second; the face only hears about a view that changed (idle CPU).
  let lastView = '';
  // While a freeze is on its way to disk the machine already says "review": the face waits for the
  // document, so it never shows a review countdown beside "No handoff yet".
  let freezing = false;
  const refresh = (): void => {
    if (freezing) return;
    const next = view();
    const key = JSON.stringify(next);
    if (key === lastView) return;
    lastView = key;
    host.status(next);
  };

  // ---- hook channel and per-run settings (only when handing off: --no-handoff leaves claude alone)
  let channel: HookChannel | null = null;
  let settingsPath: string | null = null;
  let userStatusLine: string | null = null;
  if (opts.handoff) {
    channel = await openHookChannel({ handler: onHook });
    userStatusLine = await findUserStatusLine({ configDir, cwd: cwdReal });
    settingsPath = await writeRunSettings({ dir: runDir, hookCommand: defaultHookCommand(), statusLine: true });
  }

  // ---- feeding the machine
  function feed(input: MachineInput): Effect[] {
    const step = transition(state, input);
    state = step.state;
    const answers: Effect[] = [];
    for (const effect of step.effects) {
      if (effect.type === 'answer') answers.push(effect);
      else {
        // Set now, not when the effect runs: the refresh below must already hold the view.
        if (effect.type === 'freeze') freezing = true;
        // Effects run one after another: a freeze must be on disk before the next spawn reads it.
        effectChain = effectChain.then(() => perform(effect)).catch((error) => opts.log(`effect ${effect.type} failed: ${String(error)}`));
      }
    }
    refresh();
    return answers;
  }

  function notice(n: Notice): void {
    const { name, ...fields } = n;
    // 'done' and 'generation-start' are written by freeze/spawn with the path and session id.
    if (name !== 'done' && name !== 'generation-start') events.emit(name, { generation: state.generation, ...fields });
    if (name === 'near') note = 'getting close to the handoff line';
    else if (name === 'writing') note = 'the session is writing its handoff document';
    else if (name === 'born-high') note = 'this session started above the line; its line was lifted';
    else if (name === 'crash') {
      note = `claude exited unexpectedly (code ${n.code})`;
      if (gen) gen.crashed = true;
    }
  }

  async function perform(effect: Effect): Promise<void> {
    switch (effect.type) {
      case 'notify':
        notice(effect.notice);
        return;
      case 'freeze':
        try {
          await freeze(effect);
        } finally {
          freezing = false;
          refresh();
        }
        return;
      case 'end-child':
        if (gen && !gen.pty.exited) await gen.pty.terminate(5_000);
        // With no review window the successor can start now rather than at the next tick.
        feed({ type: 'tick', now: Date.now() });
        return;
      case 'spawn':
        await spawnGeneration(effect.generation, true);
        return;
      case 'stop':
        await stop(effect.exitCode, effect.message);
        return;
      case 'answer':
        return;
    }
  }

  async function freeze(effect: Extract<Effect, { type: 'freeze' }>): Promise<void> {
    const { text, doc } = documentToFreeze({
      text: effect.text,
      degraded: effect.degraded,
      ...(effect.reason ? { reason: effect.reason } : {}),
      seededText,
      originalPrompt: originalPrompt(),
      step: opts.step,
    });
    const now = new Date();
    let path: string | null = null;
    if (notes) {
      try {
        const written = await notes.freeze(text, now);
        path = written.path;
        if (written.archived) events.emit('archived', { path: written.archived });
      } catch (error) {
        opts.log(`could not write the handoff document: ${String(error)}`);
        events.emit('error', { message: `could not write the handoff document: ${String(error)}` });
      }
    }
    inMemoryDocument = text;
    frozen = { text, doc, generation: effect.generation, path };
    // The last usage and the end of the generation land in one write.
    const used = gen ? recordUsage(manifest, usageOf(gen.reader.meter)) : manifest;
    saveManifest(
      endGeneration(used, {
        end: gen?.crashed ? 'crash' : effect.degraded ? 'degraded' : 'handoff',
        now: now.toISOString(),
        handoffPath: path,
        degraded: effect.degraded,
        ...(effect.reason ? { reason: effect.reason } : {}),
      }),
    );
    await manifestWriter?.flush();
    const sections = Object.entries(doc).filter(([, body]) => body.trim() !== '').map(([key]) => key);
    events.emit('done', {
      generation: effect.generation,
      context: gen?.reader.meter.context ?? 0,
      window: policy.window,
      degraded: effect.degraded,
      ...(effect.reason ? { reason: effect.reason } : {}),
      path,
      sections,
    });
    note = effect.degraded ? `degraded handoff: ${effect.reason}` : `handoff written${path ? ` to ${path}` : ''}`;
    alert(effect.degraded ? 'flower-pty: degraded handoff' : 'flower-pty: handoff done', effect.degraded ? (effect.reason ?? '') : (path ?? 'document ready'));
    host.documentChanged(path ?? '', text);
  }

  // What a degraded document carries in its scene: the lineage's first human prompt.
  function originalPrompt(): string {
    return manifest.original_prompt ?? firstPrompt ?? opts.prompt ?? '';
  }

  function usageOf(meter: Meter): { context: number; costUsd?: number; numTurns: number; now: string } {
    return {
      context: meter.context,
      ...(meter.costUsd !== null ? { costUsd: meter.costUsd } : {}),
      numTurns: meter.numTurns,
      now: new Date().toISOString(),
    };
  }

  function onSignal(signal: MeterSignal, g: Generation): void {
    if (g !== gen) return;
    switch (signal.kind) {
      case 'reading':
        feed({ type: 'reading', now: Date.now(), context: signal.context });
        saveManifest(recordUsage(manifest, usageOf(g.reader.meter)));
        return;
      case 'overflow':
        events.emit('overflow', { generation: g.n, text: signal.text.slice(0, 300) });
        feed({ type: 'overflow', now: Date.now(), text: signal.text });
        return;
      case 'user-prompt':
        firstPrompt ??= signal.text;
        if (g.n === 1) saveManifest(recordOriginalPrompt(manifest, signal.text));
        return;
      case 'session':
        if (signal.sessionId === g.sessionId) feed({ type: 'session', now: Date.now(), sessionId: signal.sessionId });
        return;
      case 'compaction':
        events.emit('compaction', { generation: g.n, preTokens: signal.preTokens, meter: signal.meterBefore });
        return;
      default:
        return;
    }
  }

  function openTail(g: Generation, path: string): void {
    g.tail?.close();
    g.reader = createTranscriptReader();
    g.tail = openTranscriptTail({
      path,
      onChunk: (bytes) => {
        for (const signal of g.reader.push(bytes)) onSignal(signal, g);
      },
      onReset: (reason) => {
        events.emit('transcript-reset', { generation: g.n, reason });
        g.reader = createTranscriptReader();
      },
    });
  }

  // ---- hooks: exact message boundaries, and the trusted channel for the handoff request
  async function onHook(msg: HookMessage): Promise<string> {
    const g = gen;
    const payload = msg.payload;
    const sessionId = typeof payload.session_id === 'string' ? payload.session_id : null;
    if (msg.event === 'statusline') return onStatusLine(payload);
    if (!g || g.ended) return '';
    if (msg.event === 'SessionStart') {
      const path = typeof payload.transcript_path === 'string' ? payload.transcript_path : null;
      if (sessionId && sessionId !== g.sessionId) {
        // /clear: a new id and a new file in the same process; follow it.
        events.emit('session-changed', { generation: g.n, from: g.sessionId, to: sessionId, source: payload.source });
        g.sessionId = sessionId;
        if (path) openTail(g, path);
      }
      if (sessionId) feed({ type: 'session', now: Date.now(), sessionId });
      return '';
    }
    if (sessionId !== null && sessionId !== g.sessionId) return ''; // a stale hook from a retired session
    // The reading that crossed the line may have landed a moment before the hook fired.
    g.tail?.catchUp();
    switch (msg.event) {
      case 'UserPromptSubmit':
        if (typeof payload.prompt === 'string') {
          firstPrompt ??= payload.prompt;
          if (g.n === 1) saveManifest(recordOriginalPrompt(manifest, payload.prompt));
        }
        return '';
      case 'PostToolUse':
        // A subagent's tool call is not the main thread's boundary: blocking it would hand the request to the subagent.
        if (typeof payload.agent_id === 'string' && payload.agent_id !== '') return '';
        return answer(feed({ type: 'tool-boundary', now: Date.now() }));
      case 'Stop': {
        const text = typeof payload.last_assistant_message === 'string' ? payload.last_assistant_message : '';
        if (state.phase === 'writing') {
          const parsed = parseDocument(text);
          return answer(feed({ type: 'turn-end', now: Date.now(), document: { text, complete: parsed.missing.length === 0, missing: parsed.missing } }));
        }
        return answer(feed({ type: 'turn-end', now: Date.now() }));
      }
      case 'StopFailure': {
        const details = `${String(payload.error_details ?? '')} ${String(payload.last_assistant_message ?? '')}`;
        events.emit('api-error', { generation: g.n, error: String(payload.error ?? ''), details: details.slice(0, 300) });
        if (isOverflowText(details)) feed({ type: 'overflow', now: Date.now(), text: details.trim() });
        else if (state.phase === 'writing') feed({ type: 'turn-end', now: Date.now() });
        return '';
      }
      default:
        return '';
    }
  }

  function answer(effects: Effect[]): string {
    const decision = effects.find((e): e is Extract<Effect, { type: 'answer' }> => e.type === 'answer')?.decision ?? 'pass';
    if (decision === 'block-handoff') {
      return JSON.stringify({ decision: 'block', reason: handoffRequest({ used: gen?.reader.meter.context ?? 0, window: policy.window }) });
    }
    if (decision === 'block-note' && pendingEditNote) {
      const reason = pendingEditNote;
      pendingEditNote = null;
      events.emit('edit-sent', { generation: state.generation });
      return JSON.stringify({ decision: 'block', reason });
    }
    return '';
  }

  // ---- the document on disk: a person may edit it at any time
  let docWatch: FileWatch | null = null;
  /** the text the successor started from, to describe a later edit as a diff */
  let seededText: string | null = null;
  let pendingEditNote: string | null = null;
  async function onDocumentChange(kind: 'changed' | 'removed'): Promise<void> {
    if (!notes) return;
    const text = kind === 'removed' ? null : await notes.read();
    host.documentChanged(notes.currentPath, text);
    if (text === null) {
      events.emit('document-removed', { path: notes.currentPath, phase: state.phase });
      note = 'the document was removed; the successor will get the copy flower-pty kept';
      refresh();
      return;
    }
    if (frozen && text === frozen.text && state.phase === 'review') return; // our own freeze
    const parsed = parseDocument(text);
    if (parsed.missing.length > 0) {
      events.emit('document-problem', { path: notes.currentPath, missing: parsed.missing });
      note = `the edited document lacks ${parsed.missing.join(', ')}: the successor gets what parses and a note`;
    } else {
      note = 'the document was edited';
    }
    if (state.phase === 'working' && state.successor && seededText !== null && text !== seededText) {
      const edit = editNote(notes.currentPath, seededText, text);
      if (!edit) return;
      pendingEditNote = edit.note;
      seededText = text;
      events.emit('edit-pending', { generation: state.generation, changed: edit.changed });
      if (frozen) saveManifest(recordHumanEdit(manifest, frozen.generation, { changedSections: edit.changed, draftPath: null, now: new Date().toISOString() }));
    }
    feed({ type: 'human-edit', now: Date.now() });
  }
  if (notes) {
    // chokidar cannot see a file appear in a folder that does not exist yet: make the folder first.
    await mkdir(dirname(notes.currentPath), { recursive: true });
    docWatch = watchFile(notes.currentPath, (kind) => void onDocumentChange(kind));
  }

  function alert(title: string, body: string): void {
    opts.notify?.(notificationSequence(title, body));
  }

  // Claude Code reports its real window to the status line; an explicit --window still wins.
  function onStatusLine(payload: Record<string, unknown>): string {
    const cw = payload.context_window as { context_window_size?: unknown } | undefined;
    const size = typeof cw?.context_window_size === 'number' ? cw.context_window_size : undefined;
    if (size && opts.window === undefined && size !== policy.window) {
      try {
        policy = resolvePolicy({
          reportedWindow: size,
          ...(opts.headroom !== undefined ? { headroom: opts.headroom } : {}),
          ...(opts.maxGenerations !== undefined ? { maxGenerations: opts.maxGenerations } : {}),
          env: opts.env,
        });
        feed({ type: 'window', now: Date.now(), window: policy.window, at: policy.at, warnAt: policy.warnAt });
        saveManifest({ ...manifest, window: policy.window, at: policy.at });
        events.emit('window', { window: policy.window, source: 'claude', at: policy.at, warnAt: policy.warnAt });
        refresh();
      } catch (error) {
        opts.log(`ignoring the reported window ${size}: ${String(error)}`);
      }
    }
    return statusLine(view());
  }

  // ---- generations
  async function successorSeed(): Promise<string> {
    const onDisk = notes ? await notes.read() : null;
    const seed = seedSuccessor({ onDisk, kept: inMemoryDocument, frozen, path: notes?.currentPath ?? null, originalPrompt: originalPrompt(), step: opts.step });
    if (seed.missing.length > 0) events.emit('document-problem', { missing: seed.missing, path: notes?.currentPath ?? null });
    // A person changed it during review: keep the model's draft beside it and record how much.
    if (frozen && seed.humanEdit) {
      const draftPath = notes ? await notes.saveDraft(frozen.text, new Date()) : null;
      saveManifest(recordHumanEdit(manifest, frozen.generation, { changedSections: seed.humanEdit.changed, draftPath, now: new Date().toISOString() }));
      events.emit('human-edit', { generation: frozen.generation, changed: seed.humanEdit.changed, draft: draftPath });
    }
    seededText = seed.seededText;
    pendingEditNote = null;
    return seed.prompt;
  }

  async function spawnGeneration(n: number, successor: boolean): Promise<void> {
    if (stopped) return;
    const sessionId = randomUUID();
    let prompt = successor ? await successorSeed() : opts.prompt;
    if (prompt) {
      const spillPath = join(opts.workbench ? join(opts.workbench, 'notes') : runDir, `successor-prompt-${n}.md`);
      const { arg, spill } = promptArgument(prompt, spillPath);
      if (spill) await writeFile(spillPath, prompt, { mode: 0o644 });
      prompt = arg;
    }
    const launch: LaunchInput = {
      sessionId,
      settingsPath,
      userArgs: opts.claudeArgs,
      prompt,
      handoff: opts.handoff,
      keepAutoCompact: opts.keepAutoCompact,
      baseEnv: opts.env,
      channel: channel ? { socketPath: channel.socketPath, token: channel.token } : null,
      userStatusLine,
    };
    const { cols, rows } = host.size();
    const pty = spawnPty({ file: opts.claude, args: opts.handoff ? launchArgs(launch) : [...opts.claudeArgs, ...(prompt ? [prompt] : [])], cwd: opts.cwd, env: launchEnv(launch), cols, rows });
    const g: Generation = { n, sessionId, pty, tail: null, reader: createTranscriptReader(), ended: false, crashed: false };
    gen = g;
    if (opts.handoff) openTail(g, transcriptPathFor(configDir, cwdReal, sessionId));
    const titles = createTitleFilter();
    pty.onData((data) => {
      if (gen !== g) return;
      const { output, title } = titles.push(data);
      if (output) host.childOutput(output);
      if (title !== null) host.childTitle(title);
    });
    pty.onExit((exit) => {
      g.ended = true;
      g.tail?.catchUp();
      g.tail?.close();
      host.childEnded();
      events.emit('child-exit', { generation: n, code: exit.exitCode, ...(exit.signal ? { signal: exit.signal } : {}) });
      if (gen === g && state.phase !== 'review' && state.phase !== 'respawning') alert('flower-pty: claude exited', `code ${exit.exitCode}`);
      if (gen === g) {
        saveManifest(recordUsage(manifest, usageOf(g.reader.meter)));
        if (state.phase === 'review') host.message(`${note}; the successor starts in ${reviewRemaining(state, Date.now()) ?? 0}s`);
        feed({ type: 'child-exit', now: Date.now(), code: exit.exitCode, ...(exit.signal ? { signal: exit.signal } : {}) });
      }
    });
    host.childStarted();
    saveManifest(startGeneration(manifest, { generation: n, sessionId, now: new Date().toISOString() }));
    note = successor ? 'a new session took over from the handoff document' : 'working';
    feed({ type: 'spawned', now: Date.now(), generation: n, successor });
    // An event announces what is already on disk: a kill right after it still finds the generation in the manifest.
    await manifestWriter?.flush();
    events.emit('generation-start', { generation: n, session_id: sessionId, successor, window: policy.window, at: policy.at });
  }

  async function stop(exitCode: number, message?: string): Promise<void> {
    if (stopped) return;
    stopped = true;
    if (message) events.emit('stopped', { exitCode, message });
    if (exitCode !== 0) alert('flower-pty: stopped', message ?? `exit ${exitCode}`);
    // The crash that tripped the brake is a failed attempt like the ones before it.
    const end = gen?.crashed ? 'crash' : exitCode === 0 ? 'quit' : 'stopped';
    saveManifest(endGeneration(manifest, { end, now: new Date().toISOString(), ...(message ? { reason: message } : {}) }));
    if (gen && !gen.pty.exited) await gen.pty.terminate(5_000);
    finish(message ? { exitCode, message } : { exitCode });
  }

  // ---- wiring the host
  host.onInput((data) => {
    if (gen && !gen.ended) gen.pty.write(data);
  });
  host.onResize((cols, rows) => gen?.pty.resize(cols, rows));
  host.onCommand((command) => {
    const now = Date.now();
    if (command === 'force-handoff') {
      // Hooks are the only trusted channel, so the handoff waits for claude's next message boundary.
      note = 'handoff armed: it happens at the next message boundary (if claude is idle, send it a message)';
      feed({ type: 'force-handoff', now });
    }
    else if (command === 'hold') feed({ type: 'hold', now });
    else if (command === 'release') feed({ type: 'release', now });
    else if (command === 'quit') feed({ type: 'quit', now });
  });
  opts.signal?.addEventListener('abort', () => feed({ type: 'quit', now: Date.now() }), { once: true });
  const ticker = setInterval(() => feed({ type: 'tick', now: Date.now() }), 250);

  events.emit('start', {
    window: policy.window, windowSource: policy.windowSource, at: policy.at, warnAt: policy.warnAt,
    maxGenerations: policy.maxGenerations, handoff: opts.handoff, workbench: opts.workbench, step: opts.step,
  });
  try {
    if (opts.resume) {
      // --continue: a fresh session seeded with the newest frozen document.
      await spawnGeneration(manifest.generations.length + 1, true);
    } else {
      await spawnGeneration(1, false);
    }
    return await finished;
  } finally {
    clearInterval(ticker);
    await docWatch?.close();
    await effectChain;
    const last = gen as Generation | null; // assigned inside callbacks, which TypeScript cannot see
    last?.tail?.close();
    if (last && !last.pty.exited) await last.pty.terminate(2_000);
    await channel?.close();
    await manifestWriter?.flush();
    await rm(runDir, { recursive: true, force: true });
  }
}
