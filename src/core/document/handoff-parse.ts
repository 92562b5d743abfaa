// Handoff document parser: markdown as a model or a person really writes it -> HandoffDoc.
// Accepts headings, bold labels, list items and the seed's indented list, in English, Chinese and
// Spanish; never throws; says what is missing. Line-level decisions only, so render can escape them.

import type { HandoffDoc, SectionKey } from './handoff-doc.js';
import {
  DEGRADED_MARKER,
  SECTIONS,
  emptyDoc,
  isDegraded,
  missing,
  normalizeBody,
  stripControl,
} from './handoff-doc.js';

export interface ParseResult {
  doc: HandoffDoc;
  missing: SectionKey[];
  problems: string[];
  /** True when the document carries the degraded marker or lacks a required section. */
  degraded: boolean;
}

/** A line that opens a section. `inline` is text on the same line; `list` sections follow list rules. */
export interface SectionStart {
  key: SectionKey;
  inline: string;
  indent: number;
  list: boolean;
}

// Labels are short; longer candidates are never compared, which also keeps every check linear.
const MAX_LABEL_CHARS = 60;

// Built on the first parse, not when the module loads: every label's normalising (Unicode classes,
// NFD) cost a light entry (`flower-pty attach`) a dozen milliseconds it never needed.
let labelIndex: ReadonlyMap<string, SectionKey> | null = null;
function labelKey(normalized: string): SectionKey | undefined {
  labelIndex ??= new Map(
    SECTIONS.flatMap((s) => [s.title, ...s.labels].map((label) => [normalizeLabel(label), s.key] as const)),
  );
  return labelIndex.get(normalized);
}

// Case, accents, markup, numbering ("2. "), emoji and trailing punctuation do not change a label.
function normalizeLabel(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[*_`]/g, '')
    .replace(/^\s*\d{1,3}[.)]\s+/, '')
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .replace(/[\s:：?？.。!！]+$/u, '')
    .replace(/\s+/g, ' ');
}

// "Doing", "Doing (required)", "Doing · 现在在做", "Scene / key paths": every part must name one section.
export function matchLabel(text: string): SectionKey | undefined {
  if (text.length > MAX_LABEL_CHARS) return undefined;
  const whole = labelKey(normalizeLabel(text));
  if (whole !== undefined) return whole;
  const parts = text
    .replace(/\s*[(（][^()（）]*[)）]\s*/g, ' ')
    .split(/\s*[·/|]\s*/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  let key: SectionKey | undefined;
  for (const part of parts) {
    const k = labelKey(normalizeLabel(part));
    if (k === undefined || (key !== undefined && k !== key)) return undefined;
    key = k;
  }
  return key;
}

// Splits "label: text" at the first colon when the part before it is a label.
function splitColon(rest: string): { key: SectionKey; inline: string } | undefined {
  const colon = rest.search(/[:：]/);
  if (colon <= 0 || colon > MAX_LABEL_CHARS) return undefined;
  const key = matchLabel(rest.slice(0, colon));
  return key === undefined ? undefined : { key, inline: rest.slice(colon + 1).trim() };
}

// Does this line open a section? Up to 3 spaces of indent, then a heading, a list marker or nothing.
export function sectionStart(line: string): SectionStart | undefined {
  const m = /^( {0,3})(?:(#{1,6})(?:[ \t]+|$)|([-*+]|\d{1,3}[.)])[ \t]+)?(.*)$/.exec(line);
  if (m === null) return undefined;
  const indent = (m[1] ?? '').length;
  const heading = m[2] !== undefined;
  const list = m[3] !== undefined;
  const rest = (m[4] ?? '').trim().replace(/[ \t]+#+$/, '');
  // An escaped line (render prefixes "\") never opens a section.
  if (rest === '' || rest.startsWith('\\')) return undefined;
  const found =
    matchBold(rest) ??
    (heading || list ? labelAlone(rest) : undefined) ??
    splitColon(rest) ??
    (list ? splitWideGap(rest) : undefined);
  if (found === undefined) return undefined;
  // A bullet with nothing after its label is a heading in list clothes: its body is what follows.
  return { ...found, indent, list: list && !heading && found.inline !== '' };
}

// "**Doing:** text", "**Doing**: text", "__Doing__" alone.
function matchBold(rest: string): { key: SectionKey; inline: string } | undefined {
  const mark = rest.startsWith('**') ? '**' : rest.startsWith('__') ? '__' : undefined;
  if (mark === undefined) return undefined;
  const close = rest.indexOf(mark, 2);
  if (close < 0 || close > MAX_LABEL_CHARS + 2) return undefined;
  const key = matchLabel(rest.slice(2, close));
  if (key === undefined) return undefined;
  return {
    key,
    inline: rest
      .slice(close + 2)
      .replace(/^\s*[:：\-–—]*\s*/, '')
      .trim(),
  };
}

function labelAlone(rest: string): { key: SectionKey; inline: string } | undefined {
  const key = matchLabel(rest);
  return key === undefined ? undefined : { key, inline: '' };
}

// The seed's own list: "  - 现在在做  在给 Makefile 加…" (label, two or more spaces, text).
function splitWideGap(rest: string): { key: SectionKey; inline: string } | undefined {
  const gap = / {2,}|\t/.exec(rest);
  if (gap === null || gap.index > MAX_LABEL_CHARS) return undefined;
  const key = matchLabel(rest.slice(0, gap.index));
  return key === undefined ? undefined : { key, inline: rest.slice(gap.index).trim() };
}

// Render escapes a body line that would open a section by prefixing "\"; this undoes exactly that.
export function unescapeLine(line: string): string {
  return line.startsWith('\\') && sectionStart(line.replace(/^\\+/, '')) !== undefined ? line.slice(1) : line;
}

interface Fence {
  char: string;
  length: number;
}

function fenceOf(line: string): (Fence & { info: string }) | undefined {
  const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
  if (m === null || m[1] === undefined) return undefined;
  return { char: m[1][0] ?? '`', length: m[1].length, info: (m[2] ?? '').trim() };
}

function closes(open: Fence, line: string): boolean {
  const f = fenceOf(line);
  return f !== undefined && f.char === open.char && f.length >= open.length && f.info === '';
}

// The fence still open at line `upTo`, if the document sits inside a ``` block.
function openFenceBefore(lines: readonly string[], upTo: number): Fence | undefined {
  let open: Fence | undefined;
  for (let i = 0; i < upTo; i++) {
    const line = lines[i] ?? '';
    if (open === undefined) open = fenceOf(line);
    else if (closes(open, line)) open = undefined;
  }
  return open;
}

interface Section {
  start: SectionStart;
  lines: string[];
  ended: boolean;
  blank: boolean;
}

function leadingSpaces(line: string): number {
  return line.length - line.trimStart().length;
}

// List-item sections follow markdown: a line indented no deeper than the bullet, after a blank line
// or dedented past the bullet, is outside the item. Other sections run to the next section.
function continues(section: Section, line: string): boolean {
  if (!section.start.list || line.trim() === '') return true;
  const indent = leadingSpaces(line);
  return !(indent < section.start.indent || (section.blank && indent <= section.start.indent));
}

function bodyOf(section: Section): string {
  const rest = section.lines;
  if (!section.start.list) return normalizeBody([section.start.inline, ...rest].map(unescapeLine).join('\n'));
  const depth = Math.min(...rest.filter((l) => l.trim() !== '').map(leadingSpaces));
  const dedented = Number.isFinite(depth) ? rest.map((l) => l.slice(Math.min(depth, leadingSpaces(l)))) : rest;
  return normalizeBody([section.start.inline, ...dedented.map(unescapeLine)].join('\n'));
}

// Never throws: any input yields a document (possibly empty) and a list of what was wrong.
export function parseDocument(text: string): ParseResult {
  const lines = stripControl(typeof text === 'string' ? text : '').split('\n');
  const starts = lines.map(sectionStart);
  const first = starts.findIndex((s) => s !== undefined);
  if (first < 0) {
    const doc = emptyDoc();
    return {
      doc,
      missing: missing(doc),
      degraded: true,
      problems: [
        'no handoff sections found: expected headings such as "## Doing" and "## Next" (or 现在在做 / 下一步)',
      ],
    };
  }
  // Text after the ``` block that wraps the document is chat, not document.
  let end = lines.length;
  const wrapper = openFenceBefore(lines, first);
  if (wrapper !== undefined) {
    for (let i = lines.length - 1; i > first; i--)
      if (closes(wrapper, lines[i] ?? '')) {
        end = i;
        break;
      }
  }

  const sections: Section[] = [];
  const outside: number[] = [];
  for (let i = first; i < end; i++) {
    const line = lines[i] ?? '';
    const start = starts[i];
    const current = sections[sections.length - 1];
    if (start !== undefined) sections.push({ start, lines: [], ended: false, blank: false });
    else if (current === undefined || current.ended || !continues(current, line)) {
      if (current !== undefined) current.ended = true;
      if (line.trim() !== '') outside.push(i + 1);
    } else {
      current.lines.push(line);
      current.blank = line.trim() === '';
    }
  }

  const doc = emptyDoc();
  const problems: string[] = [];
  for (const section of sections) {
    const key = section.start.key;
    const body = bodyOf(section);
    if (doc[key] !== '' && body !== '')
      problems.push(`section "${key}" appears more than once; the bodies were joined`);
    doc[key] = [doc[key], body].filter((b) => b !== '').join('\n\n');
  }
  if (outside.length > 0) {
    problems.push(
      `ignored ${outside.length} line(s) outside any section, from line ${outside[0] ?? 0}: ` +
        'indent them under a list item or put them under a heading',
    );
  }
  const absent = missing(doc);
  for (const key of absent) {
    const title = SECTIONS.find((s) => s.key === key)?.title ?? key;
    problems.push(`required section "${key}" is missing or empty: add a "## ${title}" section with text under it`);
  }
  const marked = isDegraded(doc);
  if (marked)
    problems.push(
      `the document carries the degraded marker ${DEGRADED_MARKER}: it was built mechanically and is incomplete`,
    );
  return { doc, missing: absent, problems, degraded: marked || absent.length > 0 };
}
