// A freeze (core/decide/stages/freezing.ts), driven directly: the facts gathered, the document written (or
// not), the manifest closing the generation, the review opened; a document written again before a
// successor is told about it; a write that fails and works again.
import t from 'tap';
import { documentWritten, factsGathered, writeResult } from '../../../src/core/decide/stages/freezing.js';
import { seedRead } from '../../../src/core/decide/sources/claude-life.js';
import type { RunInput, RunState } from '../../../src/core/run/run-state.js';
import { COMPLETE_DOC, docLanded, given, names, reading, stopHook, through, working, table } from './run.js';

type Written = Extract<RunInput, { type: 'document-written' }>;
const frozen = () => given([reading(152_000), stopHook('', 1), docLanded(), stopHook(COMPLETE_DOC, 2)], {}, working());
const gathered = () =>
  through(frozen(), factsGathered, { type: 'facts-gathered', now: 3, generation: 1, git: null }).state;
const written = (over: Partial<Written> = {}): Written => ({
  type: 'document-written',
  now: 4,
  generation: 1,
  path: '/p/.flower/notes/doc.md',
  archived: null,
  error: null,
  ...over,
});

const rows: Array<{
  name: string;
  given: () => RunState;
  event: Written;
  effects: string[];
  state?: (s: RunState) => unknown;
  expect?: unknown;
}> = [
  {
    name: 'written: the generation ends as a handoff and the review opens',
    given: gathered,
    event: written(),
    effects: ['done', 'review'],
    state: (s) => [s.freezing, s.kept, s.manifest.generations[0]?.end, s.frozen?.path],
    expect: [false, s0(), 'handoff', '/p/.flower/notes/doc.md'],
  },
  {
    name: 'an archived older document is said',
    given: gathered,
    event: written({ archived: '/p/.flower/notes/old.md' }),
    effects: ['archived', 'done', 'review'],
  },
  {
    name: 'not written (a full disk): said at once, the document kept in memory, never "written"',
    given: gathered,
    event: written({ path: null, error: 'ENOSPC' }),
    effects: ['write-failed', 'done', 'review'],
    state: (s) => [s.trouble?.what, s.kept !== null, /ENOSPC/.test(s.note)],
    expect: ['document', true, true],
  },
  {
    name: 'a write for another generation is not this one',
    given: gathered,
    event: written({ generation: 7 }),
    effects: [],
    state: (s) => s.freezing,
    expect: true,
  },
];
function s0(): string | null {
  return gathered().pendingFreeze?.text ?? null;
}

table(rows, (s, row) => through(s, documentWritten, row.event));

t.test('the facts gathered complete the document, which is then written', async (t) => {
  const f = frozen();
  t.same([f.freezing, f.pendingFreeze?.text], [true, null], 'waiting for its facts');
  const g = through(f, factsGathered, { type: 'facts-gathered', now: 3, generation: 1, git: null });
  t.same(names(g.effects), ['write-document']);
  t.match(
    g.state.pendingFreeze?.text,
    /## Doing[^\n]*\n\nbuilding the thing[\s\S]*\[flower-pty facts · written by flower-pty, not by the model\]/,
    "the model's document with flower-pty's own facts",
  );
  t.same(
    names(through(g.state, factsGathered, { type: 'facts-gathered', now: 3, generation: 1, git: null }).effects),
    [],
    'only once',
  );
});

t.test(
  'a frozen document that never reached the disk is written once more before the successor is told of it',
  async (t) => {
    const failed = through(gathered(), documentWritten, written({ path: null, error: 'ENOSPC' })).state;
    const retry = through(failed, seedRead, { type: 'seed-read', now: 20_000, generation: 2, onDisk: null });
    t.same(names(retry.effects), ['write-document']);
    const again = through(retry.state, documentWritten, written({ generation: 2, now: 20_001 }));
    t.same(names(again.effects), ['write-recovered', 'spawn'], 'written again: the successor starts from it');
    t.equal(again.state.trouble, null);
  },
);

t.test('a manifest write that fails, then works again', async (t) => {
  const down = through(working(), writeResult, {
    type: 'write-result',
    now: 1,
    what: 'manifest',
    path: '/p/.flower/manifest.json',
    error: 'ENOSPC',
  });
  t.same(names(down.effects), ['write-failed']);
  const up = through(down.state, writeResult, {
    type: 'write-result',
    now: 2,
    what: 'manifest',
    path: '/p/.flower/manifest.json',
    error: null,
  });
  t.same(names(up.effects), ['write-recovered']);
  t.same([up.state.trouble, up.state.note], [null, '/p/.flower/manifest.json is written again']);
});
