// What the document pane shows: the handoff document as styled lines (sections highlighted, a missing
// required section flagged at the top), or before the first handoff, what is going to happen.

import { DEGRADED_MARKER, EMPTY_ALIASES, SECTIONS, stripControl } from '../document/handoff-doc.js';
import { parseDocument, sectionStart } from '../document/handoff-parse.js';
import { formatTokens } from '../meter/token-format.js';

export type LineStyle = 'flag' | 'section' | 'heading' | 'code' | 'empty' | 'degraded' | 'body' | 'hint';

export interface StyledLine {
  text: string;
  style: LineStyle;
}

export interface PreviewInput {
  context: number;
  window: number;
  at: number;
  warnAt: number;
  handoff: boolean;
  maxGenerations: number;
  documentPath: string | null;
}

const FENCE = /^ {0,3}(```|~~~)/;

// Tabs would let blessed and the terminal disagree about widths; four spaces is what editors show.
function clean(line: string): string {
  return stripControl(line.replace(/\t/g, '    '));
}

export function documentLines(text: string): StyledLine[] {
  const parsed = parseDocument(text);
  const lines: StyledLine[] = [];
  for (const key of parsed.missing) {
    const title = SECTIONS.find((s) => s.key === key)?.title ?? key;
    lines.push({ style: 'flag', text: `! missing required section: ${title} (the successor gets a note)` });
  }
  if (lines.length > 0) lines.push({ style: 'body', text: '' });
  let inCode = false;
  const all = stripControl(text).split('\n').map(clean);
  // A fence before the first section wraps the whole document (a model's habit): not a code block.
  const first = all.findIndex((line) => sectionStart(line) !== undefined);
  all.forEach((line, i) => {
    if (FENCE.test(line)) {
      if (i > first || first === -1) inCode = !inCode;
      lines.push({ style: 'code', text: line });
    } else if (inCode) lines.push({ style: 'code', text: line });
    else if (sectionStart(line) !== undefined) lines.push({ style: 'section', text: line });
    else if (/^ {0,3}#{1,6}(\s|$)/.test(line)) lines.push({ style: 'heading', text: line });
    else if (line.includes(DEGRADED_MARKER)) lines.push({ style: 'degraded', text: line });
    else if (EMPTY_ALIASES.includes(line.trim().replace(/^[-*+]\s+/, ''))) lines.push({ style: 'empty', text: line });
    else lines.push({ style: 'body', text: line });
  });
  while (lines.length > 0 && lines[lines.length - 1]?.text === '') lines.pop();
  return lines;
}

// Before any handoff the pane explains the plan in the run's own numbers.
export function previewLines(v: PreviewInput): StyledLine[] {
  const lines: StyledLine[] = [
    { style: 'heading', text: 'No handoff yet' },
    { style: 'body', text: '' },
    { style: 'body', text: `context ${formatTokens(v.context)} of ${formatTokens(v.window)}` },
  ];
  if (!v.handoff) {
    lines.push({
      style: 'hint',
      text: 'handoff is off (--no-handoff): claude runs unchanged and no document is written.',
    });
    return lines;
  }
  lines.push(
    { style: 'body', text: `near at ${formatTokens(v.warnAt)}: the meter turns yellow` },
    {
      style: 'body',
      text: `handoff at ${formatTokens(v.at)}: at its next message boundary the session writes its handoff document`,
    },
    { style: 'body', text: '' },
  );
  if (v.documentPath) {
    lines.push(
      { style: 'hint', text: 'It is frozen to' },
      { style: 'section', text: `  ${clean(v.documentPath)}` },
      { style: 'hint', text: 'where you can read and edit it before a fresh session starts from it.' },
    );
  } else {
    lines.push({ style: 'hint', text: "No workbench: the document goes straight into the next session's prompt." });
  }
  lines.push({ style: 'hint', text: `At most ${v.maxGenerations} sessions in a row.` });
  return lines;
}
