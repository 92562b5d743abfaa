// A run's full status view for tests of what a run shows and how its picture reads: a working second
// generation, half its window used, with only what a test names changed.
import type { StatusView } from '../../src/core/screen/status.js';

export const statusView = (over: Partial<StatusView> = {}): StatusView => ({
  phase: 'working',
  context: 50_000,
  window: 200_000,
  at: 160_000,
  warnAt: 140_000,
  generation: 2,
  maxGenerations: 10,
  handoff: true,
  reviewLeft: null,
  held: false,
  workbench: '/w',
  documentPath: null,
  note: '',
  attention: null,
  ...over,
});
