// A document against the facts a successor must have (successor-facts.ts): per category, how many of
// them it carries and which it misses, each by its fact's rule (docs/eval.md states them): a path or its
// file name as a token; a command whole, after the dead-ends normalisation; at least WORD_SHARE of a
// sentence's content words; an identifier word for word. Pure.

import { commandSegments } from '../dead-ends/command-match.js';
import { fold, wordSet } from './content-words.js';
import { CATEGORIES, type Category, type Fact, type FactRule, type SuccessorFacts } from './successor-facts.js';

/** the share of an instruction's or a task's content words a document must hold */
export const WORD_SHARE = 0.6;

export interface CategoryScore {
  found: number;
  total: number;
  /** the display text of each fact not found, in the facts' order */
  missing: string[];
}

export type CoverageScore = Record<Category, CategoryScore>;

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The document as commands are compared in it: code spans opened, a line continuation and every run of
// blanks one space, a leading `./` dropped from every token (as command-match.ts normalises a command).
function flatten(text: string): string {
  return text.replace(/`/g, ' ').replace(/\\\n/g, ' ').replace(/\s+/g, ' ').replace(/(^|[\s"'(])(?:\.\/)+/g, '$1');
}

// `needle` as a whole token: not inside a longer word, flag or path (a `/` before it is allowed when
// `inPath`, so a file name is found at the end of any path).
function hasToken(text: string, needle: string, inPath: boolean): boolean {
  if (needle === '') return false;
  const before = inPath ? '(?<![\\w.-])' : '(?<![\\w./-])';
  return new RegExp(`${before}${escapeRe(needle)}(?![\\w/-]|\\.\\w)`).test(text);
}

function hasPath(flat: string, path: string): boolean {
  const p = path.replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');
  if (hasToken(flat, p, false)) return true;
  const base = p.split('/').at(-1) ?? '';
  return base !== '' && hasToken(flat, base, true);
}

function hasCommand(flat: string, command: string): boolean {
  const whole = (seg: string): boolean => new RegExp(`(?<![\\w./-])${escapeRe(seg)}(?![\\w/=-]|[:.]\\w)`).test(flat);
  if (whole(command)) return true;
  return commandSegments(command).some((seg) => seg.includes(' ') && whole(seg));
}

/** the share of `words` in a document's words */
export function wordShare(words: readonly string[], docWords: ReadonlySet<string>): number {
  if (words.length === 0) return 0;
  let n = 0;
  for (const w of words) if (docWords.has(w)) n += 1;
  return n / words.length;
}

interface Doc {
  flat: string;
  folded: string;
  words: Set<string>;
}

function found(rule: FactRule, doc: Doc): boolean {
  switch (rule.rule) {
    case 'path':
      return hasPath(doc.flat, rule.path);
    case 'command':
      return hasCommand(doc.flat, rule.command);
    case 'target':
      return rule.paths.length > 0 ? rule.paths.some((p) => hasPath(doc.flat, p)) : doc.folded.includes(fold(rule.input).replace(/\s+/g, ' '));
    case 'words':
      return wordShare(rule.words, doc.words) >= WORD_SHARE;
    case 'literal':
      return hasToken(doc.flat, rule.text, false);
    case 'issue':
      return new RegExp(`(?:#|\\b(?:issues?|PRs?|pull request)\\s*#?|\\b(?:issues|pull)/)${rule.number}(?!\\d)`, 'i').test(doc.flat);
  }
}

function scoreFacts(facts: readonly Fact[], doc: Doc): CategoryScore {
  const missing: string[] = [];
  for (const f of facts) if (!found(f.match, doc)) missing.push(f.text);
  return { found: facts.length - missing.length, total: facts.length, missing };
}

export function scoreDocument(facts: SuccessorFacts, documentText: string): CoverageScore {
  const flat = flatten(documentText);
  const doc: Doc = { flat, folded: fold(flat), words: wordSet(documentText) };
  const out = {} as CoverageScore;
  for (const c of CATEGORIES) out[c] = scoreFacts(facts[c], doc);
  return out;
}

/** the categories with facts whose found share is under `threshold` (a share, 0 to 1) */
export function belowThreshold(score: CoverageScore, threshold: number): Category[] {
  return CATEGORIES.filter((c) => score[c].total > 0 && score[c].found / score[c].total < threshold);
}

/** found and total summed per category over many scores */
export function scoreTotals(scores: readonly CoverageScore[]): Record<Category, { found: number; total: number }> {
  const out = {} as Record<Category, { found: number; total: number }>;
  for (const c of CATEGORIES) out[c] = { found: 0, total: 0 };
  for (const s of scores) {
    for (const c of CATEGORIES) {
      out[c].found += s[c].found;
      out[c].total += s[c].total;
    }
  }
  return out;
}
