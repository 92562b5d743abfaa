// What one person's terminal can show and do, learned once when it attaches: first from what its
// environment says (TERM, COLORTERM, TERM_PROGRAM, $TMUX), then from what the terminal answers itself
// (its DECRQM answer for synchronized output, its kitty keyboard answer). Each attached terminal gets what
// it can show: 24-bit colour where it takes it, the nearest of 256 elsewhere; OSC 8, synchronized output
// and the kitty keyboard protocol only where they are known to work.

import type { StyleCaps } from './cell-style.js';

export interface TerminalCaps extends StyleCaps {
  /** CSI ? 2026 h … l: a frame drawn whole */
  sync: boolean;
  /** CSI > flags u is understood (keys then come back as CSI u) */
  kittyKeys: boolean;
  /** the person's terminal is tmux: side channels go wrapped as tmux passthrough (DCS tmux; … ST) */
  tmux: boolean;
}

export interface TerminalFacts {
  term?: string | undefined;
  colorterm?: string | undefined;
  termProgram?: string | undefined;
  /** $TMUX is set where the client runs */
  tmux?: boolean | undefined;
}

// Terminals known (by TERM or TERM_PROGRAM) to show 24-bit colour, styled underlines, OSC 8,
// synchronized output and the kitty keyboard protocol.
const MODERN = /kitty|ghostty|wezterm|foot|alacritty|contour|rio|iterm/i;

export function capsFromFacts(f: TerminalFacts): TerminalCaps {
  const term = f.term ?? '';
  const names = `${term} ${f.termProgram ?? ''}`;
  const modern = MODERN.test(names);
  const truecolorSaid = /^(truecolor|24bit)$/i.test(f.colorterm ?? '') || /-direct$/.test(term);
  // The Linux console, vt100s and `dumb` print an OSC they do not know; the rest ignore one.
  const primitive = term === '' || term === 'dumb' || term === 'linux' || /^vt\d/.test(term);
  return {
    truecolor: modern || truecolorSaid,
    styledUnderline: modern,
    hyperlinks: !primitive,
    sync: modern,
    kittyKeys: modern && !/alacritty/i.test(names),
    tmux: Boolean(f.tmux),
  };
}

/** what the terminal's own answers add (a DECRQM report of mode 2026; a kitty keyboard flags report) */
export function capsFromAnswer(caps: TerminalCaps, answer: string): TerminalCaps {
  let next = caps;
  const mode = /\u001b\[\?2026;([0-4])\$y/.exec(answer);
  if (mode) next = { ...next, sync: mode[1] === '1' || mode[1] === '2' };
  if (/\u001b\[\?\d+u/.test(answer)) next = { ...next, kittyKeys: true };
  return next;
}

/** the queries whose answers capsFromAnswer reads: DECRQM 2026, then the kitty keyboard flags */
export const CAPS_QUERY = '\u001b[?2026$p\u001b[?u';

// The answers to CAPS_QUERY as they come back among the person's keys (no key sends either form).
const ANSWER = /\u001b\[\?2026;[0-4]\$y|\u001b\[\?\d+u/g;

/** the answers to CAPS_QUERY found in what the terminal sent, and the rest (the person's keys) */
export function takeCapsAnswers(input: string): { answers: string; rest: string } {
  if (!input.includes('\u001b[?')) return { answers: '', rest: input };
  let answers = '';
  const rest = input.replace(ANSWER, (answer) => {
    answers += answer;
    return '';
  });
  return { answers, rest };
}

/** a side channel (OSC 52, a notification) as it must reach the person's terminal through tmux */
export function throughTmux(sequence: string, caps: TerminalCaps): string {
  if (!caps.tmux) return sequence;
  return `\u001bPtmux;${sequence.replace(/\u001b/g, '\u001b\u001b')}\u001b\\`;
}
