// A person's edits of the document (core/decide/sources/edits.ts), driven directly: what the review does with
// one, the note a running successor is told at its next boundary, a removed document, a broken one.
import t from 'tap';
import { documentChanged, draftSaved } from '../../../src/core/decide/sources/edits.js';
import type { RunInput, RunState } from '../../../src/core/run/run-state.js';
import { hookCalled } from '../../../src/core/decide/sources/hooks.js';
import { COMPLETE_DOC, edited, given, names, postTool, reading, stopHook, through, working, table } from './run.js';

type Changed = Extract<RunInput, { type: 'document-changed' }>;
const edit = (s: RunState, ...texts: Array<string | null>) =>
  through(s, documentChanged, ...texts.map((x) => edited(x, 5) as Changed));
// A successor that started from COMPLETE_DOC.
const successor = () => through(working({}, 2, true), (o) => o.set({ seededText: COMPLETE_DOC }), null).state;
const changed = COMPLETE_DOC.replace('use tap', 'use node:test');

const rows: Array<{
  name: string;
  given: () => RunState;
  texts: Array<string | null>;
  effects: string[];
  state?: (s: RunState) => unknown;
  expect?: unknown;
}> = [
  {
    name: 'generation 1 has no document to be told about',
    given: working,
    texts: [changed],
    effects: [],
    state: (s) => [s.cycle.pendingNote, s.pendingEditNote],
    expect: [false, null],
  },
  {
    name: 'a successor is told at its next boundary',
    given: successor,
    texts: [changed],
    effects: ['edit-pending'],
    state: (s) => [s.cycle.pendingNote, /Changed: decided/.test(s.pendingEditNote ?? ''), s.seededText],
    expect: [true, true, changed],
  },
  {
    name: 'the same text again is no edit',
    given: successor,
    texts: [COMPLETE_DOC],
    effects: [],
    state: (s) => s.cycle.pendingNote,
    expect: true,
  },
  {
    name: 'a document that lacks sections is said, and the successor gets what parses',
    given: working,
    texts: ['# just a title'],
    effects: ['document-problem'],
  },
  {
    name: 'a removed document: the successor will get the kept copy',
    given: working,
    texts: [null],
    effects: ['document-removed'],
    state: (s) => s.note,
    expect: 'the document was removed; the successor will get the copy flower-pty kept',
  },
  {
    name: 'during the review an edit keeps it open until the file is quiet',
    given: () => through(working(), (o) => o.cycle({ phase: 'review', reviewUntil: 1_000 }), null).state,
    texts: [changed],
    effects: [],
    state: (s) => s.cycle.reviewUntil,
    expect: 5 + 2_000,
  },
  {
    name: '… and never shortens it',
    given: () => through(working(), (o) => o.cycle({ phase: 'review', reviewUntil: 9_000 }), null).state,
    texts: [changed],
    effects: [],
    state: (s) => s.cycle.reviewUntil,
    expect: 9_000,
  },
];

table(rows, (s, row) => edit(s, ...row.texts));

t.test('the note is delivered once, at the next boundary; a due handoff wins over it', async (t) => {
  const noted = edit(successor(), changed).state;
  const hooks = (s: RunState, ...events: RunInput[]) =>
    through(s, hookCalled, ...(events as Array<Extract<RunInput, { type: 'hook' }>>));
  const first = hooks(noted, postTool(6));
  t.same(names(first.effects, first.state), ['edit-sent', 'reply:block-note']);
  t.same([first.state.cycle.pendingNote, first.state.pendingEditNote], [false, null]);
  t.same(names(hooks(first.state, stopHook('', 7)).effects), ['reply:pass'], 'delivered once');
  // Its first reading below the line (a first reading above it would be a session born high).
  const both = edit(given([reading(100_000, 4, 2)], {}, successor()), changed).state;
  const due = hooks(given([reading(160_000, 6, 2)], {}, both), stopHook('', 7));
  t.same(names(due.effects, due.state), ['writing', 'reply:block-handoff'], 'the handoff is asked for; the note waits');
});

t.test("the model's draft kept beside a changed document is recorded", async (t) => {
  const { state, effects } = through(working(), draftSaved, {
    type: 'draft-saved',
    now: 9,
    generation: 1,
    changed: ['decided'],
    path: '/p/.flower/notes/doc.draft.md',
  });
  t.same(names(effects), ['human-edit']);
  t.match(state.manifest.generations[0], {
    human_edit: { changed_sections: ['decided'], draft_path: '/p/.flower/notes/doc.draft.md' },
  });
});
