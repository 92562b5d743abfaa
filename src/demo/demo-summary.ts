// The demo's closing words: what happened (generations, documents), where everything is (the
// folder is left for inspection), and how to run flower-pty for real. Pure: facts in, lines out.

import type { Manifest } from '../core/lineage/manifest.js';
import { shellWord } from '../core/options/shell-word.js';

export interface DemoFacts {
  root: string;
  projectDir: string;
  workbench: string;
  manifest: Manifest | null;
  /** every document under <workbench>/notes, current one first */
  documents: string[];
  quotedNext: string | null;
  seconds: number;
  /** the files that say what went wrong, those of them that exist (the events file, the run's log) */
  logs: string[];
  /** how flower-pty is typed where the person is (`flower-pty`, `npx flower-pty`, core/options/own-command.ts) */
  flower: string;
  /** the run's own exit code: 0 when it ended as asked (a quit included), not by a failure */
  exitCode: number;
}

export function demoCompleted(facts: Pick<DemoFacts, 'manifest' | 'quotedNext'>): boolean {
  const gens = facts.manifest?.generations ?? [];
  return gens.length >= 2 && gens[0]?.end === 'handoff' && facts.quotedNext !== null;
}

/**
 * The person ended the demo before its cycle was whole (C-] q, or /exit in claude): their choice, not a
 * failure. The demo's own end is a quit too, but only after the successor quoted the document. A quit in the
 * review (the first document frozen and held for the person) ends no generation of its own: the last one
 * ended by its handoff and no successor started, in a run that itself ended cleanly.
 */
export function demoQuit(facts: Pick<DemoFacts, 'manifest' | 'quotedNext' | 'exitCode'>): boolean {
  const last = facts.manifest?.generations.at(-1)?.end;
  if (demoCompleted(facts)) return false;
  return last === 'quit' || (last === 'handoff' && facts.exitCode === 0);
}

export function demoSummary(f: DemoFacts): string[] {
  const gens = f.manifest?.generations ?? [];
  const lines: string[] = [];
  const ok = demoCompleted(f);
  const quit = demoQuit(f);
  const seconds = Math.round(f.seconds);
  lines.push(
    ok
      ? `flower-pty demo: a full handoff cycle in ${seconds}s.`
      : quit
        ? `flower-pty demo: you quit it after ${seconds}s, before a full cycle (run it again to see the handoff).`
        : `flower-pty demo: stopped before a full cycle (${seconds}s).`,
  );
  lines.push(
    `  generations: ${gens.length}${gens.map((g) => `\n    ${g.generation}. session ${g.session_id} · peak context ${g.peak_context} · ended: ${g.end}${g.degraded ? ' (degraded)' : ''}`).join('')}`,
  );
  if (f.documents.length === 0) lines.push('  documents written: none');
  else lines.push(`  documents written:${f.documents.map((d) => `\n    ${d}`).join('')}`);
  if (f.quotedNext) lines.push(`  the successor started from the document and did its Next: "${f.quotedNext}"`);
  lines.push(`  folder (left for inspection): ${f.root}`);
  lines.push(
    `    project: ${f.projectDir} (toy/, report.txt) · lineage: ${f.workbench}/manifest.json · events: ${f.root}/events.jsonl`,
  );
  lines.push(`    remove it with: rm -rf ${f.root}`);
  if (!ok && !quit && f.logs.length > 0) lines.push(`  what went wrong is in ${f.logs.join(' and ')}`);
  // a checkout's flower-pty is not on the PATH, and `npx flower-pty` works only inside it
  const install = f.flower === 'flower-pty' ? '' : 'install it (the README\'s "Use it"), then ';
  lines.push(
    `  run it for real: ${install}cd your-project && flower-pty "your task"   (your own claude and login; see the README)`,
  );
  lines.push(...lineageLines(f.flower, f.workbench));
  return lines;
}

/**
 * Last, as they are typed from the folder the person is in: the workbench named (the transcripts are found
 * where the run recorded them, the demo's own Claude config folder), flower-pty as it runs here.
 */
export function lineageLines(flower: string, workbench: string): string[] {
  return [
    '  its lineage, from here:',
    `    ${flower} status --workbench ${shellWord(workbench)}`,
    `    ${flower} report --workbench ${shellWord(workbench)}`,
  ];
}
