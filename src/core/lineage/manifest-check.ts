// The one validation every reader of manifest.json goes through (status, --continue, report, the
// demo): each field's type and range, the step as a file-name-safe name, and the first bad field
// named by its path (`generations[3].cost_usd is "lots", expected a number`). Fields older
// manifests did not have are filled with their neutral value; a field that is there must be right.
// A loop, never a spread, over the generations: a 72,000-generation lineage is still a list.

import type { GenerationRecord, Manifest, ManifestError } from './manifest-shape.js';
import { sanitizeStep } from '../document/step-name.js';

type Checked<T> = { value: T } | { problem: string };

class Bad extends Error {}

function shown(x: unknown): string {
  if (x === undefined) return 'missing';
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x);
  const text = JSON.stringify(x) ?? String(x);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function fail(path: string, x: unknown, expected: string): never {
  throw new Bad(`${path} is ${shown(x)}, expected ${expected}`);
}

function obj(x: unknown, path: string): Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) fail(path, x, 'an object');
  return x as Record<string, unknown>;
}

function str(x: unknown, path: string): string {
  if (typeof x !== 'string') fail(path, x, 'a string');
  return x;
}

function strOrNull(x: unknown, path: string, missing: 'null-if-missing' | 'required' = 'required'): string | null {
  if (x === undefined && missing === 'null-if-missing') return null;
  if (x !== null && typeof x !== 'string') fail(path, x, 'a string or null');
  return x;
}

function count(x: unknown, path: string, fallback?: number): number {
  if (x === undefined && fallback !== undefined) return fallback;
  if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) fail(path, x, 'a number of 0 or more');
  return x;
}

function list<T>(x: unknown, path: string, item: (y: unknown, p: string) => T, fallback?: T[]): T[] {
  if (x === undefined && fallback !== undefined) return fallback;
  if (!Array.isArray(x)) fail(path, x, 'a list');
  const out: T[] = [];
  for (let i = 0; i < x.length; i++) out.push(item(x[i], `${path}[${i}]`));
  return out;
}

const ENDS: ReadonlyArray<GenerationRecord['end']> = ['running', 'handoff', 'degraded', 'quit', 'stopped', 'crash'];

function generationOf(x: unknown, path: string): GenerationRecord {
  const g = obj(x, path);
  const generation = g.generation;
  if (typeof generation !== 'number' || !Number.isInteger(generation) || generation < 1)
    fail(`${path}.generation`, generation, 'a whole number of at least 1');
  const end = g.end;
  if (!ENDS.includes(end as GenerationRecord['end'])) fail(`${path}.end`, end, `one of ${ENDS.join(', ')}`);
  const degraded = g.degraded ?? false;
  if (typeof degraded !== 'boolean') fail(`${path}.degraded`, degraded, 'true or false');
  let human_edit: GenerationRecord['human_edit'] = null;
  if (g.human_edit !== undefined && g.human_edit !== null) {
    const h = obj(g.human_edit, `${path}.human_edit`);
    human_edit = {
      changed_sections: list(h.changed_sections, `${path}.human_edit.changed_sections`, str, []),
      draft_path: strOrNull(h.draft_path, `${path}.human_edit.draft_path`, 'null-if-missing'),
    };
  }
  let place: GenerationRecord['place'];
  if (g.place !== undefined && g.place !== null) {
    const p = obj(g.place, `${path}.place`);
    place = {
      folder: strOrNull(p.folder, `${path}.place.folder`, 'null-if-missing'),
      permission_mode: strOrNull(p.permission_mode, `${path}.place.permission_mode`, 'null-if-missing'),
      added_dirs: list(p.added_dirs, `${path}.place.added_dirs`, str, []),
    };
  }
  return {
    generation,
    session_id: str(g.session_id, `${path}.session_id`),
    started_at: str(g.started_at, `${path}.started_at`),
    ended_at: strOrNull(g.ended_at, `${path}.ended_at`, 'null-if-missing'),
    peak_context: count(g.peak_context, `${path}.peak_context`, 0),
    context: count(g.context, `${path}.context`, 0),
    cost_usd: count(g.cost_usd, `${path}.cost_usd`, 0),
    num_turns: count(g.num_turns, `${path}.num_turns`, 0),
    handoff_path: strOrNull(g.handoff_path, `${path}.handoff_path`, 'null-if-missing'),
    degraded,
    reason: strOrNull(g.reason, `${path}.reason`, 'null-if-missing'),
    end: end as GenerationRecord['end'],
    human_edit,
    ...(place ? { place } : {}),
    ...(g.transcript_path !== undefined && g.transcript_path !== null
      ? { transcript_path: str(g.transcript_path, `${path}.transcript_path`) }
      : {}),
  };
}

function errorOf(x: unknown, path: string): ManifestError {
  const e = obj(x, path);
  return {
    generation: count(e.generation, `${path}.generation`),
    at: str(e.at, `${path}.at`),
    reason: str(e.reason, `${path}.reason`),
  };
}

/** a step name read from a file: exactly what --step would have made of it, so it cannot climb out of notes/ */
export function checkStoredStep(x: unknown, path = 'step'): Checked<string> {
  if (typeof x !== 'string') return { problem: `${path} is ${shown(x)}, expected a step name` };
  if (x === '' || sanitizeStep(x) !== x)
    return { problem: `${path} is ${shown(x)}, which is not a step name (letters, digits, '-', '_', '.')` };
  return { value: x };
}

export function checkManifest(raw: unknown): Checked<Manifest> {
  try {
    const m = obj(raw, 'the manifest');
    if (m.version !== 1) fail('version', m.version, '1');
    const step = checkStoredStep(m.step);
    if ('problem' in step) return step;
    const manifest: Manifest = {
      version: 1,
      step: step.value,
      cwd: str(m.cwd, 'cwd'),
      window: count(m.window, 'window'),
      at: count(m.at, 'at'),
      attempts: count(m.attempts, 'attempts', 0),
      session_id: strOrNull(m.session_id, 'session_id', 'null-if-missing'),
      retired: list(m.retired, 'retired', str),
      context: count(m.context, 'context', 0),
      cost_usd: count(m.cost_usd, 'cost_usd', 0),
      num_turns: count(m.num_turns, 'num_turns', 0),
      errors: list(m.errors, 'errors', errorOf, []),
      generations: list(m.generations, 'generations', generationOf),
      original_prompt: strOrNull(m.original_prompt, 'original_prompt', 'null-if-missing'),
      updated_at: m.updated_at === undefined ? '' : str(m.updated_at, 'updated_at'),
    };
    if (m.events_path !== undefined) manifest.events_path = strOrNull(m.events_path, 'events_path');
    return { value: manifest };
  } catch (error) {
    if (error instanceof Bad) return { problem: error.message };
    throw error;
  }
}
