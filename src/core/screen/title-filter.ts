// Takes the terminal-title sequences (OSC 0/1/2) out of the child's output stream so flower-pty
// can show its own state in the title beside claude's. Carries a sequence split across chunks.

import { terminalText } from '../terminal-text.js';

export interface TitleFilter {
  /** returns the output without title sequences, and the child's newest title if one arrived */
  push(chunk: string): { output: string; title: string | null };
}

const ESC = '\u001b';
const MAX_HELD = 4096; // an unterminated "title" longer than this is not a title: let it through

export function createTitleFilter(): TitleFilter {
  let held = '';
  return {
    push(chunk) {
      let text = held + chunk;
      held = '';
      let output = '';
      let title: string | null = null;
      for (;;) {
        const start = text.indexOf(`${ESC}]`);
        if (start === -1) break;
        const kind = text[start + 2];
        if (kind === undefined || (text[start + 3] === undefined && (kind === '0' || kind === '1' || kind === '2'))) {
          // the sequence is cut right after its introducer: wait for more
          held = text.slice(start);
          text = text.slice(0, start);
          break;
        }
        if (!((kind === '0' || kind === '1' || kind === '2') && text[start + 3] === ';')) {
          output += text.slice(0, start + 2);
          text = text.slice(start + 2);
          continue;
        }
        const body = start + 4;
        const bel = text.indexOf('\u0007', body);
        const st = text.indexOf(`${ESC}\\`, body);
        const end = bel === -1 ? st : st === -1 ? bel : Math.min(bel, st);
        if (end === -1) {
          if (text.length - start > MAX_HELD) {
            output += text;
            text = '';
          } else {
            held = text.slice(start);
            text = text.slice(0, start);
          }
          break;
        }
        output += text.slice(0, start);
        if (kind !== '1') title = text.slice(body, end);
        text = text.slice(end + (end === bel ? 1 : 2));
      }
      // a lone ESC at the very end may start a title: hold it
      if (text.endsWith(ESC)) {
        held = ESC + held;
        text = text.slice(0, -1);
      }
      return { output: output + text, title };
    },
  };
}

// flower-pty's title: claude's own (its busy/idle glyph) and the run's state.
export function composeTitle(childTitle: string, state: string): string {
  const child = childTitle.trim();
  return child ? `${child} · ${state}` : state;
}

export function titleSequence(title: string): string {
  return `${ESC}]0;${terminalText(title)}\u0007`;
}
