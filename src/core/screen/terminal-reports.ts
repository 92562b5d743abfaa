// What a terminal sends by itself, not a person at it: its answers to a program's queries (device
// attributes, the cursor's position, a mode's state, the keyboard protocol's flags, a colour, a
// capability) and the focus reports it sends when its window gains or loses focus. Claude asks some of
// these whenever it likes, and a person who walks away switches windows: counting them as typing at an
// idle prompt would keep a handoff due from ever being typed there. Pure.

// One or more whole reports, nothing else: DA1 / DA2 answers, a cursor position (CPR), focus in and out,
// a DECRQM answer, the kitty keyboard protocol's flags, an OSC answer (ended by BEL or ST), a DCS answer.
// Shift+F3 in xterm (ESC [ 1 ; 2 R) reads as a CPR: it types nothing into a prompt either.
const REPORTS = new RegExp(
  '^(?:' +
    [
      '\\u001b\\[\\?[\\d;]*c',
      '\\u001b\\[>[\\d;]*c',
      '\\u001b\\[\\d+;\\d+R',
      '\\u001b\\[[IO]',
      '\\u001b\\[\\?[\\d;]*\\$y',
      '\\u001b\\[\\?\\d*u',
      '\\u001b\\][^\\u0007\\u001b]*(?:\\u0007|\\u001b\\\\)',
      '\\u001bP[^\\u001b]*\\u001b\\\\',
    ].join('|') +
    ')+$',
);

/** the terminal speaking for itself: no key of a person's in it */
export function onlyTerminalReports(data: string): boolean {
  return data.length > 0 && REPORTS.test(data);
}
