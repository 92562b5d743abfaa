// The handoff's own effects on the world, each answered by one event: the document frozen, the facts for
// its Scene gathered, the seed read back (a person's edit, or why not), the model's draft kept, the
// document scored for what it leaves out. A failure is a value in the event, never a throw.

import { oneLine } from '../core/one-line.js';
import { FlowerError, NotYours } from '../core/errors.js';
import type { RunEffect, RunInput } from '../core/run/run-state.js';
import type { CoverageScore } from '../core/coverage/coverage-score.js';
import type { Face } from './face.js';
import type { Ports } from './ports.js';

type Effect<T extends RunEffect['type']> = Extract<RunEffect, { type: T }>;

export interface HandoffEffectsContext {
  ports: Ports;
  face: Face;
  post: (event: RunInput) => void;
}

const nowOf = (c: HandoffEffectsContext): number => c.ports.clock.now();

export async function writeDocument(effect: Effect<'write-document'>, c: HandoffEffectsContext): Promise<void> {
  const { ports, post } = c;
  const now = () => nowOf(c);
  try {
    const written = await ports.documents.freeze(effect.text, new Date(now()));
    post({
      type: 'document-written',
      now: now(),
      generation: effect.generation,
      path: written.path,
      archived: written.archived,
      error: null,
    });
  } catch (error) {
    post({
      type: 'document-written',
      now: now(),
      generation: effect.generation,
      path: null,
      archived: null,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

export async function gatherFacts(effect: Effect<'gather-facts'>, c: HandoffEffectsContext): Promise<void> {
  const git = await c.ports.gitFacts(effect.folder).catch(() => null);
  c.post({ type: 'facts-gathered', now: nowOf(c), generation: effect.generation, git });
}

export async function readSeed(effect: Effect<'read-seed'>, c: HandoffEffectsContext): Promise<void> {
  const { ports, face } = c;
  let refused: string | null = null;
  const onDisk = await ports.documents.read().catch((error: unknown) => {
    // another user's file: nothing seeds a successor, the run stops with the line
    if (error instanceof NotYours) {
      refused = error.message;
      return null;
    }
    // an edit over the ceiling: the model's version seeds the successor, and the person hears why
    if (error instanceof FlowerError) {
      ports.log(error.message);
      face.show({ t: 'message', text: error.message });
    }
    return null;
  });
  c.post({ type: 'seed-read', now: nowOf(c), generation: effect.generation, onDisk, refused });
}

export async function saveDraft(effect: Effect<'save-draft'>, c: HandoffEffectsContext): Promise<void> {
  const { ports } = c;
  const path = await ports.documents.saveDraft(effect.text, new Date(nowOf(c))).catch((error: unknown) => {
    ports.log(`could not keep the model's draft: ${String(error)}`);
    return null;
  });
  c.post({ type: 'draft-saved', now: nowOf(c), generation: effect.generation, changed: effect.changed, path });
}

export async function scoreDocument(effect: Effect<'score-document'>, c: HandoffEffectsContext): Promise<void> {
  const { ports } = c;
  const answer = (score: CoverageScore | null, error: string | null): void =>
    c.post({ type: 'document-scored', now: nowOf(c), generation: effect.generation, score, error });
  if (!ports.coverage) return answer(null, 'this run has no scorer');
  try {
    answer(await ports.coverage(effect.transcriptPath, effect.text), null);
  } catch (error) {
    answer(null, oneLine(error instanceof Error ? error.message : String(error)));
  }
}
