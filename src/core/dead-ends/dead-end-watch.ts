// What a document says did not work, as patterns a successor's calls are compared with, and which of a
// session's failures a document leaves out. Exact matching only (command-match.ts): a dead end's code
// span (a command, or a long flag), a failure flower-pty listed (its normalised command, or its tool and
// input). Never prose. Pure.

import { commandMatches, mentionsCommand, mentionsPath, spanPattern, type CallPattern } from './command-match.js';
import { codeSpan, failureLine, INPUT_CHARS, type Failure } from './failure-record.js';
import type { HandoffDoc, SectionKey } from '../document/handoff-doc.js';
import { sectionStart } from '../document/handoff-parse.js';
import { sceneFactsBlock } from '../document/scene-facts.js';
import { oneLine } from '../one-line.js';
import type { ToolRun } from './tool-run.js';

/** at most this many failures are put before the writer, and so checked in the document */
export const FAILURES_LISTED = 15;
/** the words a facts line starts with for a failure the document does not mention */
export const NOT_IN_DOCUMENT = 'failed in this session, not in the document:';
const WATCHED_MAX = 80;

export interface WatchedDeadEnd {
  pattern: CallPattern | { kind: 'tool'; tool: string; input: string };
  /** the dead end as the document says it, one line */
  text: string;
  /** its line in the document (1-based); null when the document does not carry it */
  line: number | null;
}

// Whether the document's dead ends, decided section or scene (its facts block aside) name the failure.
export function mentions(doc: HandoffDoc, f: Failure): boolean {
  const facts = sceneFactsBlock(doc.scene);
  const scene = facts === null ? doc.scene : doc.scene.replace(facts, '');
  const text = [doc.deadends, doc.decided, scene].join('\n');
  if (f.command !== null && mentionsCommand(text, f.command)) return true;
  if (f.files.some((p) => mentionsPath(text, p))) return true;
  return f.command === null && f.files.length === 0 && text.includes(f.input);
}

export function unmentioned(doc: HandoffDoc, failures: readonly Failure[]): Failure[] {
  return failures.filter((f) => !mentions(doc, f));
}

// The facts block's lines for them.
export function notInDocumentLines(failures: readonly Failure[]): string[] {
  return failures.map((f) => `${NOT_IN_DOCUMENT} ${failureLine(f)}`);
}

const CODE_SPAN = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

function spans(line: string): string[] {
  return Array.from(line.matchAll(CODE_SPAN), (m) => (m[2] ?? '').trim()).filter((s) => s !== '');
}

// The dead ends of a document's text (as seeded: a person's edits included) and the failures listed
// to its writer, as patterns, each with its line in the text.
export function watchList(text: string, listed: readonly Failure[]): WatchedDeadEnd[] {
  const lines = text.split('\n');
  const out: WatchedDeadEnd[] = [];
  let section: SectionKey | null = null;
  lines.forEach((raw, i) => {
    if (/^ {0,3}#/.test(raw)) {
      const start = sectionStart(raw);
      if (start) section = start.key;
      return;
    }
    const inFacts = section === 'scene' && raw.includes(NOT_IN_DOCUMENT);
    if (section !== 'deadends' && !inFacts) return;
    // A facts line names its failure in its first span; the rest of it is the error's words.
    const found = inFacts ? spans(raw).slice(0, 1) : spans(raw);
    for (const span of found) {
      const pattern = spanPattern(span);
      if (pattern) out.push({ pattern, text: oneLine(raw.replace(/^\s*[-*+]\s+/, ''), 200), line: i + 1 });
    }
  });
  for (const f of listed) {
    const pattern: WatchedDeadEnd['pattern'] =
      f.command !== null ? { kind: 'command', command: f.command } : { kind: 'tool', tool: f.tool, input: f.input };
    if (f.kind === 'reverted-edit') continue; // undoing an edit is no call to repeat
    if (out.some((w) => samePattern(w.pattern, pattern))) continue;
    const at = lines.findIndex((l) => l.includes(codeSpan(f.input)));
    out.push({ pattern, text: oneLine(failureLine(f), 200), line: at < 0 ? null : at + 1 });
  }
  return out.slice(0, WATCHED_MAX);
}

function samePattern(a: WatchedDeadEnd['pattern'], b: WatchedDeadEnd['pattern']): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

// The dead end a successor's call repeats, or null.
export function repeatOf(watch: readonly WatchedDeadEnd[], run: ToolRun): WatchedDeadEnd | null {
  for (const w of watch) {
    const p = w.pattern;
    if (p.kind === 'tool') {
      if (run.tool === p.tool && run.command === null && oneLine(run.input, INPUT_CHARS) === p.input) return w;
    } else if (run.command !== null && commandMatches(run.command, p)) {
      return w;
    }
  }
  return null;
}
