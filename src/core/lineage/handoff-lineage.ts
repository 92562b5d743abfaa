// The document decisions around a handoff, as values: what gets frozen, what a successor is
// seeded with, and the note a running successor gets when a person edits its document.

import {
  degradedDocument,
  diffSections,
  isDegraded,
  type HandoffDoc,
  type SectionKey,
} from '../document/handoff-doc.js';
import { parseDocument } from '../document/handoff-parse.js';
import { renderDocument } from '../document/handoff-render.js';
import { successorPrompt } from './handoff-prompts.js';
import { restoreSceneFacts, withSceneFacts, type SceneFacts } from '../document/scene-facts.js';
import { rearmInstructions, type SessionScope } from '../document/session-scope.js';
import { failureLine, topFailures, type FailureRecord } from '../dead-ends/failure-record.js';
import { FAILURES_LISTED, mentions, notInDocumentLines, unmentioned } from '../dead-ends/dead-end-watch.js';

export interface FrozenDocument {
  text: string;
  doc: HandoffDoc;
}

/** how a frozen document carries its session's failures: `seen` in all, named by its writer, added by
 *  flower-pty (its facts block, or a degraded document's dead ends), neither; `missing`: the calls added */
export interface DeadEndCheck {
  seen: number;
  byWriter: number;
  byFacts: number;
  notAtAll: number;
  missing: string[];
}

// The document to freeze: the model's, or a degraded one built from what parsed. With no text from
// the model (a crash, a deadline), the document this generation started from is the last good state:
// a successor that dies at once must not replace it with an empty shell. With `facts`, the Scene ends
// with flower-pty's own block (core/document/scene-facts.ts), replacing any older one.
export function documentToFreeze(input: {
  text: string | null;
  degraded: boolean;
  reason?: string;
  seededText: string | null;
  originalPrompt: string;
  step: string;
  facts?: SceneFacts;
  /** what failed in the session (core/dead-ends/failure-record.ts) */
  failures?: FailureRecord;
}): FrozenDocument & { check: DeadEndCheck } {
  const source = input.text ?? (input.degraded ? input.seededText : null);
  const parsed = source !== null ? parseDocument(source) : null;
  const all = input.failures?.failures ?? [];
  const listed = topFailures(input.failures ?? { failures: [], edits: [], dropped: 0 }, FAILURES_LISTED);
  const mechanical = input.degraded || parsed === null;
  const doc: HandoffDoc = mechanical
    ? degradedDocument({
        originalPrompt: input.originalPrompt,
        reason: input.reason ?? 'unknown',
        ...(parsed ? { partial: parsed.doc } : {}),
        failed: listed.map((f) => `- ${failureLine(f)}`),
      })
    : parsed.doc;
  // A writer's document is checked for each failure listed to it; the ones it leaves out go in the facts.
  const missing = mechanical ? [] : unmentioned(doc, listed);
  const byWriter = mechanical ? 0 : all.filter((f) => mentions(doc, f)).length;
  const byFacts = mechanical ? listed.length : missing.length;
  const seen = all.length + (input.failures?.dropped ?? 0);
  const check: DeadEndCheck = {
    seen,
    byWriter,
    byFacts,
    notAtAll: Math.max(0, seen - byWriter - byFacts),
    missing: missing.map((f) => f.input),
  };
  if (input.facts) {
    const withFacts = {
      ...doc,
      scene: withSceneFacts(doc.scene, { ...input.facts, notInDocument: notInDocumentLines(missing) }),
    };
    return { text: renderDocument(withFacts, { step: input.step }), doc: withFacts, check };
  }
  return { text: renderDocument(doc, { step: input.step }), doc, check };
}

export interface SuccessorSeed {
  prompt: string;
  /** the text the successor starts from, to describe a later edit as a diff */
  seededText: string;
  missing: SectionKey[];
  /** a person changed the frozen document before the successor read it */
  humanEdit: { changed: SectionKey[] } | null;
  /** a person's edit removed flower-pty's facts from the Scene; the prompt has them back (worth a log line) */
  factsRestored: boolean;
}

// The successor's first prompt from the document as it is on disk now (human edits included); the
// copy kept in memory if the file is gone; never an empty seed.
export function seedSuccessor(input: {
  onDisk: string | null;
  kept: string | null;
  frozen: FrozenDocument | null;
  path: string | null;
  originalPrompt: string;
  step: string;
  /** what the previous session had set up in itself, as read at its freeze: the successor re-arms it */
  carried?: SessionScope | null;
}): SuccessorSeed {
  const text =
    input.onDisk ??
    input.kept ??
    renderDocument(
      degradedDocument({
        originalPrompt: input.originalPrompt,
        reason: 'no handoff document was frozen before the previous session ended',
      }),
      { step: input.step },
    );
  const parsed = parseDocument(text);
  const problems = [...parsed.problems];
  if (input.path && input.onDisk === null && input.kept !== null) {
    problems.push(`the document ${input.path} was missing at spawn time; this is the copy flower-pty kept`);
  }
  const humanEdit =
    input.frozen && input.onDisk !== null && input.onDisk !== input.frozen.text
      ? { changed: diffSections(input.frozen.doc, parsed.doc).changed }
      : null;
  const degraded = isDegraded(parsed.doc) || parsed.degraded;
  // The facts are flower-pty's, not the person's to lose by accident: a removed block comes back.
  const facts = input.frozen
    ? restoreSceneFacts(parsed.doc.scene, input.frozen.doc.scene)
    : { scene: parsed.doc.scene, restored: false };
  return {
    // The path only when the file is there: a successor is never told a document is saved where there is none.
    prompt: successorPrompt(
      { ...parsed.doc, scene: facts.scene },
      {
        ...(input.path && input.onDisk !== null ? { path: input.path } : {}),
        degraded,
        problems,
        rearm: input.carried ? rearmInstructions(input.carried) : null,
      },
    ),
    seededText: text,
    missing: parsed.missing,
    humanEdit,
    factsRestored: facts.restored,
  };
}

// A person edited the document a running successor started from: the note it gets at its next
// boundary, or null when no section changed.
export function editNote(
  path: string,
  seededText: string,
  editedText: string,
): { note: string; changed: SectionKey[] } | null {
  const diff = diffSections(parseDocument(seededText).doc, parseDocument(editedText).doc);
  if (diff.changed.length === 0) return null;
  return {
    changed: diff.changed,
    note:
      `A person edited the handoff document you started from (${path}). ` +
      `Changed: ${diff.changed.join(', ')}. Take this into account from now on; re-read the file if needed.\n\n${diff.summary}`,
  };
}
