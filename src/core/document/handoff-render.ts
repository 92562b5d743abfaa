// Handoff document renderer: HandoffDoc -> the markdown file a person reads and edits.
// parse(render(doc)) returns normalizeDoc(doc): body lines that would open a section are escaped.

import type { HandoffDoc } from './handoff-doc.js';
import { EMPTY_MARKER, SECTIONS, normalizeBody, stripControl } from './handoff-doc.js';
import { sectionStart } from './handoff-parse.js';

// Pasted text such as "## Next: rm -rf" must stay body text: prefix "\" (also markdown's own escape).
// Lines already starting with "\" before such text get one more, so unescaping is exact.
export function escapeLine(line: string): string {
  return sectionStart(line.replace(/^\\+/, '')) !== undefined ? `\\${line}` : line;
}

// The five sections, without the document heading: also the body of the successor's prompt.
export function renderSections(doc: HandoffDoc): string {
  return SECTIONS.map((s) => {
    const body = normalizeBody(doc[s.key]);
    const text = body === '' ? EMPTY_MARKER : body.split('\n').map(escapeLine).join('\n');
    return `## ${s.title}\n\n${text}\n`;
  }).join('\n');
}

// The step name appears only here, in the heading; it never takes part in parsing.
export function renderDocument(doc: HandoffDoc, meta: { step: string }): string {
  const step = stripControl(meta.step).replace(/\s+/g, ' ').trim();
  return `# 交接 · ${step === '' ? 'step' : step}\n\n${renderSections(doc)}`;
}
