// Tests for the one picture of a run: each state in words, who needs the person, the order every list
// shows (needs first, then the last to do anything), and that ls, the web dashboard and the picture agree.
import t from 'tap';
import {
  durationText,
  listedStateChanged,
  pictureOrder,
  runPicture,
  runState,
  type RunFacts,
} from '../../../src/core/picture/run-picture.js';
import { runTable } from '../../../src/core/server/run-list.js';
import { stateText, urgency } from '../../../src/core/web/web-dashboard.js';
import type { StatusView } from '../../../src/core/screen/status.js';
import { statusView } from '../../helpers/status-view.js';

const view = statusView;
const run = (id: string, over: Partial<RunFacts> = {}, v: Partial<StatusView> = {}): RunFacts => ({
  id,
  cwd: `/p/${id}`,
  phase: v.phase ?? 'working',
  generation: 2,
  context: 50_000,
  window: 200_000,
  started: '2026-12-01T04:00:00.000Z',
  status: view(v),
  ...over,
});

t.test('each state in words, and whether it needs the person', async (t) => {
  const cases: Array<[Partial<StatusView>, string, string, boolean]> = [
    [{}, 'working', 'working', false],
    [{ phase: 'near' }, 'working', 'working', false],
    [
      { attention: 'waiting for your permission: Bash touch x' },
      'permission',
      'waiting for your permission: Bash touch x',
      true,
    ],
    [
      { attention: 'claude asks: Which parser? (A / B)' },
      'question',
      'asking you a question: Which parser? (A / B)',
      true,
    ],
    [{ phase: 'review', reviewLeft: 11.2 }, 'review', 'in review (12 s left)', true],
    [{ phase: 'review', held: true }, 'review', 'in review, held for you (C-] p releases)', true],
    [{ phase: 'writing' }, 'writing', 'writing its handoff', false],
    [{ attention: 'parked until 03:04' }, 'parked', 'parked on a limit until 03:04', false],
    [{ attention: 'parked on a usage limit' }, 'parked', 'parked on a usage limit', false],
    [{ attention: 'waiting for you' }, 'idle', 'idle at its prompt', false],
    [{ phase: 'stopped' }, 'exited', 'exited', false],
    [{ phase: 'respawning' }, 'starting', 'starting its successor', false],
    [
      { attention: 'disk trouble: the handoff document not written (ENOSPC)' },
      'trouble',
      'disk trouble: the handoff document not written (ENOSPC)',
      true,
    ],
    [{ attention: 'no hooks: requests are typed' }, 'working', 'working', false],
  ];
  for (const [v, activity, words, needs] of cases) {
    const p = runPicture(run('a', {}, v));
    t.same([p.activity, p.words, p.needsPerson], [activity, words, needs], words);
  }
  t.equal(runPicture(run('a', { status: null, phase: 'starting' })).words, 'starting', 'no status yet');
  t.equal(
    runState({ phase: 'working', status: { attention: 'waiting for you' } }).words,
    'idle at its prompt',
    'an attention alone (an older listing)',
  );
});

t.test('the meter, the generation, since when', async (t) => {
  const p = runPicture(run('a', { since: '2026-12-01T04:10:00.000Z', active: '2026-12-01T04:12:00.000Z' }));
  t.same(p.meter, { context: 50_000, window: 200_000, at: 160_000, warnAt: 140_000, handoff: true });
  t.same([p.generation, p.maxGenerations], [2, 10]);
  t.equal(p.since, Date.parse('2026-12-01T04:10:00.000Z'));
  t.equal(p.lastActive, Date.parse('2026-12-01T04:12:00.000Z'), 'the last output');
  const old = runPicture(run('b', { status: { attention: null } }));
  t.equal(old.since, null, 'an older server does not say');
  t.equal(old.lastActive, Date.parse('2026-12-01T04:00:00.000Z'), 'its start, then');
  t.equal(old.meter.at, 200_000, 'no view: no handoff line inside the window');
  t.equal(runPicture(run('c', { since: 'garbage' })).since, null, 'a time that is no time is unknown, not 1970');
  t.equal(durationText(null, 0), '');
  t.same(
    [5_000, 125_000, 3 * 3600_000 + 5, 50 * 3600_000].map((d) => durationText(1000, 1000 + d)),
    ['5s', '2m', '3h', '2d'],
  );
  t.equal(durationText(2000, 1000), '0s', 'a clock a little behind is not negative');
});

t.test('needs first, most urgent first, then the last to do anything', async (t) => {
  const at = (m: number) => `2026-12-01T04:${String(m).padStart(2, '0')}:00.000Z`;
  const runs = [
    run('work-old', { active: at(1) }),
    run('work-new', { active: at(9) }),
    run('idle', { active: at(8) }, { attention: 'waiting for you' }),
    run('review', { active: at(2) }, { phase: 'review', reviewLeft: 3 }),
    run('perm', { active: at(3) }, { attention: 'waiting for your permission: Bash ls' }),
    run('parked', { active: at(4) }, { attention: 'parked until 05:00' }),
    run('gone', { active: at(5) }, { phase: 'stopped' }),
  ];
  t.same(
    pictureOrder(runs).map((r) => r.id),
    ['perm', 'review', 'parked', 'idle', 'gone', 'work-new', 'work-old'],
  );
  t.same(
    pictureOrder([run('b'), run('a')]).map((r) => r.id),
    ['a', 'b'],
    'nothing tells them apart: by id',
  );
});

t.test('ls, the web dashboard and the picture say the same', async (t) => {
  for (const v of [
    { attention: 'waiting for your permission: Bash touch x' },
    { phase: 'review' as const, reviewLeft: 4 },
    { attention: 'parked until 03:04' },
    { attention: 'claude asks: Why?' },
  ]) {
    const r = { ...run('aaaaaa', {}, v), status: view(v) };
    const p = runPicture(r);
    t.equal(stateText(r), p.words, 'the dashboard row');
    t.equal(urgency(r), p.urgency, 'the dashboard order');
    const row = runTable([{ ...r, pid: 1, workbench: null, clients: 0 }])[1]!;
    t.ok(row.includes(p.words), `ls: ${p.words}`);
  }
  t.match(
    runTable([{ ...run('bbbbbb'), pid: 1, workbench: null, clients: 0 }])[1],
    / - +\/p\/bbbbbb$/,
    'a working run needs nothing',
  );
});

t.test('a listed run\'s "since" starts again when its phase or what it waits for changes, not otherwise', async (t) => {
  const working = { phase: 'working', status: { attention: null } };
  t.equal(listedStateChanged(undefined, working), true, 'a run seen for the first time starts its clock');
  t.equal(listedStateChanged(working, { phase: 'working', status: { attention: null } }), false);
  t.equal(listedStateChanged(working, { phase: 'working', status: null }), false, 'no status is no attention');
  t.equal(listedStateChanged(working, { phase: 'review', status: { attention: null } }), true);
  t.equal(listedStateChanged(working, { phase: 'working', status: { attention: 'permission' } }), true);
});
