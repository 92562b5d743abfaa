// Tests for the bell and notification of the person's other runs: once when a run starts waiting for
// the person, not on every look, never for the run in front, and not at all with notifications off.
import t from 'tap';
import { elsewhereAlerts, type ElsewhereSeen } from '../../../src/core/picture/elsewhere-alerts.js';

type Facts = {
  id: string;
  cwd: string;
  phase: string;
  status: { attention?: string | null; held?: boolean; phase?: string; reviewLeft?: number | null } | null;
};
const working = (id: string): Facts => ({ id, cwd: `/p/${id}`, phase: 'working', status: { attention: null } });
const asking = (id: string, tool = 'Bash touch x'): Facts => ({
  id,
  cwd: `/p/${id}`,
  phase: 'working',
  status: { attention: `waiting for your permission: ${tool}` },
});
const review = (id: string, left: number): Facts => ({
  id,
  cwd: `/p/${id}`,
  phase: 'review',
  status: { phase: 'review', reviewLeft: left, held: false, attention: null },
});

/** the looks in turn, from the first: the alerts of each */
function looks(rounds: Facts[][], self: string | null = 'front', notify = true): string[][] {
  let seen: ElsewhereSeen = null;
  return rounds.map((runs) => {
    const next = elsewhereAlerts(seen, runs as never, self, notify);
    seen = next.seen;
    return next.alerts.map((a) => `${a.title} | ${a.body}`);
  });
}

t.test('rings once when another run starts waiting for the person', async (t) => {
  const out = looks([
    [working('front'), working('b')],
    [working('front'), asking('b')],
    [working('front'), asking('b')],
    [working('front'), asking('b')],
  ]);
  t.same(out, [[], ['flower-pty: run b waits for you | waiting for your permission: Bash touch x (/p/b)'], [], []]);
});

t.test('a run already waiting when the terminal joins is not rung (the status bar says it)', async (t) => {
  t.same(looks([[asking('b')], [asking('b')]]), [[], []]);
});

t.test('a new thing to wait for rings again; waiting, then not, then waiting again rings twice', async (t) => {
  const out = looks([
    [working('b')],
    [asking('b', 'Bash a')],
    [asking('b', 'Bash b')],
    [working('b')],
    [asking('b', 'Bash b')],
  ]);
  t.same(
    out.map((a) => a.length),
    [0, 1, 1, 0, 1],
  );
  t.match(out[2]![0], /Bash b/);
});

t.test('a review counting down rings once, not each second', async (t) => {
  const out = looks([[working('b')], [review('b', 30)], [review('b', 28)], [review('b', 26)]]);
  t.same(
    out.map((a) => a.length),
    [0, 1, 0, 0],
  );
  t.match(out[1]![0], /in review \(30 s left\)/);
});

t.test('never for the run in front: its own server rings', async (t) => {
  t.same(looks([[working('front')], [asking('front')]]), [[], []]);
  t.same(
    looks([[working('front')], [asking('front')]], null),
    [[], ['flower-pty: run front waits for you | waiting for your permission: Bash touch x (/p/front)']],
    'with no run in front, every run counts',
  );
});

t.test(
  "the person's notifications off: nothing rings, and turning a look later does not ring the old news",
  async (t) => {
    t.same(looks([[working('b')], [asking('b')], [asking('b')]], 'front', false), [[], [], []]);
  },
);

t.test('what a run says is made one line before it reaches the terminal', async (t) => {
  const out = looks([[working('b')], [asking('b', 'Bash echo \u001b]0;owned\u0007 x')]]);
  t.notMatch(out[1]![0], /[\u0000-\u001f]/);
});
