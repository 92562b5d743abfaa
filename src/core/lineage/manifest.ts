// The manifest: the lineage of one run (generations, retired session ids, errors, sums).
// Pure values in, new values out; the store adapter only serialises it atomically.

import { checkManifest } from './manifest-check.js';
import type { GenerationRecord, Manifest, PlaceRecord } from './manifest-shape.js';

export type { GenerationRecord, Manifest, ManifestError, PlaceRecord } from './manifest-shape.js';

export function createManifest(init: { step: string; cwd: string; window: number; at: number; now: string }): Manifest {
  return {
    version: 1,
    step: init.step,
    cwd: init.cwd,
    window: init.window,
    at: init.at,
    attempts: 0,
    session_id: null,
    retired: [],
    context: 0,
    cost_usd: 0,
    num_turns: 0,
    errors: [],
    generations: [],
    original_prompt: null,
    updated_at: init.now,
  };
}

// Sums are derived from the generations so they can never drift from them.
function withTotals(m: Manifest, now: string): Manifest {
  const last = m.generations.at(-1);
  return {
    ...m,
    cost_usd: Math.round(m.generations.reduce((sum, g) => sum + g.cost_usd, 0) * 1e6) / 1e6,
    num_turns: m.generations.reduce((sum, g) => sum + g.num_turns, 0),
    context: last ? last.context : 0,
    updated_at: now,
  };
}

/** a generation's record the moment it starts: running, nothing measured yet */
export function runningGeneration(g: {
  generation: number;
  sessionId: string;
  now: string;
  transcriptPath?: string;
}): GenerationRecord {
  return {
    generation: g.generation,
    session_id: g.sessionId,
    started_at: g.now,
    ended_at: null,
    peak_context: 0,
    context: 0,
    cost_usd: 0,
    num_turns: 0,
    handoff_path: null,
    degraded: false,
    reason: null,
    end: 'running',
    human_edit: null,
    ...(g.transcriptPath !== undefined ? { transcript_path: g.transcriptPath } : {}),
  };
}

export function startGeneration(
  m: Manifest,
  g: { generation: number; sessionId: string; now: string; transcriptPath?: string },
): Manifest {
  const record = runningGeneration(g);
  return withTotals({ ...m, session_id: g.sessionId, generations: [...m.generations, record] }, g.now);
}

function updateCurrent(m: Manifest, now: string, patch: (g: GenerationRecord) => GenerationRecord): Manifest {
  const last = m.generations.at(-1);
  if (!last) return m;
  return withTotals({ ...m, generations: [...m.generations.slice(0, -1), patch(last)] }, now);
}

type Usage = { context: number; costUsd?: number; numTurns?: number; now: string };

const withUsage =
  (u: Usage) =>
  (g: GenerationRecord): GenerationRecord => ({
    ...g,
    context: u.context,
    peak_context: Math.max(g.peak_context, u.context),
    cost_usd: u.costUsd ?? g.cost_usd,
    num_turns: u.numTurns ?? g.num_turns,
  });

export function recordUsage(m: Manifest, u: Usage): Manifest {
  return updateCurrent(m, u.now, withUsage(u));
}

/** a generation's last reading, which can land after its successor started (the writing turn's row) */
export function recordUsageOf(m: Manifest, generation: number, u: Usage): Manifest {
  if (!m.generations.some((g) => g.generation === generation)) return m;
  return withTotals(
    { ...m, generations: m.generations.map((g) => (g.generation === generation ? withUsage(u)(g) : g)) },
    u.now,
  );
}

// A generation ends: its session id is retired; a degraded end adds an error with its reason.
export function endGeneration(
  m: Manifest,
  e: {
    end: GenerationRecord['end'];
    now: string;
    handoffPath?: string | null;
    degraded?: boolean;
    reason?: string | null;
  },
): Manifest {
  const last = m.generations.at(-1);
  if (!last || last.ended_at !== null) return m;
  const ended = updateCurrent(m, e.now, (g) => ({
    ...g,
    ended_at: e.now,
    end: e.end,
    handoff_path: e.handoffPath ?? g.handoff_path,
    degraded: e.degraded ?? false,
    reason: e.reason ?? null,
  }));
  const retired =
    e.end === 'handoff' || e.end === 'degraded' || e.end === 'crash'
      ? [...ended.retired, last.session_id]
      : ended.retired;
  const errors =
    e.degraded && e.reason
      ? [...ended.errors, { generation: last.generation, at: e.now, reason: e.reason }]
      : ended.errors;
  return { ...ended, retired, errors, attempts: e.end === 'crash' ? ended.attempts + 1 : ended.attempts };
}

export function recordHumanEdit(
  m: Manifest,
  generation: number,
  edit: { changedSections: string[]; draftPath: string | null; now: string },
): Manifest {
  const generations = m.generations.map((g) =>
    g.generation === generation
      ? { ...g, human_edit: { changed_sections: edit.changedSections, draft_path: edit.draftPath } }
      : g,
  );
  return { ...m, generations, updated_at: edit.now };
}

export function recordPlace(m: Manifest, place: PlaceRecord, now: string): Manifest {
  return updateCurrent(m, now, (g) => ({ ...g, place }));
}

/** the transcript the newest generation writes now (claude moved it, or a /clear began a new one) */
export function recordTranscript(m: Manifest, path: string, now: string): Manifest {
  return updateCurrent(m, now, (g) => ({ ...g, transcript_path: path }));
}

/** the place the newest generation recorded (checked with the rest of the manifest when it was read) */
export function lastPlace(m: Manifest): PlaceRecord | null {
  return m.generations.at(-1)?.place ?? null;
}

export function recordOriginalPrompt(m: Manifest, prompt: string): Manifest {
  return m.original_prompt === null ? { ...m, original_prompt: prompt } : m;
}

// Reads back a manifest from JSON text through the one validation (manifest-check.ts); anything
// malformed yields the problem naming the field, never a throw.
export function parseManifest(text: string): { manifest: Manifest | null; problem: string | null } {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { manifest: null, problem: 'the manifest is not valid JSON' };
  }
  const checked = checkManifest(raw);
  return 'problem' in checked
    ? { manifest: null, problem: checked.problem }
    : { manifest: checked.value, problem: null };
}

// A readable lineage for `flower-pty status`.
export function describeManifest(m: Manifest): string[] {
  const lines = [
    `step ${m.step} · ${m.generations.length} generation(s) · window ${m.window} · handoff at ${m.at}`,
    `current session ${m.session_id ?? '(none)'} · retired ${m.retired.length} · failed attempts ${m.attempts}`,
    `cost $${m.cost_usd.toFixed(4)} · turns ${m.num_turns} · last context ${m.context}`,
  ];
  for (const g of m.generations) {
    const edit = g.human_edit
      ? ` · edited by a person (${g.human_edit.changed_sections.join(', ') || 'no section changed'})`
      : '';
    lines.push(
      `  #${g.generation} ${g.session_id} ${g.end}${g.degraded ? ' (degraded)' : ''} peak ${g.peak_context}` +
        `${g.handoff_path ? ` → ${g.handoff_path}` : ''}${g.reason ? ` · ${g.reason}` : ''}${edit}`,
    );
  }
  for (const e of m.errors) lines.push(`  error in #${e.generation}: ${e.reason}`);
  return lines;
}
