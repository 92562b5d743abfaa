// The manifest's shape on disk (manifest.json, version 1): the lineage of one run as its readers and its
// writers both see it. Types only: manifest.ts builds it, manifest-check.ts validates what is read.

export interface GenerationRecord {
  generation: number;
  session_id: string;
  started_at: string;
  ended_at: string | null;
  peak_context: number;
  context: number;
  cost_usd: number;
  num_turns: number;
  handoff_path: string | null;
  degraded: boolean;
  reason: string | null;
  end: 'running' | 'handoff' | 'degraded' | 'quit' | 'stopped' | 'crash';
  /** set when a person edited the frozen document before the successor read it */
  human_edit: { changed_sections: string[]; draft_path: string | null } | null;
  /** where the session was by Claude Code's word, for a successor started by --continue (absent: not known) */
  place?: PlaceRecord;
  /** where claude writes this session's transcript (its own config folder's), for `flower-pty report`
   * (absent: a manifest from before it was recorded) */
  transcript_path?: string;
}

export interface PlaceRecord {
  folder: string | null;
  permission_mode: string | null;
  added_dirs: string[];
}

export interface ManifestError {
  generation: number;
  at: string;
  reason: string;
}

export interface Manifest {
  version: 1;
  step: string;
  cwd: string;
  window: number;
  at: number;
  /** failed attempts only (crashes); handoffs never count */
  attempts: number;
  /** always the newest successor */
  session_id: string | null;
  retired: string[];
  /** the main-thread context the last turn actually saw */
  context: number;
  cost_usd: number;
  num_turns: number;
  errors: ManifestError[];
  generations: GenerationRecord[];
  /** the first human prompt of the lineage, for degraded documents */
  original_prompt: string | null;
  /** the --events file of the run that wrote this manifest, for `flower-pty report` (absent: none) */
  events_path?: string | null;
  updated_at: string;
}
