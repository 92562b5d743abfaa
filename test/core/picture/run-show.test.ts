// Tests for what a run shows: each case of the reducer, what a face that comes late is told and in
// which order, when a state starts again, and that the wire carries every kind as it is.
import t from 'tap';
import {
  isRunShow,
  NOTHING_SHOWN,
  reduceShown,
  RUN_SHOW_KINDS,
  shownChild,
  shownLatest,
  stateChanged,
  type RunShow,
  type RunShowKind,
  type Shown,
} from '../../../src/core/picture/run-show.js';
import type { StatusView } from '../../../src/core/screen/status.js';
import { statusView } from '../../helpers/status-view.js';
import { parseServerMessage } from '../../../src/server/wire.js';

const view = (over: Partial<StatusView> = {}): StatusView => statusView({ documentPath: '/w/notes/doc.md', ...over });

// One of each kind: a kind added to RunShow without a sample here fails to compile.
const SAMPLES: Record<RunShowKind, RunShow> = {
  title: { t: 'title', title: 'claude: fixing the tailer' },
  status: { t: 'status', view: view() },
  document: { t: 'document', path: '/w/notes/doc.md', text: '## Doing\nporting\n' },
  message: { t: 'message', text: 'flower-pty: the successor starts in 5s' },
  child: { t: 'child', state: 'started' },
};

t.test('each case of the reducer keeps the latest of its kind and leaves the rest', async (t) => {
  const expected: Record<RunShowKind, Partial<Shown>> = {
    title: { title: 'claude: fixing the tailer' },
    status: { view: view() },
    document: { document: { path: '/w/notes/doc.md', text: '## Doing\nporting\n' } },
    message: { message: 'flower-pty: the successor starts in 5s' },
    child: { child: 'started' },
  };
  t.same([...RUN_SHOW_KINDS].sort(), Object.keys(SAMPLES).sort(), 'every kind is listed');
  for (const kind of RUN_SHOW_KINDS) {
    const after = reduceShown(NOTHING_SHOWN, SAMPLES[kind]);
    t.same(after, { ...NOTHING_SHOWN, ...expected[kind] }, `${kind}: only its own field changes`);
  }
  t.same(
    NOTHING_SHOWN,
    { title: null, view: null, document: null, message: null, child: null },
    'nothing changed in place',
  );
});

t.test(
  'a later word of a kind replaces the earlier one; an empty title and a missing file are words too',
  async (t) => {
    let shown = NOTHING_SHOWN;
    for (const show of Object.values(SAMPLES)) shown = reduceShown(shown, show);
    shown = reduceShown(shown, { t: 'title', title: '' });
    shown = reduceShown(shown, { t: 'document', path: '/w/notes/doc.md', text: null });
    shown = reduceShown(shown, { t: 'child', state: 'ended' });
    shown = reduceShown(shown, { t: 'status', view: view({ phase: 'review', reviewLeft: 12 }) });
    t.equal(shown.title, '');
    t.same(shown.document, { path: '/w/notes/doc.md', text: null });
    t.equal(shown.child, 'ended');
    t.equal(shown.view?.phase, 'review');
    t.equal(shown.message, 'flower-pty: the successor starts in 5s', 'kept while no other line came');
  },
);

t.test('a late face is told the child first, then (after the screen) the title, status and document', async (t) => {
  t.same(shownLatest(NOTHING_SHOWN), [], 'nothing said: nothing told');
  t.equal(shownChild(NOTHING_SHOWN), null);
  let shown = NOTHING_SHOWN;
  for (const kind of ['document', 'message', 'status', 'title', 'child'] as const)
    shown = reduceShown(shown, SAMPLES[kind]);
  t.same(
    shownLatest(shown).map((m) => m.t),
    ['title', 'status', 'document'],
    'in this order, whatever the order they were said in; a message was for its moment',
  );
  t.same(shownLatest(shown), [SAMPLES.title, SAMPLES.status, SAMPLES.document]);
  t.same(shownChild(shown), { t: 'child', state: 'started' });
  t.same(shownChild(reduceShown(shown, { t: 'child', state: 'ended' })), { t: 'child', state: 'ended' });
});

t.test('the state starts again when the phase or what the run waits for changes, not on anything else', async (t) => {
  const working = reduceShown(NOTHING_SHOWN, { t: 'status', view: view() });
  t.ok(stateChanged(NOTHING_SHOWN, working), 'the first status');
  t.notOk(stateChanged(working, reduceShown(working, { t: 'status', view: view({ context: 90_000 }) })), 'the meter');
  t.notOk(stateChanged(working, reduceShown(working, SAMPLES.title)), 'a title');
  t.ok(stateChanged(working, reduceShown(working, { t: 'status', view: view({ phase: 'writing' }) })), 'the phase');
  t.ok(
    stateChanged(working, reduceShown(working, { t: 'status', view: view({ attention: 'waiting for you' }) })),
    'what it waits for',
  );
});

t.test('isRunShow tells what a run shows from the rest of a stream', async (t) => {
  for (const show of Object.values(SAMPLES)) t.ok(isRunShow(show), show.t);
  for (const other of ['output', 'screen', 'size', 'welcome', 'info', 'bye'])
    t.notOk(isRunShow({ t: other }), `${other} is not`);
});

t.test('the wire carries every kind as it is (the native client and the page read the same JSON)', async (t) => {
  for (const show of [...Object.values(SAMPLES), { t: 'child', state: 'ended' } as const]) {
    const back = parseServerMessage(JSON.parse(JSON.stringify(show)));
    t.same(back, show, `${show.t} comes back whole`);
    t.ok(back && isRunShow(back), `${show.t} is read as a thing shown`);
  }
  t.equal(parseServerMessage({ t: 'document', path: '/d', text: 3 }), null, 'a malformed one is refused');
});
