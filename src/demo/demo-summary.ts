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
}

export function demoCompleted(facts: Pick<DemoFacts, 'manifest' | 'quotedNext'>): boolean {
  const gens = facts.manifest?.generations ?? [];
  return gens.length >= 2 && gens[0]?.end === 'handoff' && facts.quotedNext !== null;
}

export function demoSummary(f: DemoFacts): string[] {
  const gens = f.manifest?.generations ?? [];
  const lines: string[] = [];
  const ok = demoCompleted(f);
  lines.push(ok ? `flower-pty demo: a full handoff cycle in ${Math.round(f.seconds)}s.` : `flower-pty demo: stopped before a full cycle (${Math.round(f.seconds)}s).`);
  lines.push(`  generations: ${gens.length}${gens.map((g) => `\n    ${g.generation}. session ${g.session_id} · peak context ${g.peak_context} · ended: ${g.end}${g.degraded ? ' (degraded)' : ''}`).join('')}`);
  if (f.documents.length === 0) lines.push('  documents written: none');
  else lines.push(`  documents written:${f.documents.map((d) => `\n    ${d}`).join('')}`);
  if (f.quotedNext) lines.push(`  the successor started from the document and did its Next: "${f.quotedNext}"`);
  lines.push(`  folder (left for inspection): ${f.root}`);
  lines.push(`    project: ${f.projectDir} (toy/, report.txt) · lineage: ${f.workbench}/manifest.json · events: ${f.root}/events.jsonl`);
  lines.push(`    remove it with: rm -rf ${f.root}`);
  if (!ok) lines.push(`  what went wrong is in ${f.root}/events.jsonl and ${f.root}/flower.log`);
  lines.push('  run it for real: cd your-project && flower-pty "your task"   (your own claude and login; see the README)');
  // last, as they are typed from the folder the person is in: the workbench named, the transcripts found
  // where the run recorded them (the demo's own Claude config folder)
  lines.push('  its lineage, from here:');
  lines.push(`    flower-pty status --workbench ${shellWord(f.workbench)}`);
  lines.push(`    flower-pty report --workbench ${shellWord(f.workbench)}`);
  return lines;
}
