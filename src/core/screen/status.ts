// A run's status, as every face shows it: the view the core builds (run-view.ts) and the faces draw (the
// meter, the phase, the generation, the review countdown, what a person may need to know at once); its words
// in the seed's spirit ("context 130.0K/200K · about 20K to the handoff"), used by the terminal title, the web
// page and claude's own status line; and the split view's two status lines as styled segments (the phase, the
// countdown or what needs a person, the meter in words plus a small bar with the near and handoff marks, the
// generation; below, the last note, the workbench and the key hint), fitted to the terminal's width, most
// important first. The split view paints the segments (tui/status-bar.ts).

import { formatTokens } from '../meter/token-format.js';
import { terminalText } from '../terminal-text.js';

export interface StatusView {
  phase: 'starting' | 'working' | 'near' | 'writing' | 'review' | 'respawning' | 'stopped';
  context: number;
  window: number;
  at: number;
  warnAt: number;
  generation: number;
  maxGenerations: number;
  handoff: boolean;
  /** seconds left in the review window, when in review */
  reviewLeft: number | null;
  held: boolean;
  workbench: string | null;
  documentPath: string | null;
  /** the last thing that happened, in words */
  note: string;
  /** the run needs a person or is parked: "parked until 03:04", "waiting for your permission: Bash touch x" */
  attention: string | null;
  /** the session's failures its frozen document leaves out (in review), or its successor's repeats of dead
   *  ends: "2 failures not in the document", "1 dead end repeated"; null (or absent): nothing */
  deadEnds?: string | null;
  /** the frozen document's coverage of what its transcript shows (in review): "covers files 3/4 · tasks 1/1" */
  coverage?: string | null;
}

export interface StatusInput {
  phase: string;
  context: number;
  window: number;
  at: number;
  generation: number;
  maxGenerations: number;
  handoff: boolean;
  reviewLeft: number | null;
  held: boolean;
  /** "parked until 03:04", "waiting for your permission: Bash touch x" (absent: nothing) */
  attention?: string | null;
  /** "2 failures not in the document", "1 dead end repeated" (absent: nothing) */
  deadEnds?: string | null;
  /** "covers files 3/4 · tasks 1/1" (absent: nothing) */
  coverage?: string | null;
}

export function meterText(s: Pick<StatusInput, 'context' | 'window' | 'at' | 'handoff' | 'phase'>): string {
  const base = `context ${formatTokens(s.context)}/${formatTokens(s.window)}`;
  if (!s.handoff) return `${base} · handoff off`;
  if (s.phase === 'writing') return `${base} — writing the handoff`;
  if (s.context >= s.at) return `${base} · handoff due`;
  return `${base} · about ${formatTokens(s.at - s.context)} to the handoff`;
}

export function statusLine(s: StatusInput): string {
  const parts = [meterText(s), `gen ${s.generation}/${s.maxGenerations}`, s.phase];
  if (s.phase === 'review') parts.push(s.held ? 'held' : `successor in ${s.reviewLeft ?? 0}s`);
  if (s.deadEnds) parts.push(s.deadEnds);
  if (s.coverage) parts.push(s.coverage);
  if (s.attention) parts.push(s.attention);
  return `flower ${parts.join(' · ')}`;
}

export type SegmentStyle = 'plain' | 'ok' | 'near' | 'over' | 'phase' | 'countdown' | 'dim' | 'hint';

export interface Segment {
  text: string;
  style: SegmentStyle;
}

export interface StatusBarInput extends StatusInput {
  warnAt: number;
  workbench: string | null;
  note: string;
}

export const BAR_CELLS = 20;
export const WARN_MARK = '╎';
export const HANDOFF_MARK = '┃';

export function meterLevel(
  s: Pick<StatusBarInput, 'context' | 'window' | 'warnAt' | 'at' | 'handoff'>,
): 'ok' | 'near' | 'over' {
  const at = s.handoff ? s.at : s.window;
  if (s.context >= at) return 'over';
  return s.context >= s.warnAt ? 'near' : 'ok';
}

// "█████···╎··┃···": filled to the context, the near line and the handoff line marked.
export function meterBar(
  s: Pick<StatusBarInput, 'context' | 'window' | 'warnAt' | 'at' | 'handoff'>,
  cells = BAR_CELLS,
): string {
  const window = s.window > 0 ? s.window : 1;
  const cell = (n: number) => Math.min(cells - 1, Math.max(0, Math.floor((n / window) * cells)));
  const fill = Math.min(cells, Math.max(0, Math.round((s.context / window) * cells)));
  const warn = s.handoff ? cell(s.warnAt) : -1;
  const at = s.handoff ? cell(s.at) : -1;
  let bar = '';
  for (let i = 0; i < cells; i++) bar += i === at ? HANDOFF_MARK : i === warn ? WARN_MARK : i < fill ? '█' : '·';
  return bar;
}

/** the parts of the meter, richest first: the first that fits beside the state and the countdown is drawn */
function meterVariants(s: StatusBarInput, width: number, level: SegmentStyle): Segment[][] {
  const full = meterText(s);
  const short = `context ${formatTokens(s.context)}/${formatTokens(s.window)}`;
  const gen: Segment = { text: ` · gen ${s.generation}/${s.maxGenerations}`, style: 'plain' };
  const bar = (cells: number): Segment[] => [
    { text: ' ', style: 'plain' },
    { text: meterBar(s, cells), style: level },
  ];
  const words = (text: string): Segment[] => [
    { text: ' · ', style: 'plain' },
    { text, style: level },
  ];
  return [
    ...(width >= 100 ? [[...words(full), ...bar(BAR_CELLS), gen]] : []),
    [...words(full), ...bar(10), gen],
    [...words(short), ...bar(10), gen],
    [...words(short), gen],
    words(short),
    [],
  ];
}

const widthOf = (segments: readonly Segment[]): number => segments.reduce((n, seg) => n + seg.text.length, 0);

/** `text` in at most `room` columns, its end cut with an ellipsis */
function cutEnd(text: string, room: number): string {
  if (text.length <= room) return text;
  return room > 1 ? `${text.slice(0, room - 1)}…` : '';
}

/** a path in at most `room` columns, its start cut (the end names the place); nothing when too little room is left */
function cutPath(path: string, room: number): string {
  if (path.length <= room) return path;
  return room >= 12 ? `…${path.slice(path.length - room + 1)}` : '';
}

// What matters most comes first and is cut last, at every width from 60 columns up: the state, the
// countdown (or what needs a person), then the meter (its words shortened, then its bar, before it goes),
// the generation; on the second line the note (the narration, a message) before the workbench path, which
// is cut first.
/** what the first line says of the other runs that wait for the person: "2 other runs wait for you: C-] s" */
export function elsewhereText(count: number, key: string): string {
  return `${count} other ${count === 1 ? 'run waits' : 'runs wait'} for you: ${key}`;
}

export function statusBarLines(
  s: StatusBarInput,
  opts: { width: number; hint: string; message?: string | null; elsewhere?: { count: number; key: string } | null },
): Segment[][] {
  const level = meterLevel(s);
  const head: Segment[] = [
    { text: ' ', style: 'plain' },
    { text: s.phase, style: 'phase' },
  ];
  if (s.phase === 'review')
    head.push(
      { text: ' · ', style: 'plain' },
      { text: s.held ? 'held' : `successor in ${s.reviewLeft ?? 0}s`, style: 'countdown' },
    );
  else if (s.held) head.push({ text: ' · held', style: 'countdown' });
  // Beside the countdown: what the document leaves out of the session's failures, or the successor's repeats.
  if (s.deadEnds) head.push({ text: ' · ', style: 'plain' }, { text: terminalText(s.deadEnds), style: 'countdown' });
  if (s.coverage) head.push({ text: ' · ', style: 'plain' }, { text: terminalText(s.coverage), style: 'countdown' });
  // What needs a person goes on the first line, where the eye already is.
  if (s.attention) head.push({ text: ' · ', style: 'plain' }, { text: terminalText(s.attention), style: 'countdown' });
  // Another run waits for the person (a permission, a question, a review): said here, with the key to it.
  if (opts.elsewhere && opts.elsewhere.count > 0)
    head.push(
      { text: ' · ', style: 'plain' },
      { text: elsewhereText(opts.elsewhere.count, opts.elsewhere.key), style: 'countdown' },
    );
  const last = head.at(-1)!;
  const over = widthOf(head) - opts.width;
  if (over > 0) last.text = cutEnd(last.text, Math.max(0, last.text.length - over));
  const meter = meterVariants(s, opts.width, level).find((m) => widthOf(head) + widthOf(m) <= opts.width) ?? [];
  const first = [...head, ...meter];

  const hint = opts.width >= 40 ? ` ${opts.hint} ` : '';
  // a note, a message and the path carry foreign text: shown inert, and measured as shown
  const note = terminalText(opts.message || s.note);
  const room = Math.max(0, opts.width - hint.length);
  const path = s.workbench === null ? 'no workbench' : terminalText(s.workbench);
  const lead = note ? ` ${note}` : '';
  const place = cutPath(path, room - lead.length - (lead ? 3 : 1));
  let left = place === '' ? lead : lead ? `${lead} · ${place}` : ` ${place}`;
  left = cutEnd(left, room);
  const second: Segment[] = [
    { text: left, style: 'dim' },
    { text: ' '.repeat(Math.max(0, room - left.length)), style: 'plain' },
    ...(hint ? [{ text: hint, style: 'hint' as const }] : []),
  ];
  return [first, second];
}
