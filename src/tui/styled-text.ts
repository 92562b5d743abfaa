// Styled lines and segments from the pure core, as blessed tag strings. With NO_COLOR our own
// chrome keeps bold and inverse but drops every colour (https://no-color.org).

import { escapeTags } from './blessed-parts.js';
import { terminalText } from '../core/terminal-text.js';
import type { LineStyle, StyledLine } from '../core/screen/document-view.js';
import type { Segment, SegmentStyle } from '../core/screen/status.js';

type Style = LineStyle | SegmentStyle;

const COLOURED: Record<Style, string> = {
  flag: '{red-fg}{bold}',
  section: '{cyan-fg}{bold}',
  heading: '{bold}',
  code: '{yellow-fg}',
  empty: '{gray-fg}',
  degraded: '{yellow-fg}{bold}',
  body: '',
  hint: '{gray-fg}',
  plain: '',
  ok: '{green-fg}',
  near: '{yellow-fg}{bold}',
  over: '{red-fg}{bold}',
  phase: '{bold}',
  countdown: '{magenta-fg}{bold}',
  dim: '',
};

const PLAIN: Record<Style, string> = {
  flag: '{bold}{underline}',
  section: '{bold}',
  heading: '{bold}',
  code: '',
  empty: '',
  degraded: '{bold}',
  body: '',
  hint: '',
  plain: '',
  ok: '',
  near: '{bold}',
  over: '{bold}{underline}',
  phase: '{bold}',
  countdown: '{bold}',
  dim: '',
};

// Every text of the document pane and the status bar (a document, its path, a note) passes the one terminal
// boundary here, on its way to blessed, which drops C0 but passes C1 and bidi controls to the terminal.
export function tagged(text: string, style: Style, noColor: boolean): string {
  const open = (noColor ? PLAIN : COLOURED)[style];
  const body = escapeTags(terminalText(text, { lines: true }));
  return open ? `${open}${body}{/}` : body;
}

export function taggedLines(lines: readonly StyledLine[], noColor: boolean): string {
  return lines.map((l) => tagged(l.text, l.style, noColor)).join('\n');
}

export function taggedSegments(segments: readonly Segment[], noColor: boolean): string {
  return segments.map((s) => tagged(s.text, s.style, noColor)).join('');
}
