// Report models for the tests of what another machine may send: one with every part the page draws filled
// in, and markup to put in its leaves (what a hostile host's `report --json` would carry).
import type { ReportModel } from '../../src/core/report/report-model.js';

/** a model with every part the page draws filled in */
export const fullModel: ReportModel = {
  version: 1,
  generatedAt: '2026-12-05T00:00:00.000Z',
  workbench: '/w',
  step: 'work',
  cwd: '/p',
  live: false,
  startedAt: '2026-12-04T23:00:00.000Z',
  endedAt: '2026-12-05T00:00:00.000Z',
  spanMs: 3_600_000,
  costUsd: 1.5,
  turns: 12,
  ending: 'generation 1: handed off',
  thresholds: { window: 200_000, at: 150_000, warnAt: 120_000 },
  notes: ['a note'],
  deadEndsTrend: 'failures its writer carried into the document: #1 1 of 2',
  generations: [
    {
      n: 1,
      sessionId: 's1',
      startedAt: '2026-12-04T23:00:00.000Z',
      endedAt: '2026-12-05T00:00:00.000Z',
      durationMs: 3_600_000,
      end: 'handoff',
      endWords: 'handed off: it wrote its document',
      peak: 151_000,
      costUsd: 1.5,
      turns: 12,
      problems: ['p'],
      remarks: ['r'],
      transcript: {
        path: '/t.jsonl',
        found: true,
        problem: null,
        bytes: 10,
        readings: 2,
        junkLines: 0,
        droppedLines: 0,
        untimed: false,
      },
      curve: [
        { t: 1_796_425_200_000, v: 1000, line: 1 },
        { t: 1_796_428_000_000, v: 151_000, line: 9 },
      ],
      handoffAsked: { t: 1_796_428_000_000, v: 151_000, line: 9, source: 'events' },
      compactions: [{ t: 1_796_427_000_000, v: 90_000, line: 5, preTokens: 90_000 }],
      overflows: [{ t: 1_796_427_500_000, v: 0, line: 6, text: 'overflow' }],
      document: {
        path: '/w/notes/d.md',
        text: '# doc',
        bytes: 5,
        truncated: false,
        edit: {
          changedSections: ['Scene'],
          draftPath: '/w/d.draft.md',
          draftFound: true,
          diff: {
            lines: [
              { op: 'same', text: 'a' },
              { op: 'add', text: 'b' },
            ],
            added: 1,
            removed: 0,
            coarse: false,
          },
        },
      },
      deadEnds: {
        seen: 2,
        byWriter: 1,
        byFacts: 1,
        notAtAll: 0,
        missing: ['make'],
        repeats: [{ call: 'make', deadEnd: 'make fails', line: 3, ok: false }],
        repeatCount: 1,
      },
      coverage: {
        categories: {
          files: { found: 1, total: 2 },
          dead_ends: { found: 0, total: 0 },
          instructions: { found: 1, total: 1 },
          tasks: { found: 0, total: 0 },
          identifiers: { found: 2, total: 3 },
        },
        missing: ['files: a.ts'],
        asked: true,
        amended: true,
        skipped: [],
      },
      firstPrompt: { text: 'go', source: 'original', path: null, note: "the person's prompt" },
    },
  ],
  otherDocuments: [{ path: '/w/notes/archive/x.md', text: 'x', bytes: 1, truncated: false, edit: null }],
};

// Every leaf of a model (strings, numbers, flags, words alike) replaced by markup: what a model that
// skipped the checks would put in the page.
export const MARKUP = markup('http://127.0.0.1:9/');

/** a script, an image whose error runs script, and a refresh that would move the tab to `url` */
export function markup(url: string): string {
  return `"><script>window.__pwned=1</script><img src="${url}x.png" onerror="window.__pwned=2"><meta http-equiv="refresh" content="0;url=${url}">`;
}
export function everyLeaf(value: unknown, leaf: (v: unknown, key: string) => unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => everyLeaf(v, leaf, key));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, everyLeaf(v, leaf, k)]));
  return leaf(value, key);
}

/** the fields whose strings are times or words of a known set: what a host can put markup in is every other string */
export const NOT_FREE_TEXT = new Set(['generatedAt', 'startedAt', 'endedAt', 'end', 'source', 'op']);

/** the full model with `text` in every string a host may fill freely */
export function hostileStrings(text: string): ReportModel {
  return everyLeaf(fullModel, (v, key) => (typeof v === 'string' && !NOT_FREE_TEXT.has(key) ? text : v)) as ReportModel;
}
