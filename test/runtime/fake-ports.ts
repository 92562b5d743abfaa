// Fake ports for the runtime's middle layer of tests: a clock that only moves when told, a claude
// that is a record of what it was sent, transcripts fed through the REAL transcript reader from
// in-memory rows, an in-memory notes folder, and a face that remembers what it was told.
import { DocumentTooLarge } from '../../src/adapters/notes-store.js';
import { readRunEvent } from '../../src/core/run/run-events.js';
import type { TranscriptReader } from '../../src/core/meter/transcript-reader.js';
import { resolveRunOptions } from '../../src/core/options/resolve-options.js';
import { settingsFromOptions } from '../../src/core/run/settings-from-options.js';
import { RUN_DIALECT } from '../../src/claude-code/run-dialect.js';
import { STOP_BLOCK_CAP_DEFAULT } from '../../src/claude-code/limits.js';
import { createSessionReader } from '../../src/claude-code/session-reader.js';
import { createRun, type RunSettings } from '../../src/core/run/run-state.js';
import { startRunLoop, type RunLoop } from '../../src/runtime/run-loop.js';
import type {
  ChildExit,
  ChildPort,
  ChildSpec,
  ClockPort,
  DocumentPort,
  Ports,
  TranscriptPort,
} from '../../src/runtime/ports.js';
import type { Face, FaceCommand, StatusView } from '../../src/runtime/face.js';
import type { Manifest } from '../../src/core/lineage/manifest.js';

type Json = Record<string, unknown>;

// earlyMs: a timer fires that much before its moment, as Node's do against Date.now() (its timers
// count from the event loop's cached, truncated time: nodejs/node#26578).
export function fakeClock(
  start = 1_000_000,
  earlyMs = 0,
): ClockPort & { advance(ms: number): Promise<void>; pending(): number; fired(): number } {
  let now = start;
  let fired = 0;
  let sameMoment = 0; // timers fired in a row without the clock moving
  let timers: Array<{ at: number; fire: () => void; live: boolean }> = [];
  return {
    now: () => now,
    wakeAt(at, fire) {
      // Early, but never before a millisecond has passed (the loop's time does move).
      const fireAt = at <= now ? now : Math.max(now + 1, at - earlyMs);
      const timer = { at: fireAt, fire, live: true };
      timers.push(timer);
      return { dispose: () => void (timer.live = false) };
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        timers = timers.filter((x) => x.live);
        const due = timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        sameMoment = due.at <= now ? sameMoment + 1 : 0;
        now = Math.max(now, due.at);
        due.live = false;
        fired++;
        // A run that re-arms for a moment already here would spin a real event loop: fail, not hang.
        if (sameMoment >= 10_000) throw new Error(`the run keeps asking to be woken at ${now}: a busy loop`);
        due.fire();
        await settle();
      }
      now = end;
      await settle();
    },
    pending: () => timers.filter((x) => x.live).length,
    fired: () => fired,
  };
}

/** lets queued effects (promise chains) run */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

export interface FakeChild {
  generation: number;
  sessionId: string;
  prompt: string | null;
  /** its first UserPromptSubmit hook carries the prompt (the command line only names it) */
  viaHook: boolean;
  /** where the successor was asked to start (its predecessor's place), or null */
  place: ChildSpec['place'];
  written: string[];
  exited: boolean;
  /** how many times the run told it to end */
  terminated: number;
  exit(e: ChildExit): void;
  print(data: string): void;
}

export interface World {
  clock: ReturnType<typeof fakeClock>;
  children: FakeChild[];
  /** appends rows to a session's transcript; the reader sees them at the next catch-up or at once */
  /** `visible: false`: written but not yet readable; `polled: false`: readable, but the tail has not looked
   * (read at the next catchUp) */
  append(sessionId: string, rows: Json[], opts?: { visible?: boolean; polled?: boolean; path?: string }): void;
  /** rows appended but not yet visible: what a Stop hook running early does not see */
  reveal(sessionId: string): void;
  documents: Map<string, string>;
  archived: string[];
  manifests: Manifest[];
  events: Array<{ name: string; fields: Record<string, unknown> }>;
  views: StatusView[];
  shown: Array<{ path: string; text: string | null }>;
  requests: string[];
  logs: string[];
  alerts: string[];
  /** the events the notify command was given */
  told: string[];
  spawnError: string | null;
  /** what a full disk says to each kind of write (null: it works) */
  disk: { document: string | null; manifest: string | null; record: string | null };
  /** a person's edit over the document's ceiling: its size, which the read refuses (null: none) */
  oversized: number | null;
  /** what the run said to its faces */
  said: string[];
  loop: RunLoop;
  hook(event: string, payload: Json): Promise<string>;
  command(c: FaceCommand): void;
  type(data: string): void;
  /** the newest child */
  child(): FakeChild;
}

export function settings(over: Partial<RunSettings> = {}): RunSettings {
  // the real builder from the table's defaults: a 200k window, 300s to write
  const options = resolveRunOptions({ window: 200_000, 'write-timeout': 300 }, {});
  const facts = {
    step: 'work',
    cwd: '/p',
    workbench: '/p/.flower',
    documentPath: '/p/.flower/notes/doc.md',
    eventsPath: null,
    prompt: 'build the thing',
    env: {},
    stopBlockCap: STOP_BLOCK_CAP_DEFAULT,
    dialect: RUN_DIALECT,
  };
  // the check at the freeze off: its own tests (coverage-check.test.ts) turn it on
  return { ...settingsFromOptions(options, facts), coverageCheck: 0, ...over };
}

// earlyMs: timers fire early (fakeClock); slowExit: a claude told to end is gone only when a test says;
// successorSpawn: a successor's spawn is under way until it resolves (a slow start on a loaded machine)
export function startWorld(
  over: Partial<RunSettings> = {},
  world: {
    earlyMs?: number;
    slowExit?: boolean;
    successorSpawn?: Promise<void>;
    resume?: { manifest: Manifest; document: string | null };
    coverage?: Ports['coverage'];
  } = {},
): World {
  const clock = fakeClock(undefined, world.earlyMs ?? 0);
  const transcripts = new Map<
    string,
    {
      reader: TranscriptReader;
      visible: string;
      hidden: string;
      on: Parameters<TranscriptPort['follow']>[1] | null;
      read: number;
      found: boolean;
    }
  >();
  const w = {
    clock,
    children: [] as FakeChild[],
    documents: new Map<string, string>(),
    archived: [] as string[],
    manifests: [] as Manifest[],
    events: [] as World['events'],
    views: [] as StatusView[],
    shown: [] as World['shown'],
    requests: [] as string[],
    logs: [] as string[],
    alerts: [] as string[],
    told: [] as string[],
    spawnError: null as string | null,
    disk: { document: null, manifest: null, record: null } as World['disk'],
    oversized: null as number | null,
    said: [] as string[],
  } as unknown as World;
  const pathOf = (sessionId: string) => `/config/projects/-p/${sessionId}.jsonl`;
  const entry = (path: string) => {
    let e = transcripts.get(path);
    if (!e) {
      // The dialect reads the session's own state and its tool runs off the same lines, as in real-ports.ts.
      const reader = createSessionReader({
        scope: (changes) => created.on?.scope?.(changes),
        toolRun: (run) => created.on?.toolRun?.(run),
      });
      const created = {
        reader,
        visible: '',
        hidden: '',
        on: null as Parameters<TranscriptPort['follow']>[1] | null,
        read: 0,
        found: false,
      };
      transcripts.set(path, (e = created));
    }
    return e;
  };
  const deliver = (path: string) => {
    const e = entry(path);
    // Claude's transcript exists from its first row on, as a real one does.
    if (e.visible !== '' && !e.found) {
      e.found = true;
      e.on?.presence?.(true);
    }
    if (!e.on) return;
    const fresh = e.visible.slice(e.read);
    e.read = e.visible.length;
    for (const signal of e.reader.push(fresh)) {
      const m = e.reader.meter;
      e.on.signal(signal, { context: m.context, costUsd: m.costUsd, numTurns: m.numTurns });
    }
  };
  w.append = (sessionId, rows, opts = {}) => {
    const path = opts.path ?? pathOf(sessionId);
    const e = entry(path);
    const text = rows.map((r) => JSON.stringify({ sessionId, ...r }) + '\n').join('');
    if (opts.visible === false) e.hidden += text;
    else {
      e.visible += e.hidden + text;
      e.hidden = '';
      if (opts.polled !== false) deliver(path);
    }
  };
  w.reveal = (sessionId) => w.append(sessionId, []);
  const child: ChildPort = {
    async spawn(spec, on) {
      if (spec.successor && world.successorSpawn) await world.successorSpawn;
      if (w.spawnError) throw new Error(w.spawnError);
      if (spec.successor && w.disk.record)
        on.recordFailed(`/p/.flower/notes/successor-prompt-${spec.generation}.md`, w.disk.record);
      const c: FakeChild = {
        generation: spec.generation,
        sessionId: spec.sessionId,
        prompt: spec.prompt,
        viaHook: spec.viaHook,
        place: spec.place,
        written: [],
        exited: false,
        terminated: 0,
        exit: (e) => {
          if (c.exited) return;
          c.exited = true;
          on.exit(e);
        },
        print: (data) => on.data(data),
      };
      w.children.push(c);
      return {
        get exited() {
          return c.exited;
        },
        write: (data) => void c.written.push(data),
        resize() {},
        terminate: async () => {
          c.terminated++;
          if (!world.slowExit) c.exit({ code: 0, signal: 15 });
        },
      };
    },
    transcriptPath: pathOf,
    async writeRequest(generation, text) {
      w.requests.push(text);
      return `/p/.flower/notes/handoff-request-${generation}.md`;
    },
  };
  const transcript: TranscriptPort = {
    follow(path, on) {
      const e = entry(path);
      e.on = on;
      e.found = e.visible !== '';
      on.presence?.(e.found);
      return { catchUp: () => deliver(path), dispose: () => void (e.on = null) };
    },
  };
  const s = settings(over);
  const documents: DocumentPort = {
    currentPath: s.documentPath,
    async freeze(text) {
      if (w.disk.document) throw new Error(w.disk.document);
      const path = s.documentPath!;
      const old = w.documents.get(path);
      if (old !== undefined) w.archived.push(old);
      w.documents.set(path, text);
      return { path, archived: old !== undefined ? '/p/.flower/notes/archive/old.md' : null };
    },
    read: async () => {
      if (w.oversized !== null) throw new DocumentTooLarge(s.documentPath!, w.oversized);
      return w.documents.get(s.documentPath!) ?? null;
    },
    saveDraft: async () => '/p/.flower/notes/archive/draft.md',
    watch: () => ({ dispose() {} }),
  };
  const ports: Ports = {
    child,
    transcript,
    documents,
    clock,
    lineage: {
      path: '/p/.flower/manifest.json',
      // A refused write never lands: the manifests list is what is on disk.
      write: async (m) => (w.disk.manifest ? w.disk.manifest : (w.manifests.push(m), null)),
      flush: async () => w.disk.manifest,
    },
    events: {
      emit: (name, fields) => {
        if (!readRunEvent({ ts: new Date(0).toISOString(), event: name, ...fields }))
          throw new Error(`the "${name}" event does not fit its schema: ${JSON.stringify(fields)}`);
        w.events.push({ name, fields });
      },
    },
    log: (line) => void w.logs.push(line),
    alert: (title, body) => void w.alerts.push(`${title}: ${body}`),
    tell: (event) => void w.told.push(event.name),
    gitFacts: async () => ({ head: 'abc1234', changedFiles: 2 }),
    ...(world.coverage ? { coverage: world.coverage } : {}),
  };
  let input: (d: string) => void = () => {};
  let commands: (c: FaceCommand) => void = () => {};
  const face: Face = {
    size: () => ({ cols: 100, rows: 30 }),
    onInput: (l) => void (input = l),
    onResize() {},
    onCommand: (l) => void (commands = l),
    childOutput() {},
    show(show) {
      if (show.t === 'status') w.views.push(show.view);
      else if (show.t === 'message') w.said.push(show.text);
      else if (show.t === 'document') w.shown.push({ path: show.path, text: show.text });
    },
    restore() {},
  };
  w.loop = startRunLoop({
    initial: createRun(s, new Date(clock.now()).toISOString(), world.resume ?? null),
    ports,
    face,
  });
  w.hook = (event, payload) => w.loop.hook(event, payload);
  w.command = (c) => commands(c);
  w.type = (d) => input(d);
  w.child = () => w.children.at(-1)!;
  return w;
}

// Transcript rows of the shapes Claude Code 2.1.332 writes (enough for the reader).
let ids = 0;
export function response(context: number, text: string): Json {
  ids += 1;
  return {
    type: 'assistant',
    isSidechain: false,
    message: {
      id: `msg_${ids}`,
      model: 'claude-sonnet-4-5',
      stop_reason: 'end_turn',
      content: [{ type: 'text', text }],
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: context - 10,
        output_tokens: 20,
      },
    },
  };
}
// A response that calls a tool, as 2.1.332 writes it: the call's id and the response's usage.
export function toolCall(context: number, id: string): Json {
  const row = response(context, '');
  const message = row.message as Json;
  return {
    ...row,
    message: {
      ...message,
      id: `msg_${id}`,
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls /nope' } }],
    },
  };
}

/** the person's "no" to a permission prompt: the turn ends with no hook */
export const interruptedForTool = (): Json => ({
  type: 'user',
  message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] },
});

// A turn whose call crossed the line and waits for a person's permission.
export async function askedPastTheLine(w: World, command: string): Promise<string> {
  const sid = await started(w);
  await w.hook('UserPromptSubmit', { session_id: sid, prompt: 'go' });
  w.append(sid, [prompt('go'), toolCall(152_000, 'toolu_1')]);
  await w.hook('PermissionRequest', { session_id: sid, tool_name: 'Bash', tool_input: { command } });
  return sid;
}

export const prompt = (text: string): Json => ({ type: 'user', message: { role: 'user', content: text } });
/** a hook's stdout as the block it says, or null for an empty answer */
export const block = (out: string) => (out === '' ? null : (JSON.parse(out) as { decision: string; reason: string }));

/** the world's claude announced its session (SessionStart): its id */
export async function started(w: World): Promise<string> {
  await settle();
  const sid = w.child().sessionId;
  await w.hook('SessionStart', { session_id: sid, source: 'startup' });
  return sid;
}

export const turnEnd = (): Json => ({ type: 'system', subtype: 'turn_duration', durationMs: 1000 });

export const COMPLETE_DOC =
  '# Handoff\n\n## Doing\nbuilding the thing\n\n## Decided\nuse tap\n\n## Dead ends\nnone\n\n## Next\n1. finish it\n\n## Scene\nsrc/\n';

// Generation 1 crosses the line at a turn end and answers the request with COMPLETE_DOC (the review window
// is still open when this returns).
export async function crossAndWrite(w: World): Promise<string> {
  await settle();
  const sid = w.child().sessionId;
  await w.hook('SessionStart', { session_id: sid, source: 'startup' });
  w.append(sid, [prompt('build the thing'), response(155_000, 'crossed')]);
  await w.hook('Stop', { session_id: sid, last_assistant_message: 'crossed' });
  w.append(sid, [response(160_000, COMPLETE_DOC)]);
  await w.hook('Stop', { session_id: sid, last_assistant_message: COMPLETE_DOC });
  await settle();
  return sid;
}
