// A blessed box that wraps its lines where their columns run out. blessed's own wrap (Element's
// _wrapContent) counts UTF-16 code units as columns: a combining mark (é written as e + U+0301, Zalgo
// text, most Indic and Hebrew vowels) costs it a column it never takes, so a line with marks was wrapped
// early, up to half its width short (blessed 0.1.81, lib/widgets/element.js, "Measure the real width of
// the string"; it also guesses at surrogate pairs). This one measures by the Unicode 11 widths every screen
// uses (core/screen/char-width.ts), in blessed's own content: SGR escapes take no column, a wide character
// takes two and the \x03 placeholder blessed puts after it none, a zero-width character stays with the one
// before it. It breaks after a space within the last ten characters, as blessed does.

import type { Widgets } from 'blessed';
import { codePointWidth } from '../core/screen/char-width.js';

const PLACEHOLDER = 0x03;
const ESCAPES_ONLY = /^(?:\x1b[[\d;]*m)+$/;

/** where `line` (blessed's parsed content) is cut to fit `width` columns: its length when it fits */
export function columnBreak(line: string, width: number): number {
  let total = 0;
  let i = 0;
  while (i < line.length) {
    if (line.charCodeAt(i) === 0x1b) {
      while (i < line.length && line[i++] !== 'm');
      continue;
    }
    const code = line.codePointAt(i)!;
    const w = code === PLACEHOLDER ? 0 : codePointWidth(code);
    if (total + w > width) break;
    total += w;
    i += code > 0xffff ? 2 : 1;
  }
  if (i >= line.length) return line.length;
  if (i === 0) return Math.min(line.length, line.codePointAt(0)! > 0xffff ? 2 : 1); // not even one fits: one, never none
  for (let j = i - 1; j > 0 && j >= i - 10; j--) if (line[j] === ' ') return j + 1;
  return i;
}

/** the columns `line` (blessed's parsed content) takes */
function widthOf(line: string): number {
  let total = 0;
  for (const ch of line.replace(/\x1b\[[\d;]*m/g, '')) {
    const code = ch.codePointAt(0)!;
    total += code === PLACEHOLDER ? 0 : codePointWidth(code);
  }
  return total;
}

interface WrappedLines extends Array<string> {
  rtof: number[];
  ftor: number[][];
  fake: string[];
  real: string[];
  mwidth: number;
}

interface Wrapping {
  _wrapContent(content: string, width: number): WrappedLines;
  scrollbar?: unknown;
}

/** `box` wraps by columns from now on (its content is measured again at the next parse) */
export function wrapByColumns(box: Widgets.BoxElement): void {
  const el = box as unknown as Wrapping;
  el._wrapContent = (content, boxWidth) => {
    // blessed's own: a scrollbar takes the last column
    const width = el.scrollbar && boxWidth > 1 ? boxWidth - 1 : boxWidth;
    const lines = content.split('\n');
    const out = [] as unknown as WrappedLines;
    out.rtof = [];
    out.ftor = [];
    lines.forEach((whole, no) => {
      out.ftor.push([]);
      let line = whole;
      for (;;) {
        const cut = columnBreak(line, width);
        let part = line.slice(0, cut);
        line = line.slice(cut);
        if (ESCAPES_ONLY.test(line)) {
          part += line;
          line = '';
        }
        out.push(part);
        out.ftor[no]!.push(out.length - 1);
        out.rtof.push(no);
        if (line === '') break;
      }
    });
    out.fake = lines;
    out.real = out;
    out.mwidth = out.reduce((widest, row) => Math.max(widest, widthOf(row)), 0);
    return out;
  };
}
