// What one person's terminal can show and do, learned once when it attaches: first from what its
// environment says (TERM, COLORTERM, TERM_PROGRAM, $TMUX), then from what the terminal answers itself
// (its name and version (XTVERSION), its secondary device attributes (DA2), its DECRQM answer for
// synchronized output, its kitty keyboard answer; DA1, which every terminal answers, asked last so that
// the answers before it are in). The environment can be wrong (carried over ssh, or set by another
// terminal): the terminal's own word comes after it and wins. Each attached terminal gets what
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

/** the terminal's name and version from its XTVERSION answer (`DCS > | text ST`), or null */
export function terminalVersion(answer: string): string | null {
  const m = /\u001bP>\|([^\u001b\u0007]*)(?:\u001b\\|\u0007)/.exec(answer);
  return m ? m[1]! : null;
}

/** the numbers of a device attributes answer: DA1 (`CSI ? … c`) or DA2 (`CSI > … c`), or null */
export function deviceAttributes(answer: string, which: 'primary' | 'secondary'): number[] | null {
  const m = (which === 'primary' ? /\u001b\[\?([\d;]*)c/ : /\u001b\[>([\d;]*)c/).exec(answer);
  return m
    ? m[1]!
        .split(';')
        .filter((p) => p !== '')
        .map(Number)
    : null;
}

// DA2's first number names a few terminals: VTE (GNOME Terminal, Tilix, …) is 65, with its version as the
// second (24-bit colour and OSC 8 from 0.52: 5200); mintty is 77 (24-bit colour); tmux is 84.
const VTE = 65;
const MINTTY = 77;
const TMUX = 84;

/** what the terminal's own answers add (its name, its DA2, a DECRQM report of mode 2026, a kitty keyboard
 * flags report); a DA1 answer adds nothing but says the answers before it are in */
export function capsFromAnswer(caps: TerminalCaps, answer: string): TerminalCaps {
  let next = caps;
  const name = terminalVersion(answer);
  if (name !== null) {
    if (MODERN.test(name))
      next = {
        ...next,
        truecolor: true,
        styledUnderline: true,
        hyperlinks: true,
        sync: true,
        kittyKeys: !/alacritty/i.test(name),
      };
    if (/^tmux\b/i.test(name)) next = { ...next, tmux: true };
  }
  const secondary = deviceAttributes(answer, 'secondary');
  if (secondary) {
    const [kind, version = 0] = secondary;
    if (kind === VTE && version >= 5200) next = { ...next, truecolor: true, hyperlinks: true };
    if (kind === MINTTY) next = { ...next, truecolor: true };
    if (kind === TMUX) next = { ...next, tmux: true };
  }
  const mode = /\u001b\[\?2026;([0-4])\$y/.exec(answer);
  if (mode) next = { ...next, sync: mode[1] === '1' || mode[1] === '2' };
  if (/\u001b\[\?\d+u/.test(answer)) next = { ...next, kittyKeys: true };
  return next;
}

/** the queries whose answers capsFromAnswer reads: DECRQM 2026, the kitty keyboard flags, XTVERSION, DA2,
 * then DA1 (answered by every terminal, in order: the answers before it are in when it comes) */
export const CAPS_QUERY = '\u001b[?2026$p\u001b[?u\u001b[>0q\u001b[>c\u001b[c';

// The answers to CAPS_QUERY as they come back among the person's keys (no key sends any of these forms).
const ANSWER =
  /\u001b\[\?2026;[0-4]\$y|\u001b\[\?\d+u|\u001bP>\|[^\u001b\u0007]*(?:\u001b\\|\u0007)|\u001b\[[?>][\d;]*c/g;

// The start of an answer a read cut off, at the end of what came: held for the next read, never typed.
// These starts no key sends (a CSI with ? or >, XTVERSION's DCS >); a bare ESC, ESC [ or ESC P is a key
// (Esc, Alt+[, Alt+Shift+P) too, and is held only while the answers are still due (`expecting`).
const ANSWER_START = /(?:\u001b\[[?>][\d;]*\$?|\u001bP>(?:\|[^\u001b\u0007]*\u001b?)?)$/;
const AMBIGUOUS_START = /\u001b[[P]?$/;

/** how long a held start waits for the rest of its answer before it is taken as keys after all: a
 *  terminal writes an answer at once, so a longer gap means a person's keys (an Esc that ended a read) */
export const ANSWER_HOLD_MS = 100;

/** how long after CAPS_QUERY its answers are still due: a terminal that never answers DA1 (a few do not)
 *  must not have every Esc held from then on */
export const ANSWERS_DUE_MS = 2_000;

/** the answers to CAPS_QUERY found in what the terminal sent, the rest (the person's keys) and the start
 *  of an answer the read cut off (`held`: put it before the next read's bytes; `expecting`: the answers
 *  are still due, DA1's not seen yet) */
export function takeCapsAnswers(input: string, expecting = false): { answers: string; rest: string; held: string } {
  let answers = '';
  let rest = input;
  if (input.includes('\u001b[?') || input.includes('\u001b[>') || input.includes('\u001bP>')) {
    rest = input.replace(ANSWER, (answer) => {
      answers += answer;
      return '';
    });
  }
  const start = ANSWER_START.exec(rest) ?? (expecting ? AMBIGUOUS_START.exec(rest) : null);
  if (start === null) return { answers, rest, held: '' };
  return { answers, rest: rest.slice(0, start.index), held: start[0] };
}

/** DA1's answer is among `answers`: every answer to CAPS_QUERY is in */
export function answersDone(answers: string): boolean {
  return deviceAttributes(answers, 'primary') !== null;
}

/** a side channel (OSC 52, a notification) as it must reach the person's terminal through tmux */
export function throughTmux(sequence: string, caps: TerminalCaps): string {
  if (!caps.tmux) return sequence;
  return `\u001bPtmux;${sequence.replace(/\u001b/g, '\u001b\u001b')}\u001b\\`;
}
