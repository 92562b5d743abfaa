// A synthetic lineage on disk for the report tests: a project folder, a sandbox CLAUDE_CONFIG_DIR
// with one transcript per generation (records shaped like Claude Code 2.1.332's, see
// docs/claude-code.md §4), and a workbench with the manifest, the documents, the archive and a draft.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transcriptPathFor } from '../../src/claude-code/transcript-path.js';
import {
  createManifest,
  endGeneration,
  recordHumanEdit,
  recordOriginalPrompt,
  recordUsage,
  startGeneration,
  type Manifest,
} from '../../src/core/lineage/manifest.js';

export interface Reading {
  /** ms after the generation's start */
  after: number;
  context: number;
}

export interface SyntheticGeneration {
  sessionId: string;
  readings: Reading[];
  end: 'handoff' | 'degraded' | 'quit' | 'crash' | 'stopped' | 'running';
  document?: string;
  draft?: string;
  reason?: string;
  cost?: number;
  /** junk lines put into the transcript, before its readings */
  junk?: string[];
  /** lines put after its readings */
  tail?: string[];
  /** leave no transcript */
  noTranscript?: boolean;
}

export const T0 = Date.parse('2026-11-30T22:00:00.000Z');
export const GEN_SPAN = 10 * 60_000;

// One assistant row of a response, as 2.1.332 writes it (usage on every row; cache_read carries most).
export function assistantLine(sessionId: string, n: number, context: number, at: number): string {
  return JSON.stringify({
    parentUuid: `p-${n}`,
    isSidechain: false,
    message: {
      id: `msg_${sessionId.slice(0, 8)}_${n}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-5-5',
      content: [{ type: 'text', text: `reply ${n}` }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 50,
        cache_creation_input_tokens: 1000,
        cache_read_input_tokens: context - 1050,
        output_tokens: 42,
      },
    },
    requestId: `req_${n}`,
    type: 'assistant',
    uuid: `u-${sessionId}-${n}`,
    timestamp: new Date(at).toISOString(),
    sessionId,
    version: '2.1.332',
  });
}

export function userLine(sessionId: string, text: string, at: number): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: text },
    uuid: `q-${sessionId}`,
    timestamp: new Date(at).toISOString(),
    origin: { kind: 'human' },
    sessionId,
    version: '2.1.332',
  });
}

export interface Lineage {
  root: string;
  project: string;
  configDir: string;
  workbench: string;
  manifest: Manifest;
  transcript(sessionId: string): string;
}

export function makeLineage(
  gens: SyntheticGeneration[],
  opts: { window?: number; at?: number; step?: string } = {},
): Lineage {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'flower-report-')));
  const project = join(root, 'project');
  const configDir = join(root, 'config');
  const workbench = join(project, '.flower');
  const step = opts.step ?? 'work';
  const notes = join(workbench, 'notes');
  const archive = join(notes, 'archive', '交接');
  mkdirSync(archive, { recursive: true });
  const iso = (t: number): string => new Date(t).toISOString();
  let m = createManifest({ step, cwd: project, window: opts.window ?? 200_000, at: opts.at ?? 150_000, now: iso(T0) });
  m = recordOriginalPrompt(m, 'make the <b>toy</b> report');
  const frozen = gens.filter((g) => g.document !== undefined);
  gens.forEach((g, i) => {
    const start = T0 + i * GEN_SPAN;
    m = startGeneration(m, { generation: i + 1, sessionId: g.sessionId, now: iso(start) });
    const path = transcriptPathFor(configDir, project, g.sessionId);
    if (!g.noTranscript) {
      mkdirSync(join(configDir, 'projects', project.replace(/[^a-zA-Z0-9]/g, '-')), { recursive: true });
      const lines = [userLine(g.sessionId, 'go on', start + 1), ...(g.junk ?? [])];
      g.readings.forEach((r, k) => lines.push(assistantLine(g.sessionId, k, r.context, start + r.after)));
      lines.push(...(g.tail ?? []));
      writeFileSync(path, lines.join('\n') + '\n');
    }
    const peak = Math.max(0, ...g.readings.map((r) => r.context));
    m = recordUsage(m, {
      context: g.readings.at(-1)?.context ?? 0,
      costUsd: g.cost ?? 0.01 * (i + 1),
      numTurns: g.readings.length,
      now: iso(start + GEN_SPAN - 1000),
    });
    m = { ...m, generations: m.generations.map((x) => (x.generation === i + 1 ? { ...x, peak_context: peak } : x)) };
    if (g.end !== 'running') {
      const current = join(notes, `交接-${step}.md`);
      m = endGeneration(m, {
        end: g.end,
        now: iso(start + GEN_SPAN - 1000),
        handoffPath: g.document !== undefined ? current : null,
        degraded: g.end === 'degraded',
        ...(g.reason ? { reason: g.reason } : {}),
      });
    }
    if (g.draft !== undefined) {
      const draftPath = join(archive, `${step}-2026-11-30T2${i}0000.000Z.draft.md`);
      writeFileSync(draftPath, g.draft);
      m = recordHumanEdit(m, i + 1, { changedSections: ['next'], draftPath, now: iso(start + GEN_SPAN) });
    }
  });
  // The archive holds every frozen document but the newest, named by when it was archived.
  frozen.forEach((g, k) => {
    const text = g.document as string;
    if (k === frozen.length - 1) writeFileSync(join(notes, `交接-${step}.md`), text);
    else writeFileSync(join(archive, `${step}-2026-11-30T2${k + 1}0000.000Z.md`), text);
  });
  writeFileSync(join(workbench, 'manifest.json'), JSON.stringify(m, null, 2));
  return {
    root,
    project,
    configDir,
    workbench,
    manifest: m,
    transcript: (id) => transcriptPathFor(configDir, project, id),
  };
}

export function doc(next: string, extra = ''): string {
  return `# 交接 · work\n\n## Doing · 现在在做\n\nBuilding report.txt.${extra}\n\n## Decided · 已定的事\n\n- plain wc -l\n\n## Dead ends · 走不通的\n\n- wc -w: not wanted\n\n## Next · 下一步\n\n${next}\n\n## Scene · 场景\n\n- toy/\n- report.txt\n`;
}
