// The facts flower-pty knows for certain about a handoff (the predecessor's transcript, in a git work
// tree the HEAD commit and how many files were changed, and what the session had set up in itself and
// whether the successor re-arms it or it ended: core/document/session-scope.ts), as a block at the end of the document's Scene,
// marked as flower-pty's so nobody takes it for the model's words. At freeze time any earlier block (one a
// model copied forward from its own seed, or wrote itself) is replaced by the fresh one; when seeding the
// successor, a block a person's edit removed is put back rather than silently lost.

import { oneLine } from '../one-line.js';
import { scopeFactLines, type SessionScope } from './session-scope.js';

export interface GitFacts {
  head: string;
  /** entries of `git status --porcelain`: changed, added, deleted and untracked files */
  changedFiles: number;
}

export interface SceneFacts {
  transcriptPath: string | null;
  git: GitFacts | null;
  /** what the session had set up in itself (tasks, a /loop, crons, a goal, monitors, shells), and its fate */
  scope?: SessionScope | null;
  /** the session's failures its document does not mention, one line each (core/dead-ends/dead-end-watch.ts) */
  notInDocument?: readonly string[];
}

// The first line of the block; the block runs from it to the end of its paragraph (a blank line or the end).
export const FACTS_HEADING = '[flower-pty facts · written by flower-pty, not by the model]';

// The block for `facts`, or '' when there is nothing certain to say.
export function renderSceneFacts(facts: SceneFacts): string {
  const lines: string[] = [];
  const transcript = facts.transcriptPath === null ? '' : oneLine(facts.transcriptPath);
  if (transcript !== '')
    lines.push(`- previous session's transcript (search it for what this document left out): ${transcript}`);
  if (facts.git !== null) {
    const n = facts.git.changedFiles;
    lines.push(
      `- git HEAD ${oneLine(facts.git.head)}, ${n} ${n === 1 ? 'file' : 'files'} changed and not committed when the document was frozen`,
    );
  }
  if (facts.scope) lines.push(...scopeFactLines(facts.scope).map((line) => `- ${oneLine(line)}`));
  for (const line of facts.notInDocument ?? []) lines.push(`- ${oneLine(line)}`);
  return lines.length === 0 ? '' : [FACTS_HEADING, ...lines].join('\n');
}

interface Split {
  /** the scene without any facts block */
  rest: string;
  /** the first facts block found, or null */
  block: string | null;
}

// Finds every facts block in a Scene body (heading line up to the next blank line) and takes them out.
function splitFacts(scene: string): Split {
  const lines = scene.split('\n');
  const kept: string[] = [];
  let block: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== FACTS_HEADING) {
      kept.push(lines[i] ?? '');
      continue;
    }
    let end = i + 1;
    while (end < lines.length && (lines[end] ?? '').trim() !== '') end++;
    block ??= lines.slice(i, end).join('\n');
    // The blank line that separated the block from what follows goes with it (one blank line stays).
    const before = kept.at(-1);
    i = before === undefined || before.trim() === '' ? end : end - 1;
  }
  return { rest: trimBlankEdges(kept).join('\n'), block };
}

function trimBlankEdges(lines: string[]): string[] {
  const out = [...lines];
  while (out.length > 0 && (out[0] ?? '').trim() === '') out.shift();
  while (out.length > 0 && (out[out.length - 1] ?? '').trim() === '') out.pop();
  return out;
}

const appendBlock = (rest: string, block: string): string =>
  block === '' ? rest : rest === '' ? block : `${rest}\n\n${block}`;

// At freeze: the Scene with exactly one facts block, this handoff's, at its end.
export function withSceneFacts(scene: string, facts: SceneFacts): string {
  return appendBlock(splitFacts(scene).rest, renderSceneFacts(facts));
}

export function sceneFactsBlock(scene: string): string | null {
  return splitFacts(scene).block;
}

// At seeding: the Scene as the person left it, with the frozen facts block put back if their edit removed
// it. A block still there (even edited) is the person's choice and stays as it is; nothing is duplicated.
export function restoreSceneFacts(scene: string, frozenScene: string): { scene: string; restored: boolean } {
  const frozenBlock = sceneFactsBlock(frozenScene);
  if (frozenBlock === null || sceneFactsBlock(scene) !== null) return { scene, restored: false };
  return { scene: appendBlock(trimBlankEdges(scene.split('\n')).join('\n'), frozenBlock), restored: true };
}
