// What every face shows of a run: the meter, the phase, the generation, the review countdown, and
// what a person may need to know at once. Built by the core (run-view.ts), drawn by the faces.

export interface StatusView {
  phase: 'starting' | 'working' | 'near' | 'writing' | 'review' | 'respawning' | 'stopped';
  context: number;
  window: number;
  at: number;
  warnAt: number;
  generation: number;
  maxGenerations: number;
  handoff: boolean;
  /** seconds left in the review window, when in review */
  reviewLeft: number | null;
  held: boolean;
  workbench: string | null;
  documentPath: string | null;
  /** the last thing that happened, in words */
  note: string;
  /** the run needs a person or is parked: "parked until 03:04", "waiting for your permission: Bash touch x" */
  attention: string | null;
  /** the session's failures its frozen document leaves out (in review), or its successor's repeats of dead
   *  ends: "2 failures not in the document", "1 dead end repeated"; null (or absent): nothing */
  deadEnds?: string | null;
}
