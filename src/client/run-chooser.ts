// The chooser on a terminal: every live run of this user, on this machine and on the hosts of the person's
// config, one key away (the rows, keys and words are core/chooser/'s). It follows the runs live (this
// machine asked every second; each host on its own clock, so a host that hangs holds back only its own
// line), and when a run is chosen it lets go of the terminal for good (its reader stopped, so not one key
// is read here while a run has the terminal), joins that run through `join`, and comes back to the list
// when the person detaches from it. What joining, ending and starting a run mean is the caller's.

import {
  CHOOSER_START,
  chooserKeys,
  chooserRows,
  chooserStep,
  runKey,
  settle,
  type ChooserAct,
  type ChooserRun,
  type ChooserState,
  type NewRunForm,
} from '../core/chooser/chooser-keys.js';
import { renderChooser, type ChooserLine, type HostStatus, type LineStyle } from '../core/chooser/chooser-view.js';
import { stopReading } from '../adapters/stop-reading.js';

/** a run as the chooser holds it: its row, and what joining it needs (its socket here) */
export type ChooserEntry = ChooserRun & { socket?: string };

export type HostAnswerLike = { runs: readonly Omit<ChooserEntry, 'host'>[] } | { problem: string };

export interface ChooserPorts {
  cwd: string;
  home: string | null;
  /** how the person types flower-pty here, for the commands the chooser names */
  command: string;
  /** the hosts of the person's config */
  hosts: readonly string[];
  listLocal(): Promise<ReadonlyArray<Omit<ChooserEntry, 'host'>>>;
  askHost(host: string): Promise<HostAnswerLike>;
  /** this terminal joins the run until the person leaves it; a line to say after, or null */
  join(run: ChooserEntry): Promise<string | null>;
  /** ends the run; the line to say */
  end(run: ChooserEntry): Promise<string>;
  /** starts a run detached: the run to join, or the line saying why not */
  start(form: NewRunForm): Promise<{ run: ChooserEntry } | { problem: string }>;
  /** the selected run's screen as plain lines, followed while it is selected (absent: no preview) */
  preview?: (run: ChooserEntry, changed: () => void) => { lines(): readonly string[]; close(): void } | null;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  now?: () => number;
  /** how often this machine's runs are asked (ms) */
  localEveryMs?: number;
  /** how long after a host's answer it is asked again (ms) */
  hostEveryMs?: number;
}

const SGR: Record<LineStyle, string> = {
  title: '\u001b[1m',
  row: '',
  selected: '\u001b[7m',
  needs: '\u001b[1;33m',
  dim: '\u001b[2m',
  warn: '\u001b[31m',
  prompt: '\u001b[1m',
  ok: '\u001b[32m',
  near: '\u001b[33m',
  over: '\u001b[31m',
};

const ENTER = '\u001b[?1049h\u001b[?25l';
const LEAVE = '\u001b[0m\u001b[?25h\u001b[?1049l';

function paintLines(lines: readonly ChooserLine[]): string {
  const body = lines.map(
    (line) =>
      line.map((seg) => (SGR[seg.style] ? `${SGR[seg.style]}${seg.text}\u001b[0m` : seg.text)).join('') + '\u001b[K',
  );
  return `\u001b[H${body.join('\r\n')}\u001b[J`;
}

/** what the chooser holds while it is open: one record, so its parts below are plain functions */
interface Chooser {
  p: ChooserPorts;
  now: () => number;
  local: Array<Omit<ChooserEntry, 'host'>>;
  hostRuns: Map<string, ChooserEntry[]>;
  hostStatus: Map<string, HostStatus>;
  state: ChooserState;
  message: string | null;
  /** a run has the terminal */
  away: boolean;
  /** an act is under way */
  busy: boolean;
  closed: boolean;
  allowRead: (() => void) | null;
  timers: Set<NodeJS.Timeout>;
  // The selected run's screen, when the terminal has room for it: one preview at a time.
  preview: { key: string; feed: { lines(): readonly string[]; close(): void } | null } | null;
}

function later(c: Chooser, fn: () => void, ms: number): void {
  const t = setTimeout(() => {
    c.timers.delete(t);
    fn();
  }, ms);
  c.timers.add(t);
}

function previewLines(c: Chooser, runs: readonly ChooserEntry[]): readonly string[] | null {
  const { p } = c;
  const rows = p.stdout.rows || 24;
  const chosen = runs.find((r) => runKey(r) === c.state.selected);
  const want = p.preview && chosen && c.state.mode === 'list' && rows >= runs.length + 12 ? runKey(chosen) : null;
  if (c.preview?.key !== want) {
    c.preview?.feed?.close();
    c.preview = want === null ? null : { key: want, feed: p.preview!(chosen!, () => paint(c)) };
  }
  return c.preview?.feed?.lines() ?? null;
}

function allRuns(c: Chooser): ChooserEntry[] {
  return [...c.local.map((r) => ({ ...r, host: null })), ...[...c.hostRuns.values()].flat()];
}

function paint(c: Chooser): void {
  if (c.away || c.closed) return;
  const { p } = c;
  const runs = allRuns(c);
  c.state = settle(c.state, chooserRows(runs, c.state.filter));
  const lines = renderChooser({
    runs,
    hosts: [...c.hostStatus.values()],
    state: c.state,
    now: c.now(),
    cols: p.stdout.columns || 80,
    rows: p.stdout.rows || 24,
    home: p.home,
    command: p.command,
    message: c.message,
    preview: previewLines(c, runs),
  });
  p.stdout.write(paintLines(lines));
}

async function pollLocal(c: Chooser): Promise<void> {
  if (c.closed) return;
  if (!c.away) {
    c.local = [...(await c.p.listLocal().catch(() => c.local))];
    paint(c);
  }
  later(c, () => void pollLocal(c), c.p.localEveryMs ?? 1000);
}

// Each host on its own clock: its last answer stays listed while it is asked again.
async function pollHost(c: Chooser, host: string): Promise<void> {
  if (c.closed) return;
  const asked = c.now();
  const status = c.hostStatus.get(host)!;
  if (status.problem !== null || !c.hostRuns.has(host)) status.askingSince ??= asked;
  const answer = await c.p
    .askHost(host)
    .catch((error: unknown) => ({ problem: `${host}: ${error instanceof Error ? error.message : String(error)}` }));
  if (c.closed) return;
  if ('problem' in answer) {
    c.hostRuns.delete(host);
    c.hostStatus.set(host, { host, problem: answer.problem, askingSince: null });
  } else {
    c.hostRuns.set(
      host,
      answer.runs.map((r) => ({ ...r, host })),
    );
    c.hostStatus.set(host, { host, problem: null, askingSince: null });
  }
  paint(c);
  later(c, () => void pollHost(c, host), c.p.hostEveryMs ?? 5000);
}

/** the chooser until the person closes it; the exit code */
export function runChooser(p: ChooserPorts): Promise<number> {
  const now = p.now ?? Date.now;
  const c: Chooser = {
    p,
    now,
    local: [],
    hostRuns: new Map(),
    hostStatus: new Map(p.hosts.map((h) => [h, { host: h, problem: null, askingSince: now() }])),
    state: CHOOSER_START,
    message: null,
    away: false,
    busy: false,
    closed: false,
    allowRead: null,
    timers: new Set(),
    preview: null,
  };

  return new Promise<number>((resolve) => {
    const onResize = () => paint(c);
    const tick = setInterval(() => paint(c), 1000);
    const take = () => {
      if (p.stdin.isTTY) p.stdin.setRawMode(true);
      p.stdout.write(ENTER);
      if (c.allowRead) c.allowRead();
      c.allowRead = null;
      p.stdin.on('data', onData);
      p.stdin.resume();
      paint(c);
    };
    const letGo = () => {
      c.preview?.feed?.close();
      c.preview = null;
      p.stdin.off('data', onData);
      c.allowRead = stopReading(p.stdin);
      p.stdout.write(LEAVE);
      if (p.stdin.isTTY) p.stdin.setRawMode(false);
    };
    const close = (code: number) => {
      if (c.closed) return;
      c.closed = true;
      clearInterval(tick);
      for (const t of c.timers) clearTimeout(t);
      p.stdout.off('resize', onResize);
      letGo();
      resolve(code);
    };

    async function act(a: ChooserAct): Promise<void> {
      if (a.t === 'close') return close(0);
      c.busy = true;
      try {
        if (a.t === 'end') {
          c.message = await p.end(a.run);
          c.local = [...(await p.listLocal().catch(() => c.local))];
        } else {
          let run: ChooserEntry | null = a.t === 'switch' ? a.run : null;
          if (a.t === 'new') {
            c.message = 'starting a new run…';
            paint(c);
            const started = await p.start(a.form);
            if ('problem' in started) c.message = started.problem;
            else run = started.run;
          }
          if (run) {
            c.away = true;
            letGo();
            c.message = await p
              .join(run)
              .catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
            c.away = false;
            c.local = [...(await p.listLocal().catch(() => c.local))];
            take();
          }
        }
      } finally {
        c.busy = false;
        paint(c);
      }
    }

    function onData(chunk: Buffer | string): void {
      if (c.busy || c.away) return;
      for (const key of chooserKeys(chunk.toString())) {
        const step = chooserStep(c.state, key, allRuns(c), p.cwd);
        c.state = step.state;
        if (step.act) {
          c.message = null;
          void act(step.act);
          return;
        }
      }
      paint(c);
    }

    p.stdout.on('resize', onResize);
    take();
    void pollLocal(c);
    for (const host of p.hosts) void pollHost(c, host);
  });
}
