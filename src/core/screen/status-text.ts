// Status wording in the seed's spirit ("context 130.0K/200K · about 20K to the handoff"), used by
// the terminal title, the split view's status bar and claude's own status line.

import { formatTokens } from '../meter/token-format.js';

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
  if (s.attention) parts.push(s.attention);
  return `flower ${parts.join(' · ')}`;
}
