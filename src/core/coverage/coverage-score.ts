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
  return text
    .replace(/`/g, ' ')
    .replace(/\\\n/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/(^|[\s"'(])(?:\.\/)+/g, '$1');
}

// `needle` as a whole token: not inside a longer word, flag or path (a `/` before it is allowed when
// `inPath`, so a file name is found at the end of any path).
function hasToken(text: string, needle: string, inPath: boolean): boolean {
  return tokenPlaces(text, needle, inPath).length > 0;
}

// Where `needle` stands as a whole token in `text` (as hasToken), every place.
function tokenPlaces(text: string, needle: string, inPath: boolean): number[] {
  if (needle === '') return [];
  const before = inPath ? '(?<![\\w.-])' : '(?<![\\w./-])';
  return Array.from(text.matchAll(new RegExp(`${before}${escapeRe(needle)}(?![\\w/-]|\\.\\w)`, 'g')), (m) => m.index);
}

function pathPlaces(flat: string, path: string): number[] {
  const p = path.replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');
  const whole = tokenPlaces(flat, p, false);
  const base = p.split('/').at(-1) ?? '';
  return base === '' ? whole : [...whole, ...tokenPlaces(flat, base, true)];
}

function hasPath(flat: string, path: string): boolean {
  return pathPlaces(flat, path).length > 0;
}

/** how far around a file's name the document must say something of its failure, in characters */
export const NEAR_CHARS = 160;
// Words that say something went wrong (or was undone): near a file's name, they tell of its failure.
const FAILURE_WORD =
  /\b(?:fail(?:s|ed|ing|ure|ures)?|errors?|erred|broke|broken|crash(?:ed|es)?|could ?n[o']t|can ?n[o']t|can't|did ?n[o']t work|not found|missing|refused|rejected|denied|timed? ?out|too large|too big|exceed(?:s|ed)?|undone|undid|revert(?:ed|s)?|rolled back|dead ends?|abandon(?:ed)?|gave up|does ?n[o']t exist|unable|mismatch(?:ed)?|conflicts?)\b/i;

// A file tool's failure is kept when the document names the file and, near it, says something of the
// failure: a word of failure, or most of the error's own content words. Naming the file for another
// reason (it was changed, it is where the code lives) keeps nothing.
function tellsFailure(doc: Doc, paths: readonly string[], error: readonly string[]): boolean {
  for (const p of paths) {
    for (const at of pathPlaces(doc.flat, p)) {
      const near = doc.flat.slice(Math.max(0, at - NEAR_CHARS), at + p.length + NEAR_CHARS);
      if (FAILURE_WORD.test(near)) return true;
      if (error.length >= 2 && wordShare(error, wordSet(near)) >= WORD_SHARE) return true;
    }
  }
  return false;
}

// A command is compared as the document is: backticks open on both sides.
function hasCommand(flat: string, command: string): boolean {
  const whole = (seg: string): boolean => new RegExp(`(?<![\\w./-])${escapeRe(seg)}(?![\\w/=-]|[:.]\\w)`).test(flat);
  const c = command.includes('`') ? flatten(command).trim() : command;
  if (whole(c)) return true;
  return commandSegments(command).some(
    (seg) => seg.includes(' ') && whole(seg.includes('`') ? flatten(seg).trim() : seg),
  );
}

/** whether a document names a file, by the files rule (the path as a token, or its file name) */
export function namesPath(documentText: string, path: string): boolean {
  return hasPath(flatten(documentText), path);
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
      return rule.paths.length > 0
        ? tellsFailure(doc, rule.paths, rule.error)
        : doc.folded.includes(fold(flatten(rule.input)).trim());
    case 'words':
      return wordShare(rule.words, doc.words) >= WORD_SHARE;
    case 'literal':
      return hasToken(doc.flat, rule.text, false);
    case 'issue':
      return new RegExp(
        `(?:#|\\b(?:issues?|PRs?|pull request)\\s*#?|\\b(?:issues|pull)/)${rule.number}(?!\\d)`,
        'i',
      ).test(doc.flat);
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
