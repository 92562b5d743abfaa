// The split view's two status lines as styled segments: the meter in words plus a small bar with
// the near and handoff marks, generation, phase, review countdown, workbench, last note, key hint.

import { meterText, type StatusInput } from './status-text.js';

export type SegmentStyle = 'plain' | 'ok' | 'near' | 'over' | 'phase' | 'countdown' | 'dim' | 'hint';

export interface Segment { text: string; style: SegmentStyle }

export interface StatusBarInput extends StatusInput {
  warnAt: number;
  workbench: string | null;
  note: string;
}

export const BAR_CELLS = 20;
export const WARN_MARK = '╎';
export const HANDOFF_MARK = '┃';

export function meterLevel(s: Pick<StatusBarInput, 'context' | 'window' | 'warnAt' | 'at' | 'handoff'>): 'ok' | 'near' | 'over' {
  const at = s.handoff ? s.at : s.window;
  if (s.context >= at) return 'over';
  return s.context >= s.warnAt ? 'near' : 'ok';
}

// "█████···╎··┃···": filled to the context, the near line and the handoff line marked.
export function meterBar(s: Pick<StatusBarInput, 'context' | 'window' | 'warnAt' | 'at' | 'handoff'>, cells = BAR_CELLS): string {
  const window = s.window > 0 ? s.window : 1;
  const cell = (n: number) => Math.min(cells - 1, Math.max(0, Math.floor((n / window) * cells)));
  const fill = Math.min(cells, Math.max(0, Math.round((s.context / window) * cells)));
  const warn = s.handoff ? cell(s.warnAt) : -1;
  const at = s.handoff ? cell(s.at) : -1;
  let bar = '';
  for (let i = 0; i < cells; i++) bar += i === at ? HANDOFF_MARK : i === warn ? WARN_MARK : i < fill ? '█' : '·';
  return bar;
}

export function statusBarLines(s: StatusBarInput, opts: { width: number; hint: string; message?: string | null }): Segment[][] {
  const level = meterLevel(s);
  const first: Segment[] = [
    { text: ' ', style: 'plain' },
    { text: meterText(s), style: level },
    { text: ' ', style: 'plain' },
    { text: meterBar(s, opts.width >= 100 ? BAR_CELLS : 10), style: level },
    { text: ` · gen ${s.generation}/${s.maxGenerations} · `, style: 'plain' },
    { text: s.phase, style: 'phase' },
  ];
  if (s.phase === 'review') first.push({ text: ' · ', style: 'plain' }, { text: s.held ? 'held' : `successor in ${s.reviewLeft ?? 0}s`, style: 'countdown' });
  else if (s.held) first.push({ text: ' · held', style: 'countdown' });
  // Beside the countdown: what the document leaves out of the session's failures, or the successor's repeats.
  if (s.deadEnds) first.push({ text: ' · ', style: 'plain' }, { text: s.deadEnds, style: 'countdown' });
  // What needs a person goes on the first line, where the eye already is.
  if (s.attention) first.push({ text: ' · ', style: 'plain' }, { text: s.attention, style: 'countdown' });

  const hint = ` ${opts.hint} `;
  const note = opts.message || s.note;
  let left = ` ${s.workbench ?? 'no workbench'}${note ? ` · ${note}` : ''}`;
  const room = Math.max(0, opts.width - hint.length);
  if (left.length > room) left = room > 1 ? `${left.slice(0, room - 1)}…` : '';
  const second: Segment[] = [
    { text: left, style: 'dim' },
    { text: ' '.repeat(Math.max(0, room - left.length)), style: 'plain' },
    { text: hint, style: 'hint' },
  ];
  return [first, second];
}
