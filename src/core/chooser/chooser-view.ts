// What the chooser draws, as lines: a title (how many runs, how many need the person), one row per run
// (its shortcut, host, id, folder, its state in the one picture's words, a small meter bar with the
// handoff line, its generation, how long in that state), a line per host that has not answered or cannot,
// the selected run's screen when the terminal is tall enough, and a last line for the keys, the filter,
// the y/n or the new run's questions. Every line fits the width; foreign text (a folder, a host's words,
// a run's screen) is shown inert. A terminal too small for it gets one line saying so. Pure.

import { meterBar, meterLevel } from '../screen/status.js';
import { codePointWidth, textWidth } from '../screen/char-width.js';
import { terminalText } from '../terminal-text.js';
import { durationText, runPicture } from '../picture/run-picture.js';
import { chooserRows, runKey, SHORTCUTS, type ChooserRun, type ChooserState } from './chooser-keys.js';

export interface HostStatus {
  host: string;
  /** why its runs are not listed (unreachable, garbage, none there is no problem); null: answered or still asked */
  problem: string | null;
  /** asked and not answered yet: since when (ms); null: it answered */
  askingSince: number | null;
}

export interface ChooserScreen {
  runs: readonly ChooserRun[];
  hosts: readonly HostStatus[];
  state: ChooserState;
  now: number;
  cols: number;
  rows: number;
  /** the person's home folder, shown as ~ */
  home: string | null;
  /** one line to say (a run that could not be switched to, a run ended) */
  message: string | null;
  /** how the person types flower-pty where they are (core/options/own-command.ts), for a command it names */
  command: string;
  /** the selected run's screen, as plain lines, when there is one to show */
  preview?: readonly string[] | null;
}

export type LineStyle = 'title' | 'row' | 'selected' | 'needs' | 'dim' | 'warn' | 'prompt' | 'ok' | 'near' | 'over';

/** a line as segments, each in its style */
export type ChooserLine = Array<{ text: string; style: LineStyle }>;

export const MIN_COLS = 40;
export const MIN_ROWS = 5;
/** the preview is drawn only with at least this many of its lines to spare */
export const PREVIEW_MIN_LINES = 8;
const BAR = 8;

/** `text` in exactly `width` columns: cut with an ellipsis, or padded */
export function fit(text: string, width: number, from: 'end' | 'start' = 'end'): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text + ' '.repeat(width - textWidth(text));
  const chars = [...text];
  if (from === 'start') chars.reverse();
  let out: string[] = [];
  let used = 1; // the ellipsis
  for (const ch of chars) {
    const w = codePointWidth(ch.codePointAt(0)!);
    if (used + w > width) break;
    out.push(ch);
    used += w;
  }
  if (from === 'start') out = ['…', ...out.reverse()];
  else out.push('…');
  const s = out.join('');
  return s + ' '.repeat(Math.max(0, width - textWidth(s)));
}

function folderText(cwd: string, home: string | null): string {
  const shown =
    home && home !== '/' && (cwd === home || cwd.startsWith(`${home}/`)) ? `~${cwd.slice(home.length)}` : cwd;
  return terminalText(shown);
}

interface Columns {
  host: number;
  id: number;
  folder: number;
  state: number;
  bar: boolean;
  gen: number;
}

// The widths, most important kept longest: the state and the id; the bar goes first, then the folder
// narrows, then the host column goes (its runs say where they are in the title line's count).
function columns(rows: readonly ChooserRun[], s: ChooserScreen): Columns {
  const remote = rows.some((r) => r.host !== null) || s.hosts.length > 0;
  const host = remote ? Math.min(12, Math.max(5, ...rows.map((r) => textWidth(terminalText(r.host ?? 'local'))))) : 0;
  const id = Math.min(12, Math.max(6, ...rows.map((r) => textWidth(terminalText(r.id)))));
  const gen = Math.max(2, ...rows.map((r) => `g${r.generation}`.length));
  const widest = Math.max(6, ...rows.map((r) => textWidth(folderText(r.cwd, s.home))));
  const c: Columns = { host, id, folder: Math.min(widest, 28), state: 0, bar: true, gen };
  const fixed = () => 4 + (c.host ? c.host + 1 : 0) + c.id + 1 + c.folder + 1 + (c.bar ? BAR + 1 : 0) + c.gen + 1 + 3;
  const want = 18;
  if (s.cols - fixed() < want) c.bar = false;
  if (s.cols - fixed() < want) c.folder = Math.max(8, c.folder - (want - (s.cols - fixed())));
  if (s.cols - fixed() < want) c.host = 0;
  c.state = Math.max(1, s.cols - fixed() - 1);
  return c;
}

function runLine(r: ChooserRun, index: number, c: Columns, s: ChooserScreen, selected: boolean): ChooserLine {
  const p = runPicture(r);
  const key = index < SHORTCUTS.length ? `(${SHORTCUTS[index]}) ` : '    ';
  const base: LineStyle = selected ? 'selected' : 'row';
  const text = [
    key,
    c.host ? `${fit(terminalText(r.host ?? 'local'), c.host)} ` : '',
    `${fit(terminalText(r.id), c.id)} `,
    `${fit(folderText(r.cwd, s.home), c.folder, 'start')} `,
  ].join('');
  const line: ChooserLine = [
    { text, style: base },
    { text: `${fit(terminalText(p.words), c.state)} `, style: selected ? 'selected' : p.needsPerson ? 'needs' : 'row' },
  ];
  if (c.bar)
    line.push(
      { text: meterBar(p.meter, BAR), style: selected ? 'selected' : meterLevel(p.meter) },
      { text: ' ', style: base },
    );
  line.push({
    text: `${fit(`g${p.generation}`, c.gen)} ${durationText(p.since, s.now).padStart(3)}`,
    style: selected ? 'selected' : 'dim',
  });
  return line;
}

function hostLine(h: HostStatus, now: number): ChooserLine | null {
  // the problem names its host already ("box: unreachable over ssh (…)"), as `ls --host` prints it
  if (h.problem !== null) return [{ text: `  ${terminalText(h.problem)}`, style: 'warn' }];
  if (h.askingSince !== null)
    return [
      { text: `  ${terminalText(h.host)}: asked ${durationText(h.askingSince, now)} ago, no answer yet`, style: 'dim' },
    ];
  return null;
}

function bottomLine(s: ChooserScreen, rows: readonly ChooserRun[]): ChooserLine {
  const st = s.state;
  if (st.mode === 'filter')
    return [
      { text: `/${terminalText(st.filter)}`, style: 'prompt' },
      { text: `  ${rows.length} match · Enter switches · Esc clears`, style: 'dim' },
    ];
  if (st.mode === 'confirm-end') {
    const r = s.runs.find((x) => runKey(x) === st.ending);
    return [
      {
        text: `end run ${terminalText(r?.id ?? '?')} in ${r ? folderText(r.cwd, s.home) : '?'}? (y/n)`,
        style: 'prompt',
      },
    ];
  }
  if (st.mode === 'new' && st.form) {
    const f = st.form;
    const asks = [
      `folder: ${terminalText(f.folder)}`,
      `new git worktree (empty: none): ${terminalText(f.worktree)}`,
      `prompt: ${terminalText(f.prompt)}`,
    ];
    return [
      { text: `new run · ${asks[f.field]}`, style: 'prompt' },
      { text: '  Enter next · Esc back', style: 'dim' },
    ];
  }
  if (s.message) return [{ text: terminalText(s.message), style: 'warn' }];
  return [{ text: '↑↓/jk move · Enter or (key) switch · / filter · x end · n new · q quit', style: 'dim' }];
}

/** the visible slice of `n` rows in `room` lines, keeping `at` in view */
function scroll(n: number, room: number, at: number): [number, number] {
  if (n <= room) return [0, n];
  const start = Math.min(Math.max(0, at - Math.floor(room / 2)), n - room);
  return [start, start + room];
}

/** every line to draw, top to bottom, each at most `cols` wide */
export function renderChooser(s: ChooserScreen): ChooserLine[] {
  if (s.cols < MIN_COLS || s.rows < MIN_ROWS) {
    return [
      [
        {
          text: fit(
            `too small for the chooser: ${MIN_COLS}×${MIN_ROWS} at least (or ${s.command} attach ID)`,
            s.cols,
          ).trimEnd(),
          style: 'warn',
        },
      ],
    ];
  }
  const rows = chooserRows(s.runs, s.state.filter);
  const needs = s.runs.filter((r) => runPicture(r).needsPerson).length;
  const title = `flower-pty · ${s.runs.length} ${s.runs.length === 1 ? 'run' : 'runs'}${needs > 0 ? ` · ${needs} ${needs === 1 ? 'needs' : 'need'} you` : ''}${s.state.filter ? ` · showing ${rows.length}` : ''}`;
  const out: ChooserLine[] = [[{ text: fit(title, s.cols).trimEnd(), style: 'title' }]];
  const hostLines = s.hosts.map((h) => hostLine(h, s.now)).filter((l): l is ChooserLine => l !== null);
  const room = Math.max(1, s.rows - 2 - hostLines.length);
  const c = columns(rows, s);
  const at = Math.max(
    0,
    rows.findIndex((r) => runKey(r) === s.state.selected),
  );
  const [from, to] = scroll(rows.length, room, at);
  if (rows.length === 0)
    out.push([
      {
        text: fit(s.runs.length === 0 ? 'no live runs (n starts one)' : 'no run matches', s.cols).trimEnd(),
        style: 'dim',
      },
    ]);
  for (let i = from; i < to; i++) out.push(runLine(rows[i]!, i, c, s, runKey(rows[i]!) === s.state.selected));
  for (const l of hostLines.slice(0, Math.max(0, s.rows - 1 - out.length))) out.push(l);
  const spare = s.rows - out.length - 1;
  const shown = rows[at];
  if (s.preview && shown && spare >= PREVIEW_MIN_LINES) {
    const head = `── ${terminalText(shown.id)} `;
    out.push([{ text: head + '─'.repeat(Math.max(0, s.cols - textWidth(head))), style: 'dim' }]);
    // its last lines: where claude's prompt and question are
    for (const l of s.preview.slice(Math.max(0, s.preview.length - (spare - 1))))
      out.push([{ text: fit(terminalText(l), s.cols).trimEnd(), style: 'row' }]);
  }
  out.push(bottomLine(s, rows));
  return out.map((line) => cutLine(line, s.cols));
}

/** a line's segments cut to `cols` columns in all */
function cutLine(line: ChooserLine, cols: number): ChooserLine {
  let left = cols;
  const out: ChooserLine = [];
  for (const seg of line) {
    if (left <= 0) break;
    const w = textWidth(seg.text);
    out.push(w <= left ? seg : { ...seg, text: fit(seg.text, left) });
    left -= Math.min(w, left);
  }
  return out;
}

/** a line's text alone (tests, and terminals the screen measures) */
export function lineText(line: ChooserLine): string {
  return line.map((s) => s.text).join('');
}
