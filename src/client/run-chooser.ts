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

/** the chooser until the person closes it; the exit code */
export function runChooser(p: ChooserPorts): Promise<number> {
  const now = p.now ?? Date.now;
  let local: Array<Omit<ChooserEntry, 'host'>> = [];
  const hostRuns = new Map<string, ChooserEntry[]>();
  const hostStatus = new Map<string, HostStatus>(
    p.hosts.map((h) => [h, { host: h, problem: null, askingSince: now() }]),
  );
  let state: ChooserState = CHOOSER_START;
  let message: string | null = null;
  let away = false; // a run has the terminal
  let busy = false; // an act is under way
  let closed = false;
  let allowRead: (() => void) | null = null;
  const timers = new Set<NodeJS.Timeout>();
  const later = (fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  // The selected run's screen, when the terminal has room for it: one preview at a time.
  let preview: { key: string; feed: { lines(): readonly string[]; close(): void } | null } | null = null;
  const previewLines = (runs: readonly ChooserEntry[]): readonly string[] | null => {
    const rows = p.stdout.rows || 24;
    const chosen = runs.find((r) => runKey(r) === state.selected);
    const want = p.preview && chosen && state.mode === 'list' && rows >= runs.length + 12 ? runKey(chosen) : null;
    if (preview?.key !== want) {
      preview?.feed?.close();
      preview = want === null ? null : { key: want, feed: p.preview!(chosen!, () => paint()) };
    }
    return preview?.feed?.lines() ?? null;
  };
  const all = (): ChooserEntry[] => [...local.map((r) => ({ ...r, host: null })), ...[...hostRuns.values()].flat()];
  const paint = () => {
    if (away || closed) return;
    const runs = all();
    state = settle(state, chooserRows(runs, state.filter));
    const lines = renderChooser({
      runs,
      hosts: [...hostStatus.values()],
      state,
      now: now(),
      cols: p.stdout.columns || 80,
      rows: p.stdout.rows || 24,
      home: p.home,
      command: p.command,
      message,
      preview: previewLines(runs),
    });
    p.stdout.write(paintLines(lines));
  };

  const pollLocal = async () => {
    if (closed) return;
    if (!away) {
      local = [...(await p.listLocal().catch(() => local))];
      paint();
    }
    later(() => void pollLocal(), p.localEveryMs ?? 1000);
  };
  // Each host on its own clock: its last answer stays listed while it is asked again.
  const pollHost = async (host: string) => {
    if (closed) return;
    const asked = now();
    const status = hostStatus.get(host)!;
    if (status.problem !== null || !hostRuns.has(host)) status.askingSince ??= asked;
    const answer = await p
      .askHost(host)
      .catch((error: unknown) => ({ problem: `${host}: ${error instanceof Error ? error.message : String(error)}` }));
    if (closed) return;
    if ('problem' in answer) {
      hostRuns.delete(host);
      hostStatus.set(host, { host, problem: answer.problem, askingSince: null });
    } else {
      hostRuns.set(
        host,
        answer.runs.map((r) => ({ ...r, host })),
      );
      hostStatus.set(host, { host, problem: null, askingSince: null });
    }
    paint();
    later(() => void pollHost(host), p.hostEveryMs ?? 5000);
  };

  return new Promise<number>((resolve) => {
    const onResize = () => paint();
    const tick = setInterval(paint, 1000);
    const take = () => {
      if (p.stdin.isTTY) p.stdin.setRawMode(true);
      p.stdout.write(ENTER);
      if (allowRead) allowRead();
      allowRead = null;
      p.stdin.on('data', onData);
      p.stdin.resume();
      paint();
    };
    const letGo = () => {
      preview?.feed?.close();
      preview = null;
      p.stdin.off('data', onData);
      allowRead = stopReading(p.stdin);
      p.stdout.write(LEAVE);
      if (p.stdin.isTTY) p.stdin.setRawMode(false);
    };
    const close = (code: number) => {
      if (closed) return;
      closed = true;
      clearInterval(tick);
      for (const t of timers) clearTimeout(t);
      p.stdout.off('resize', onResize);
      letGo();
      resolve(code);
    };

    async function act(a: ChooserAct): Promise<void> {
      if (a.t === 'close') return close(0);
      busy = true;
      try {
        if (a.t === 'end') {
          message = await p.end(a.run);
          local = [...(await p.listLocal().catch(() => local))];
        } else {
          let run: ChooserEntry | null = a.t === 'switch' ? a.run : null;
          if (a.t === 'new') {
            message = 'starting a new run…';
            paint();
            const started = await p.start(a.form);
            if ('problem' in started) message = started.problem;
            else run = started.run;
          }
          if (run) {
            away = true;
            letGo();
            message = await p
              .join(run)
              .catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
            away = false;
            local = [...(await p.listLocal().catch(() => local))];
            take();
          }
        }
      } finally {
        busy = false;
        paint();
      }
    }

    function onData(chunk: Buffer | string): void {
      if (busy || away) return;
      for (const key of chooserKeys(chunk.toString())) {
        const step = chooserStep(state, key, all(), p.cwd);
        state = step.state;
        if (step.act) {
          message = null;
          void act(step.act);
          return;
        }
      }
      paint();
    }

    p.stdout.on('resize', onResize);
    take();
    void pollLocal();
    for (const host of p.hosts) void pollHost(host);
  });
}
