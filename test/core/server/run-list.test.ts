// Tests for choosing a run (exact id, this folder's workbench, this folder, the only run, else a list)
// and the ls table, with hostile text escaped.
import t from 'tap';
import { pickRun, runNeeds, runTable, type RunSummary } from '../../../src/core/server/run-list.js';

const run = (id: string, over: Partial<RunSummary> = {}): RunSummary => ({
  id,
  pid: 100,
  cwd: `/p/${id}`,
  workbench: `/p/${id}/.flower`,
  phase: 'working',
  generation: 1,
  context: 12_000,
  window: 200_000,
  clients: 0,
  started: '2026-12-01T04:00:00.000Z',
  ...over,
});
// `own`: how flower-pty is typed where the person is; a checkout's form, so its use shows in every next step
const here = (cwd: string, workbench: string | null = `${cwd}/.flower`) => ({
  cwd,
  workbench,
  command: 'attach',
  own: 'npx flower-pty',
});

t.test('an exact id wins; an unknown id lists the runs', async (t) => {
  const runs = [run('aaaaaa'), run('bbbbbb')];
  t.same(pickRun(runs, { ...here('/p/aaaaaa'), id: 'bbbbbb' }), { run: runs[1] });
  const missing = pickRun(runs, { ...here('/elsewhere'), id: 'cccccc' });
  t.match(missing, {
    problem: 'no live run has id cccccc; live runs: aaaaaa (working, /p/aaaaaa), bbbbbb (working, /p/bbbbbb)',
  });
  t.match(pickRun([], { ...here('/x'), id: 'cccccc' }), {
    problem: /no live run has id cccccc: no run is live \(npx flower-pty ls\)$/,
  });
  t.match(
    pickRun(runs, { ...here('/x'), id: 'aaaa' }),
    { problem: /no live run has id aaaa/ },
    'a prefix is not an id',
  );
});

t.test("no id: this folder's workbench, then this folder, then the only run", async (t) => {
  const a = run('aaaaaa', { cwd: '/p/a', workbench: '/shared/wb' });
  const b = run('bbbbbb', { cwd: '/p/b', workbench: '/p/b/.flower' });
  const c = run('cccccc', { cwd: '/p/c', workbench: null });
  t.same(pickRun([a, b, c], here('/p/x', '/shared/wb')), { run: a }, 'by workbench, even from another folder');
  t.same(pickRun([a, b, c], here('/p/c')), { run: c }, 'a run without a workbench, by its cwd');
  t.same(pickRun([b], here('/somewhere/else')), { run: b }, 'the only run');
  const none = pickRun([a, b], here('/somewhere/else'));
  t.match(none, {
    problem:
      /^2 runs are live and none is this folder's; pass an id \(npx flower-pty attach <id>\): aaaaaa \(working, \/p\/a\), bbbbbb/,
  });
  t.notMatch((none as { problem: string }).problem, /\n/, 'one line');
  const twins = pickRun([c, run('dddddd', { cwd: '/p/c', workbench: null })], here('/p/c', '/p/c/.flower'));
  t.match(twins, { problem: /^2 runs are live in this folder; pass an id/ });
  t.same(pickRun([], here('/p')), {
    problem:
      'no run is live for you on this machine (npx flower-pty ls); start one with npx flower-pty, or pick a lineage up with npx flower-pty --continue',
  });
});

t.test('the ls table: a header, aligned columns, escaped text', async (t) => {
  const lines = runTable([
    run('aaaaaa', {
      pid: 7,
      clients: 2,
      generation: 3,
      context: 150_000,
      started: '2026-12-01T04:00:00.123Z',
      status: { attention: 'parked until 03:04' },
    }),
    run('bb\u001b[2Jbb', { cwd: '/p/\u009bevil' }),
  ]);
  t.equal(lines.length, 3);
  t.match(lines[0], /^ID +PID +PHASE +GEN +CONTEXT +CLIENTS +STARTED +NEEDS +CWD$/);
  t.match(
    lines[1],
    /^aaaaaa +7 +working +3 +150\.0K\/200\.0K +2 +2026-12-01T04:00:00Z +parked on a limit until 03:04 +\/p\/aaaaaa$/,
  );
  t.match(lines[2], / +- +\/p\//, 'nothing needed: a dash');
  t.equal(lines[0]!.indexOf('PID'), lines[1]!.indexOf('7'), 'columns line up');
  t.notMatch(lines[2], /[\u001b\u009b]/, 'no control character reaches the terminal');
  t.match(lines[2], /bb\\x1b\[2Jbb/);
});

t.test('NEEDS: a review held for the person says so; held before the review is nothing yet', async (t) => {
  t.equal(
    runNeeds(run('aaaaaa', { phase: 'review', status: { attention: null, held: true } })),
    'in review, held for you (C-] p releases)',
  );
  t.equal(
    runNeeds(run('aaaaaa', { phase: 'working', status: { attention: null, held: true } })),
    '-',
    'the successor held in advance: nobody is waited for yet',
  );
  t.equal(
    runNeeds(
      run('aaaaaa', { phase: 'review', status: { attention: 'waiting for your permission: Bash x', held: true } }),
    ),
    'waiting for your permission: Bash x',
    'what needs the person first',
  );
  t.equal(
    runNeeds(run('aaaaaa', { phase: 'review', status: { attention: null, held: false } })),
    'in review',
    "a review that ends by itself: still the person's moment to read",
  );
  t.match(
    runTable([run('aaaaaa', { phase: 'review', status: { held: true } })])[1],
    /review .* in review, held for you \(C-\] p releases\) +\/p\/aaaaaa$/,
  );
});
